"""The mutations of bench/fuzz_integration.py: byte edits, JSON edits drawn from pools of bad values,
.bk2 entry and container edits, and FCEUX state length edits. Seeded by the caller's ``random.Random``."""

from __future__ import annotations

import copy
import io
import json
import random
import re
import struct
import zipfile
from pathlib import Path
from typing import Any

GAME = Path(__file__).resolve().parents[1] / "emucore" / "resources" / "integrations" / "StudioDemo-Nes"

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


def mutate_state(rng: random.Random, compressed: bytes) -> bytes:
    """A .state file: the gzip container edited, or the core state inside (bytes, or FCEUX lengths made longer)."""
    import gzip

    if rng.random() < 0.2:
        return byte_mutate(rng, compressed)
    raw = bytearray(gzip.decompress(compressed))
    if rng.random() < 0.5:
        return gzip.compress(byte_mutate(rng, bytes(raw)), mtime=0)
    fields, at = [], 16
    while at + 5 <= len(raw):  # every section and chunk length of an FCEUX state
        fields.append(at + 1)
        chunk, end = at + 5, at + 5 + struct.unpack_from("<I", raw, at + 1)[0]
        while chunk + 8 <= min(end, len(raw)):
            fields.append(chunk + 4)
            chunk += 8 + struct.unpack_from("<I", raw, chunk + 4)[0]
        at = end
    for field in rng.sample(fields, rng.randint(1, 3)):
        grown = struct.unpack_from("<I", raw, field)[0] + rng.choice([1, 4, 1 << 16, 1 << 31])
        struct.pack_into("<I", raw, field, grown % (1 << 32))
    return gzip.compress(bytes(raw), mtime=0)
