"""Seeded mutation fuzzer: how many bad integration files escape as raw exceptions instead of EmucoreError.

Cases mutate a file of ``integrations/StudioDemo-Nes`` or a .bk2 recorded on it (byte-level or JSON edits) and run
``data-make`` (make, reset, steps), ``data-parse``, ``metadata`` (load, lint, make), ``scenario`` (parse, make, lint),
``bk2`` (MoviePlayer) or ``state`` (Start.state's gzip, core bytes or FCEUX lengths; make, reset, steps).
The mutations are in ``bench/fuzz_mutations.py``. Outcomes: ok, clean (EmucoreError), raw (by type and innermost
repository frame) and crash/hang (cases run in child processes; warnings ignored). A seed gives the same cases.
From the repository root:

    .venv/bin/python -m bench.fuzz_integration [--kind all] [--cases N] [--seed 0] [--jobs 1] [--json out.json]
    .venv/bin/python -m bench.fuzz_integration --kind scenario --seed 0 --case 17 --show   # one case in full
"""

from __future__ import annotations

import argparse
import faulthandler
import io
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import emucore
from bench.fuzz_mutations import LUA, mutate_bk2, mutate_json, mutate_state, zip_bytes
from emucore.env import MoviePlayer
from emucore.errors import EmucoreError
from emucore.integration import Integration, lint, parse_data_json, parse_scenario_json

REPO = Path(__file__).resolve().parents[1]
GAME, SELF = REPO / "emucore" / "resources" / "integrations" / "StudioDemo-Nes", Path(__file__).resolve()
BATCH, STALL_SECONDS = 500, 30.0  # cases per child process; seconds without a finished case that make a hang
DEFAULT_CASES = {"data-make": 10000, "data-parse": 2000, "metadata": 2000, "scenario": 2000, "bk2": 2000, "state": 2000}
WS = SimpleNamespace(folder=Path(), movie_entries={}, movie_zip=b"", last_input=b"")


def play_env(rng: random.Random, steps: int = 5, **kwargs: Any) -> None:
    """make(folder), reset and ``steps`` seeded random steps."""
    with emucore.make(str(WS.folder), **kwargs) as env:  # gymnasium's Env closes itself
        env.action_space.seed(rng.randrange(2**31))
        env.reset(seed=rng.randrange(2**31))
        for _ in range(steps):
            env.step(env.action_space.sample())


def play_movie(path: Path, game: str | None) -> None:
    """Up to 60 steps of MoviePlayer(path, game=game), which reads the file with Movie."""
    with MoviePlayer(path, game=game) as player:
        for _, _step in zip(range(60), player):
            pass


def stages(kind: str, rng: random.Random) -> list[Callable[[], Any]]:
    """Writes this case's mutated file (whole, every case) and returns what to run on it, in order."""
    name = {"metadata": "metadata.json", "scenario": "scenario.json", "bk2": "movie.bk2", "state": "Start.state"}
    name = name.get(kind, "data.json")
    pool, movie, original = name.split(".")[0], (WS.movie_entries, WS.movie_zip), (GAME / name).read_bytes()
    if kind in ("bk2", "state"):
        data = mutate_bk2(rng, *movie) if kind == "bk2" else mutate_state(rng, original)
    else:
        data = mutate_json(rng, original, pool)
    path, folder, WS.last_input = WS.folder / name, str(WS.folder), data
    if kind != "data-parse":
        path.write_bytes(data)
    return {
        "data-make": [lambda: play_env(rng)],
        "data-parse": [lambda: parse_data_json(data, path)],
        "metadata": [lambda: Integration.load(folder), lambda: lint(folder), lambda: play_env(rng, 0)],
        "scenario": [lambda: parse_scenario_json(data, path), lambda: play_env(rng), lambda: lint(folder)],
        "bk2": [lambda: play_movie(path, rng.choice([None, folder]))],
        "state": [lambda: play_env(rng)],
    }[kind]


def where(exc: BaseException) -> str:
    """The innermost traceback frame in the repository (not the venv, not this file), as ``path.py:line``."""
    frames = [(Path(f.f_code.co_filename).resolve(), n) for f, n in traceback.walk_tb(exc.__traceback__)
              if not f.f_code.co_filename.startswith("<")]  # not <frozen posixpath>
    ours = [f"{path.relative_to(REPO)}:{n}" for path, n in frames
            if path != SELF and path.is_relative_to(REPO) and not path.is_relative_to(REPO / ".venv")]
    return ours[-1] if ours else "<outside repo>"


def run_case(kind: str, seed: int, case: int, show: bool = False) -> dict[str, Any]:
    """One case: its stages run in turn; the worst outcome counts (raw > clean > ok), the first raw is kept."""
    result: dict[str, Any] = {"case": case, "outcome": "ok"}
    started = time.perf_counter()
    for stage in stages(kind, random.Random(f"{seed}:{kind}:{case}")):
        try:
            stage()
        except Exception as exc:  # a BaseException (SystemExit) ends the child: counted as a crash
            if show:
                traceback.print_exception(exc)
            if not isinstance(exc, EmucoreError) and result["outcome"] != "raw":
                result.update(outcome="raw", type=type(exc).__name__, where=where(exc))
            elif result["outcome"] == "ok":
                result["outcome"] = "clean"
    result["seconds"] = round(time.perf_counter() - started, 4)
    return result


def setup(kind: str, root: Path) -> None:
    """The private game folder and a warm-up make (for bk2: the recorded movie), outside the measured loop."""
    WS.folder = Path(shutil.copytree(GAME, root / GAME.name))
    (WS.folder / "script.lua").write_text(LUA)
    play_env(random.Random(0), 30 if kind == "bk2" else 5, record=str(root) if kind == "bk2" else False)
    if kind == "bk2":
        with zipfile.ZipFile(next(root.glob("*.bk2"))) as archive:
            WS.movie_entries = {n: archive.read(n) for n in archive.namelist()}
        WS.movie_zip = zip_bytes(list(WS.movie_entries.items()))


def worker(kind: str, seed: int, start: int, stop: int, out: Path) -> None:
    """Runs cases [start, stop) and writes one JSON line per finished case, unbuffered."""
    setup(kind, Path(tempfile.mkdtemp(prefix="ws", dir=out.parent)))
    with open(out, "ab", buffering=0) as f:
        f.write(b'{"ready": true}\n')
        for case in range(start, stop):
            faulthandler.dump_traceback_later(STALL_SECONDS * 0.8)  # a hang leaves its stack in the child's stderr
            f.write((json.dumps(run_case(kind, seed, case)) + "\n").encode())


def run_batch(kind: str, seed: int, start: int, stop: int, tick: Callable[[int], Any]) -> list[dict]:
    """Cases [start, stop) in children; a child that dies or stalls marks its in-flight case; the next resumes."""
    results: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="fuzz-batch-") as tmp:
        while start < stop:
            out, err = Path(tmp) / f"{start}.jsonl", Path(tmp) / f"{start}.err"
            cmd = [sys.executable, "-X", "faulthandler", "-W", "ignore", "-m", "bench.fuzz_integration"]
            cmd += [f"--kind={kind}", f"--seed={seed}", "--worker", str(start), str(stop), str(out)]
            with open(err, "wb") as errf:
                proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=errf)
            seen, last, code = 0, time.monotonic(), None
            while code is None and time.monotonic() - last < (STALL_SECONDS if seen else 300):
                time.sleep(0.05)
                code = proc.poll()  # before reading, so that an exited child's lines are all read
                lines = out.read_text().split("\n")[:-1] if out.exists() else []  # complete lines only
                finished = [json.loads(line) for line in lines[seen:] if '"case"' in line]
                last, seen = time.monotonic() if len(lines) > seen else last, len(lines)
                start = finished[-1]["case"] + 1 if finished else start
                results.extend(finished)
                tick(len(finished))
            proc.kill()  # a no-op once it has exited
            proc.wait()
            if start < stop:  # the case in flight killed or stalled the child
                tail = err.read_text(errors="replace").strip().splitlines()[-12:]
                if not seen:
                    raise RuntimeError(f"the {kind} worker failed before its first case:\n" + "\n".join(tail))
                what = "hang" if code is None else f"crash (exit {code})"
                results.append({"case": start, "outcome": "crash", "detail": what, "stderr": tail})
                tick(1)
                start += 1
    return results


def progress(kind: str, total: int) -> Callable[[int], Any]:
    """Counts finished cases on stderr: a tqdm bar when tqdm is installed, else a counter line."""
    try:
        from tqdm import tqdm
    except ImportError:
        done = [0]

        def tick(n: int) -> None:
            done[0] += n
            print(f"\r{kind}: {done[0]}/{total}", end="", file=sys.stderr)

        return tick
    return tqdm(total=total, desc=kind, file=sys.stderr, smoothing=0.05).update


def fuzz_kind(kind: str, cases: int, seed: int, jobs: int) -> dict[str, Any]:
    """All cases of one kind, ``jobs`` children at a time: the counts and the raw-exception table."""
    tick = progress(kind, cases)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_batch, kind, seed, s, min(s + BATCH, cases), tick) for s in range(0, cases, BATCH)]
        results = sorted((r for f in futures for r in f.result()), key=lambda r: r["case"])
    print(file=sys.stderr)
    table: dict[tuple[str, str], list[int]] = {}
    for r in (r for r in results if r["outcome"] == "raw"):
        table.setdefault((r["type"], r["where"]), []).append(r["case"])
    return {"kind": kind, "seed": seed, "cases": len(results),
            **{k: sum(r["outcome"] == k for r in results) for k in ("ok", "clean", "raw", "crash")},
            "wall_seconds": round(time.perf_counter() - started, 1),
            "case_seconds": round(sum(r.get("seconds", 0) for r in results), 3),
            "raw_classes": [{"type": t, "where": w, "count": len(c), "example": c[0]}
                            for (t, w), c in sorted(table.items(), key=lambda kv: (-len(kv[1]), kv[0]))],
            "crashes": [r for r in results if r["outcome"] == "crash"],
            "slowest": [[r["case"], r["seconds"]] for r in sorted(results, key=lambda r: -r.get("seconds", 0))[:3]]}


def report(s: dict[str, Any]) -> None:
    """Prints one kind's counts and its raw exceptions by (type, location)."""
    print(f"\n== {s['kind']} (seed {s['seed']}): {s['cases']} cases, wall {s['wall_seconds']} s, inside cases "
          f"{s['case_seconds']} s ({1000 * s['case_seconds'] / max(s['cases'], 1):.1f} ms/case)")
    print(f"ok {s['ok']}  clean errors {s['clean']}  raw exceptions {s['raw']}  crashes/hangs {s['crash']}")
    if s["raw_classes"]:
        print(f"  {'count':>6}  {'type':<24} {'where':<48} example")
    for row in s["raw_classes"]:
        print(f"  {row['count']:>6}  {row['type']:<24} {row['where']:<48} --case {row['example']}")
    for crash in s["crashes"]:
        print(f"  {crash['detail']}: --kind {s['kind']} --seed {s['seed']} --case {crash['case']} --show\n    "
              + "\n    ".join(crash["stderr"]))
    print("  slowest: " + ", ".join(f"case {case} {seconds:.2f} s" for case, seconds in s["slowest"]))


def show(kind: str, seed: int, case: int) -> None:
    """Runs one case in this process: prints its input (before it can crash), every traceback, the outcome."""
    with tempfile.TemporaryDirectory(prefix="fuzz-show-") as tmp:
        setup(kind, Path(tmp))
        stages(kind, random.Random(f"{seed}:{kind}:{case}"))  # what run_case will make again
        print(f"--- input ({len(WS.last_input)} bytes) ---")
        try:
            with zipfile.ZipFile(io.BytesIO(WS.last_input)) as archive:
                for info in archive.infolist():
                    print(f"[{info.filename!r}, {info.file_size} bytes]\n{archive.read(info)[:1500]!r}")
        except Exception as exc:  # JSON, or a container zipfile cannot read
            print(f"({exc!r})\n" * (kind == "bk2") + WS.last_input[:4000].decode("utf-8", "backslashreplace"))
        print("--- run ---", flush=True)
        print(f"--- result ---\n{json.dumps(run_case(kind, seed, case, show=True))}")


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", default="all", choices=["all", *DEFAULT_CASES])
    parser.add_argument("--cases", type=int, help="cases per kind (default: data-make 10000, others 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="child processes at a time")
    parser.add_argument("--json", help="write the counts to this file")
    parser.add_argument("--case", type=int, default=0, help="the case --show runs")
    parser.add_argument("--show", action="store_true", help="run --case here, print its input and tracebacks")
    parser.add_argument("--worker", nargs=3, metavar=("START", "STOP", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.kind, args.seed, int(args.worker[0]), int(args.worker[1]), Path(args.worker[2]))
    if args.show:
        return show(args.kind, args.seed, args.case) if args.kind != "all" else parser.error("--show needs a --kind")
    summaries = []
    for kind in DEFAULT_CASES if args.kind == "all" else [args.kind]:
        summaries.append(fuzz_kind(kind, args.cases or DEFAULT_CASES[kind], args.seed, args.jobs))
        report(summaries[-1])
        if args.json:
            Path(args.json).write_text(json.dumps(summaries, indent=2) + "\n")


if __name__ == "__main__":
    main()
