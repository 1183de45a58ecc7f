"""Movie playback speed: without video against the emulator's own step rate, with video against real time.

A movie of random inputs (all buttons) is recorded on StudioDemo-Genesis from its Start state.
Then, in alternating rounds (ABBA), the same lines are run:

* ``emulator``  - the bare Emulator: ``set_button_mask`` + ``step`` per line (no env, no movie);
* ``env``       - ``env.step(keys)`` with precomputed keys (the env, no movie);
* ``playback``  - :class:`emucore.env.MoviePlayer` iteration without observations (env + movie),
  which is what ``emucore playback`` runs when no video or info file is asked for;

and once more with ``replay(video=...)`` (H.264 + AAC encoded as it plays), timed end to end
(opening the movie, making the env and finishing the file included).

    python bench/bench_playback.py [--frames 3000] [--rounds 6] [--video-frames 3600]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

GAME = "StudioDemo-Genesis"


def record(folder: Path, frames: int) -> Path:
    import emucore
    from emucore.movie import MovieRecorder

    env = emucore.make(GAME, inttype=emucore.data.Integrations.ALL)
    env.reset()
    em = env.em
    rng = np.random.default_rng(0)
    path = folder / f"bench-{frames}.bk2"
    with MovieRecorder(path, em, GAME, start_state=env.initial_state) as recorder:
        em.set_state(env.initial_state)
        for frame in range(frames):
            mask = 0 if frame == 0 else int(rng.integers(0, 1 << 12))
            recorder.record_frame([mask])
            em.set_button_mask(mask, 0)
            em.step()
    env.close()
    return path


def bare_emulator(path: Path) -> float:
    import emucore
    from emucore.host.emulator import Emulator
    from emucore.movie import Movie

    movie = Movie(path)
    masks = movie.get_masks()[:, 0].tolist()
    rom = emucore.data.get_romfile_path(GAME, emucore.data.Integrations.ALL)
    with Emulator(rom) as em:
        em.set_state(movie.get_state())
        em.set_button_mask(0, 0)
        em.step()
        start = time.perf_counter()
        for mask in masks[1:]:
            em.set_button_mask(mask, 0)
            em.step()
        return (len(masks) - 1) / (time.perf_counter() - start)


def env_only(path: Path) -> float:
    import emucore
    from emucore.movie import Movie

    movie = Movie(path)
    masks = movie.get_masks()[:, 0]
    keys = ((masks[:, None] >> np.arange(12, dtype=np.uint16)) & 1).astype(bool)
    env = emucore.make(GAME, state=emucore.State.NONE, use_restricted_actions=emucore.Actions.ALL,
                       inttype=emucore.data.Integrations.ALL)
    try:
        env.initial_state = movie.get_state()
        env.reset()
        start = time.perf_counter()
        for row in keys[1:]:
            env.step(row)
        return (len(keys) - 1) / (time.perf_counter() - start)
    finally:
        env.close()


def playback(path: Path) -> float:
    from emucore.env import MoviePlayer

    with MoviePlayer(path, observe=False) as player:  # as `emucore playback` without --video/--info
        start = time.perf_counter()
        for _ in player:
            pass
        return player.steps / (time.perf_counter() - start)


def with_video(path: Path, folder: Path) -> tuple[float, float, int]:
    """(x real time, steps/s, steps), timed end to end."""
    from emucore.env import replay

    start = time.perf_counter()
    summary = replay(path, video=folder / "bench.mp4")
    elapsed = time.perf_counter() - start
    return summary.video_seconds / elapsed, summary.steps / elapsed, summary.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--video-frames", type=int, default=3600, help="movie length for the video run (60 s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        movie = record(folder, args.frames)
        runs = {"emulator": bare_emulator, "env": env_only, "playback": playback}
        rates: dict[str, list[float]] = {name: [] for name in runs}
        order = list(runs.items())
        for round_index in range(args.rounds):
            for name, run in order if round_index % 2 == 0 else order[::-1]:
                rates[name].append(run(movie))
        median = {name: statistics.median(values) for name, values in rates.items()}
        print(f"{GAME}, {args.frames}-frame movie, median of {args.rounds} rounds (steps/s):")
        for name, value in median.items():
            print(f"  {name:<9} {value:8.0f}")
        print(f"  playback / emulator = {median['playback'] / median['emulator']:.3f}   "
              f"playback / env = {median['playback'] / median['env']:.3f}   (target >= 0.95)")
        long_movie = movie if args.video_frames == args.frames else record(folder, args.video_frames)
        speeds = [with_video(long_movie, folder) for _ in range(3)]
        speed, steps_per_second, steps = statistics.median(s[0] for s in speeds), speeds[0][1], speeds[0][2]
        print(f"with video (H.264 + AAC, {steps} frames, end to end, median of 3): {speed:.1f}x real time "
              f"({steps_per_second:.0f} steps/s; target >= 5x)")


if __name__ == "__main__":
    main()
