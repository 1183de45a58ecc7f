"""``emucore playback MOVIE...``: the command line of :mod:`emucore.rollout.movie_replay`.

Exit status: 0 when every movie played; 1 when a movie does not match its integration (recorded on
another system or with another ROM: a finding); 2 when a movie could not be played (a missing or
unreadable movie, an unknown game or state, a ROM not imported) or on bad arguments; 130 on Ctrl-C.
Each problem is one ``emucore playback: ...`` line on stderr; the other movies are still played.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from emucore.cli.format import DefaultsHelpFormatter
from emucore.errors import EmucoreError
from emucore.movie.game import MovieMismatchError
from emucore.movie.movie import Movie
from emucore.movie.video import X264_PRESETS
from emucore.rollout.movie_replay import MonitorCSV, ReplaySummary, json_default, replay

EXIT_STATUS = (
    "Exit status: 0 when every movie played; 1 when a movie does not match its integration (recorded on "
    "another system or ROM); 2 on bad arguments or when a movie could not be played (a missing or unreadable "
    "movie, an unknown game or state, a ROM not imported; the other movies are still played); 130 on Ctrl-C."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emucore playback",
        description="Replay .bk2/.fm2 movies through their game's env (headless); optionally export "
        "video, per-step info and a monitor CSV.",
        epilog=EXIT_STATUS,
        formatter_class=DefaultsHelpFormatter,
    )
    parser.add_argument("movies", nargs="+", metavar="MOVIE")
    parser.add_argument("--video", "-o", metavar="OUT.mp4",
                        help="write an H.264 video (with several movies: a folder, one <movie>.mp4 each)")
    parser.add_argument("--no-audio", "-A", action="store_true", help="no audio track in the video")
    parser.add_argument("--info", "-i", metavar="OUT.jsonl",
                        help="write one JSON object per step (with several movies: a folder)")
    parser.add_argument("--csv", "-c", metavar="OUT.csv", help="write a Monitor-style CSV of episode returns")
    parser.add_argument("--state", "-s", metavar="NAME_OR_PATH",
                        help="start from this state (a state of the game, or a .state file) instead of Core.bin")
    parser.add_argument("--power-on", action="store_true",
                        help="play a movie without a usable start state from power-on")
    parser.add_argument("--game", "-g", help="play this integration instead of the movie's GameName")
    parser.add_argument("--ending", "-e", type=int, metavar="N",
                        help="N<0: only the last |N| steps go to the video; N>=0: N more steps with no input")
    parser.add_argument("--crf", type=int, default=17, help="libx264 quality (0 = lossless)")
    parser.add_argument("--preset", default="veryfast", choices=X264_PRESETS, metavar="PRESET",
                        help=f"libx264 preset, one of {', '.join(X264_PRESETS)} (slow is stable-retro's)")
    parser.set_defaults(progress=None)  # before the flags: their own default is hidden from --help
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=argparse.SUPPRESS,
                     help="always draw a progress bar on stderr (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", dest="progress", action="store_false", default=argparse.SUPPRESS,
                     help="never draw a progress bar")
    return parser


def _output_for(option: str | None, movie: str, count: int, suffix: str) -> Path | None:
    if option is None:
        return None
    target = Path(option)
    if count == 1 and not option.endswith(os.sep) and not target.is_dir():
        return target
    return target / (Path(movie).stem + suffix)


def _format_reward(value: float | list[float]) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(f"{v:g}" for v in value) + "]"
    return f"{value:g}"


def main(argv: Sequence[str] | None = None) -> int:
    """``emucore playback``: 0 when every movie played, 1 on a mismatch, 2 when one could not be played (or on bad
    arguments), 130 on Ctrl-C."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if len(args.movies) > 1:
        for option, name in ((args.video, "--video"), (args.info, "--info")):
            if option is not None and Path(option).exists() and not Path(option).is_dir():
                print(f"emucore playback: with several movies, {name} must be a folder", file=sys.stderr)
                return 2
    monitor_file: IO[str] | None = None
    monitor: MonitorCSV | None = None
    failures = mismatches = 0
    played: list[ReplaySummary] = []
    try:
        for movie in args.movies:
            try:
                if args.csv and monitor is None:
                    first = Movie(movie)
                    Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
                    monitor_file = open(args.csv, "w", newline="", encoding="utf-8")  # noqa: SIM115
                    monitor = MonitorCSV(monitor_file, args.game or first.get_game(), first.players)
                summary = replay(
                    movie,
                    state=args.state,
                    power_on=args.power_on,
                    game=args.game,
                    ending=args.ending,
                    video=_output_for(args.video, movie, len(args.movies), ".mp4"),
                    audio=not args.no_audio,
                    info=_output_for(args.info, movie, len(args.movies), ".jsonl"),
                    monitor=monitor,
                    progress=args.progress,
                    crf=args.crf,
                    preset=args.preset,
                )
            except MovieMismatchError as exc:
                mismatches += 1
                print(f"emucore playback: {exc}", file=sys.stderr)
                continue
            except EmucoreError as exc:
                failures += 1
                print(f"emucore playback: {exc}", file=sys.stderr)
                continue
            except OSError as exc:
                failures += 1
                print(f"emucore playback: {movie}: {exc.strerror or exc}: {exc.filename or ''}", file=sys.stderr)
                continue
            played.append(summary)
            _print_summary(summary)
    except KeyboardInterrupt:
        print("\nemucore playback: interrupted", file=sys.stderr)
        return 130
    finally:
        if monitor_file is not None:
            monitor_file.close()
    if len(played) > 1:
        steps = sum(s.steps for s in played)
        frames = sum(s.frames for s in played)
        print(f"total: {len(played)} movies, {frames} frames ({steps} steps)")
    return 2 if failures else 1 if mismatches else 0


def _print_summary(summary: ReplaySummary) -> None:
    episodes = len(summary.episodes)
    print(
        f"{summary.movie}: {summary.game}, {summary.players}P, {summary.frames} frames ({summary.steps} steps), "
        f"total reward {_format_reward(summary.total_reward)}, {episodes} episode end{'s' if episodes != 1 else ''}, "
        f"{summary.fps:.0f} steps/s"
    )
    print(f"  final info: {json.dumps(summary.final_info, default=json_default, sort_keys=True)}")
    if summary.video is not None:
        print(f"  video: {summary.video} ({summary.video_frames} frames, {summary.video_seconds:.2f} s)")
    if summary.info_file is not None:
        print(f"  info: {summary.info_file}")


if __name__ == "__main__":
    sys.exit(main())
