"""Seeded mutation fuzzer: how many bad integration files escape as raw exceptions instead of EmucoreError.

Cases mutate a file of ``integrations/StudioDemo-Nes`` or a .bk2 recorded on it (byte-level or JSON edits) and run
``data-make`` (make, reset, steps), ``data-parse``, ``metadata`` (load, lint, make), ``scenario`` (parse, make, lint)
or ``bk2`` (MoviePlayer). Outcomes: ok, clean (EmucoreError), raw (by type and innermost repository frame) and
crash/hang (cases run in child processes; warnings ignored). A seed gives the same cases. From the repository root:

    .venv/bin/python -m bench.fuzz_integration [--kind all] [--cases N] [--seed 0] [--jobs 1] [--json out.json]
    .venv/bin/python -m bench.fuzz_integration --kind scenario --seed 0 --case 17 --show   # one case in full
"""

from __future__ import annotations

import argparse
import copy
import faulthandler
import io
import json
import random
import re
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
from emucore.errors import EmucoreError
from emucore.integration import Integration, lint, parse_data_json, parse_scenario_json
from emucore.movie import MoviePlayer

REPO = Path(__file__).resolve().parents[1]
GAME, SELF = REPO / "integrations" / "StudioDemo-Nes", Path(__file__).resolve()
BATCH, STALL_SECONDS = 500, 30.0  # cases per child process; seconds without a finished case that make a hang
DEFAULT_CASES = {"data-make": 10000, "data-parse": 2000, "metadata": 2000, "scenario": 2000, "bk2": 2000}
LUA = """function reward_fn() return data.score end function error_fn() error("boom") end function str_fn() return
"x" end function loop_fn() while true do end end function unknown_fn() return data.no_such_var end"""
RAWS = ["1e999", "-1e999", "NaN", "-Infinity", '"\\u12"', '"\\x"', '"a\tb"', "[" * 100000 + "]" * 100000,
        '{"a":' * 3000 + "1" + "}" * 3000]  # raw JSON text: a value "@@RAW<i>@@" is dumped as RAWS[i]
COMMON = [2**70, -(2**70), -1, 0, 2**31, 2**32, 2**63, -(2**63), 1e308, 5e-324, 0.5, -0.0, True, False, None,
          "", " ", "\x00", "\ud800", "x" * 5000, "0x10", "-1", [], {}, [[]], {"": {}}, [1, "a", None],
          "../../etc/passwd", "/etc/passwd", *(f"@@RAW{i}@@" for i in range(len(RAWS)))]
PATHS = ["../../etc/passwd", "/etc/passwd", "/nonexistent/x.lua", "script.lua", "missing.lua", "", ".", "..",
         "rom.nes", "Start.state", "a\x00b", "\ud800.lua", "x" * 300, "data.json"]
LUA_REFS = ["lua:reward_fn", "lua:error_fn", "lua:loop_fn", "lua:str_fn", "lua:unknown_fn", "lua:", "reward_fn"]
META_KEYS = ["default_state", "default_player_state", "original_rom_name", "whitelist", "system"]
META_VALUES = ["NoSuch", "../Start", "/etc/passwd", "Start\x00", "Start.state", "rom.nes", ["Start", 1],
               {"rom.nes": ["x"]}, {"data.json": "x"}, {"data.json": ["nope"]}, "Amiga"]
INFO = json.loads((GAME / "data.json").read_bytes())["info"]
POOLS: dict[str, tuple[list[str], list[Any], list[dict]]] = {  # keys, values, templates (merged into the top level)
    "data": (["info", "address", "type", "mask", "score", "lives", "x", ""],
             ["|u1", "<u2", ">n5", "<i4", "|d1", ">u8", "<u16", "|u0", "=u2", "<f4", "|u", "n", ">n99", "|b1",
              "<s4", 0x10000, 0xFFFFFFFF, 2**40, 2**64],
             [{"info": {**INFO, n: {"address": a, "type": t}}} for n in ("score", "new", "", "\ud800")
              for a, t in ((16, "|u1"), (2**40, "<u2"), (-1, ">n5"), (0x7FF, "<u4"), (0, "|u9"), (0, "<u2"))]
             + [{"info": {**INFO, "lives": {**INFO["lives"], "mask": m}}} for m in (0, -1, 2**64, 0xFF, "1")]),
    "metadata": (META_KEYS, META_VALUES, [{k: v} for k in META_KEYS for v in META_VALUES]),
    "scenario": (["reward", "rewards", "done", "scripts", "actions", "crop", "variables", "op", "reference",
                  "measurement", "penalty", "condition", "nodes", "script", "time", "score", "lives", "no_such"],
                 ["equal", "less-than", "greater-than", "nonzero", "zero", "positive", "negative", "sign",
                  "nope", "delta", "absolute", "any", "all", *LUA_REFS, [0, 0, 1, 1], [-1, -1, 99999, 99999],
                  [0, 0, 0], [[["A"]]], [[["NOPE"]]], [["A"]]],
                 [{"scripts": [p]} for p in PATHS]
                 + [{"scripts": ["script.lua"], part: {"script": r}} for part in ("reward", "done") for r in LUA_REFS]
                 + [{part: {"variables": {v: {"op": o, "reference": r, "reward": 1.0, "penalty": 2**70}}}}
                    for part in ("reward", "done") for v in ("score", "no_such", "", "score_digits", "x")
                    for o, r in (("equal", 0), ("nope", 1), ("less-than", "a"), ("sign", 2**70))]
                 + [{"done": {"condition": c, "nodes": {"a": {"variables": {"lives": {"op": "zero"}}}}}}
                    for c in ("any", "all", "nope", 1)]
                 + [{"rewards": [{"variables": {"score": {"reward": 1}}}] * n} for n in (0, 1, 2, 3)]
                 + [{"actions": a} for a in ([[["A"]]], [[["NOPE"]]], [[[]]], [[["A", "A"]]])]
                 + [{"crop": c} for c in ([0, 0, 1, 1], [-5, 0, 10**9, 1], [0, 0, 0, 0], [0.5, 0, 1, 1])]),
}
TOKENS = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00", b"\xef\xbb\xbf", b"\xc0\xaf", b"NaN",
          b"1e999", b"\\u12", b'"', b"{", b"[", b"]", b"}", b":", b",", b"-", b"\r"]
LINES = ["", "?", "StudioDemo-Genesis", "NoSuch-Nes", "../x", "BizHawk v2.0.0", "GEN", "Amiga", "x" * 9999, "\x00",
         "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|P2 A|", "|0|..|", "P0 A|", "P1 A|" * 20, "|",
         "LogKey:#Reset|Power|#P1 Up|", "|..|" + "A" * 99 + "|", "[Input]", "[/Input]", "P9 A|", "|..|........|....|"]


def byte_mutate(rng: random.Random, data: bytes) -> bytes:
    """1-4 byte-level edits: flip bits, delete, insert (tokens, invalid UTF-8, random), duplicate, truncate."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op, pos = rng.choice(["flip", "delete", "insert", "insert", "dup", "truncate"]), rng.randrange(len(buf) + 1)
        end = min(len(buf), pos + rng.randint(1, rng.choice([4, 64, 4096])))
        if op == "flip":
            for _ in range(rng.randint(1, 8) if buf else 0):
                buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
        elif op == "insert":
            buf[pos:pos] = rng.choice(TOKENS) if rng.random() < 0.6 else rng.randbytes(rng.randint(1, 16))
        elif op == "dup":
            buf[pos:pos] = buf[rng.randrange(len(buf) + 1) :][: end - pos] * rng.choice([1, 2, 100])
        else:
            del buf[pos : end if op == "delete" else len(buf)]
    return bytes(buf)


def _nodes(doc: Any, path: tuple = (), parent: Any = None) -> list[tuple[tuple, Any, Any]]:
    """Every (key path, parent, value) of a decoded JSON document, the root first."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    return [(path, parent, doc)] + [n for key, value in items for n in _nodes(value, (*path, key), doc)]


def _edit(rng: random.Random, doc: Any, pool: str) -> Any:
    """One edit at a random key path; pool values are copied, so later edits never change the pools."""
    keys, values, templates = POOLS[pool]
    path, parent, value = rng.choice(_nodes(doc))
    op = rng.choice(["value", "value", "type", "delete", "add", "rename", "template", "template"])
    if op == "template":  # a top-level merge: a new variable, a script and its function, a crop...
        return {**(doc if isinstance(doc, dict) else {}), **copy.deepcopy(rng.choice(templates))}
    other_types = [str(value), [value], {"x": value}, None, len(str(value))]
    new = rng.choice(other_types) if op == "type" else copy.deepcopy(rng.choice(COMMON + values))
    if op in ("delete", "rename") and path:
        parent.pop(path[-1])
        if op == "rename" and isinstance(parent, dict):
            parent[rng.choice([*keys, path[-1].upper(), path[-1] + " ", "\x00"])] = value
    elif op == "add" and isinstance(value, list):
        value.insert(rng.randrange(len(value) + 1), new)
    elif op == "add" and isinstance(value, dict):
        value[rng.choice([*keys, "unknown_key", ""])] = new
    elif not path:
        return new
    else:
        parent[path[-1]] = new
    return doc


def mutate_json(rng: random.Random, original: bytes, pool: str) -> bytes:
    """Half byte-level; half 1-3 edits of the decoded JSON, dumped (maybe not ASCII-escaped) with raw texts."""
    if rng.random() < 0.5:
        return byte_mutate(rng, original)
    doc = json.loads(original)
    for _ in range(rng.randint(1, 3)):
        doc = _edit(rng, doc, pool)
    out = json.dumps(doc, indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.5)
    return re.sub(r'"@@RAW(\d+)@@"', lambda m: RAWS[int(m[1])], out).encode("utf-8", "surrogatepass")


def _text_mutate(rng: random.Random, data: bytes) -> bytes:
    """One line edit: delete, duplicate, insert a pool line, garble characters, change a header value, repeat."""
    lines = data.decode("utf-8", "replace").split("\n")
    i, j, op = rng.randrange(len(lines)), rng.randrange(len(lines)), rng.randrange(6)
    chars = list(lines[i] or " ")
    for _ in range(rng.randint(1, 5)):
        chars[rng.randrange(len(chars))] = rng.choice("|.ARLUDSB P12\t\r#:09\u00e9\x00")
    header = lines[i].partition(" ")[0] + " " + rng.choice(LINES)
    edits = [[], [lines[i], lines[j]], [rng.choice(LINES), lines[i]], ["".join(chars)], [header], None]
    lines[i : i + 1] = edits[op] if op < 5 else [lines[i]] * rng.choice([1000, 100000])
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def mutate_bk2(rng: random.Random, entries: dict[str, bytes], container: bytes) -> bytes:
    """The movie's ZIP bytes mutated, or one entry's content, name or presence changed and the ZIP rebuilt."""
    if rng.random() < 0.3:
        return byte_mutate(rng, container)
    items = list(entries.items())
    i = rng.choices(range(len(items)), [5 if n == "Input Log.txt" else 1 if n == "Core.bin" else 3 for n in entries])[0]
    (name, data), op = items[i], rng.choice(["drop", "rename", "dup", "add", "big"]) if rng.random() < 0.2 else ""
    if op == "drop":
        del items[i]
    elif op == "rename":
        items[i] = (rng.choice(["input log.txt", "dir/" + name, name.split(".")[0], "../" + name, "x"]), data)
    elif op in ("dup", "add"):
        items.append((name, data[::-1]) if op == "dup" else (rng.choice(["Comments.txt", "a/b/c"]), b"\xff" * 10))
    elif op == "big":  # over the 64 MiB cap once inflated
        items[i] = (name, b"|..|A.......|\n" * ((64 << 20) // 14 + 1))
    else:
        text = name != "Core.bin" and rng.random() < 0.5
        items[i] = (name, _text_mutate(rng, data) if text else byte_mutate(rng, data))
    return zip_bytes(items, rng.choice([zipfile.ZIP_DEFLATED, zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED]))


def zip_bytes(items: list[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A ZIP with fixed timestamps, so the same entries give the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in items:
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, compress_type=compression)
    return out.getvalue()


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
    name = {"metadata": "metadata.json", "scenario": "scenario.json", "bk2": "movie.bk2"}.get(kind, "data.json")
    pool, movie = name.split(".")[0], (WS.movie_entries, WS.movie_zip)
    data = mutate_bk2(rng, *movie) if kind == "bk2" else mutate_json(rng, (GAME / name).read_bytes(), pool)
    path, folder, WS.last_input = WS.folder / name, str(WS.folder), data
    if kind != "data-parse":
        path.write_bytes(data)
    return {
        "data-make": [lambda: play_env(rng)],
        "data-parse": [lambda: parse_data_json(data, path)],
        "metadata": [lambda: Integration.load(folder), lambda: lint(folder), lambda: play_env(rng, 0)],
        "scenario": [lambda: parse_scenario_json(data, path), lambda: play_env(rng), lambda: lint(folder)],
        "bk2": [lambda: play_movie(path, rng.choice([None, folder]))],
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
