"""Hypothesis strategies that turn a real file into the kinds of bad file users and downloads bring:
byte damage (flips, truncation, insertions, invalid UTF-8), JSON with values of the wrong type, huge
numbers and deep nesting, zip archives with damaged entries, and special files."""

from __future__ import annotations

import io
import json
import random
import struct
import zipfile
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.targets import SPECIAL

HUGE_NUMBERS = [2**31, -(2**31) - 1, 2**63, -(2**63), 2**64, 10**30, 10**400, 1e308, -1e308, 5e-324,
                float("nan"), float("inf"), float("-inf"), -0.0]
TEXTS = st.text(max_size=30) | st.sampled_from(["", "\ud800", "\x00", "../../etc/passwd", "/", ".", "..",
                                                 "a" * 5000, "lua:", "lua:r", "|u1", ">i4", "<d9", "=b"])


def special_files() -> st.SearchStrategy[str]:
    return st.sampled_from(SPECIAL)


def byte_damage(seed: bytes, max_ops: int = 4) -> st.SearchStrategy[bytes]:
    """``seed`` with a few random edits; every edit keeps the result small (at most a few KiB more)."""

    @st.composite
    def damaged(draw: st.DrawFn) -> bytes:
        data = bytearray(seed)
        for _ in range(draw(st.integers(1, max_ops))):
            at = draw(st.integers(0, len(data)))
            kind = draw(st.sampled_from(["flip", "set", "truncate", "insert", "delete", "repeat", "utf8"]))
            if kind == "flip" and at < len(data):
                data[at] ^= 1 << draw(st.integers(0, 7))
            elif kind == "set" and at < len(data):
                data[at] = draw(st.sampled_from([0, 0xFF, 0x7F, 0x80, draw(st.integers(0, 255))]))
            elif kind == "truncate":
                del data[at:]
            elif kind == "insert":
                data[at:at] = draw(st.binary(max_size=64))
            elif kind == "delete":
                del data[at:at + draw(st.integers(1, 64))]
            elif kind == "repeat":
                data[at:at] = bytes(data[at:at + draw(st.integers(1, 256))]) * draw(st.integers(2, 16))
            elif kind == "utf8":
                data[at:at] = draw(st.sampled_from([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x00"]))
        return bytes(data)

    return damaged()


def json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    """JSON values of every type, with the keys a reader looks for, huge numbers and nesting."""
    scalars = (st.none() | st.booleans() | st.integers() | st.sampled_from(HUGE_NUMBERS)
               | st.floats(allow_nan=True, allow_infinity=True) | TEXTS)
    names = st.sampled_from(keys) | TEXTS if keys else TEXTS
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(names, inner, max_size=6),
                        max_leaves=40)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replace(value: Any, path: tuple, new: Any, delete: bool) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    if delete and not rest:
        del copy[head]
    else:
        copy[head] = _replace(copy[head], rest, new, delete)
    return copy


def dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def json_file(seed: Any, keys: list[str]) -> st.SearchStrategy[bytes | str]:
    """A JSON file made from ``seed``: a subtree replaced or deleted, a whole random value, byte damage
    of its text, deep nesting, a number too long to convert, or a special file."""

    @st.composite
    def tree_edit(draw: st.DrawFn) -> bytes:
        value = seed
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(_paths(value)))
            value = _replace(value, path, draw(json_values(keys)), delete=bool(path) and draw(st.booleans()))
        return dump(value)

    nesting = st.integers(50, 200_000).map(lambda n: b'{"info": ' + b"[" * n + b"]" * n + b"}")
    long_number = st.integers(300, 20_000).map(lambda n: b'{"info": {}, "x": 1' + b"0" * n + b"}")
    return st.one_of(tree_edit(), tree_edit(), tree_edit(), json_values(keys).map(dump),
                     byte_damage(dump(seed)), nesting, long_number, special_files())


def zip_file(seed: bytes) -> st.SearchStrategy[bytes | str]:
    """A zip archive (a ``.bk2``) with an entry's content damaged, an entry dropped or renamed, a
    compression method zipfile cannot read, or the archive's own bytes damaged."""
    with zipfile.ZipFile(io.BytesIO(seed)) as archive:
        entries = {info.filename: archive.read(info) for info in archive.infolist()}

    @st.composite
    def rebuilt(draw: st.DrawFn) -> bytes:
        changed = dict(entries)
        name = draw(st.sampled_from(sorted(entries)))
        action = draw(st.sampled_from(["damage", "drop", "rename", "empty", "huge_line"]))
        if action == "damage":
            changed[name] = draw(byte_damage(entries[name], 6))
        elif action == "drop":
            del changed[name]
        elif action == "rename":
            changed[draw(TEXTS.filter(lambda t: t and "\x00" not in t and "\ud800" not in t))] = changed.pop(name)
        elif action == "empty":
            changed[name] = b""
        else:
            changed[name] = entries[name] + b"|" + b"." * draw(st.integers(1, 100_000)) + b"|\n"
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for entry, content in changed.items():
                archive.writestr(entry, content)
        return out.getvalue()

    @st.composite
    def method(draw: st.DrawFn) -> bytes:
        data = bytearray(seed)
        code = draw(st.sampled_from([1, 6, 9, 12, 14, 93, 95, 98, 99, 0xFFFF]))
        for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
            at = data.find(signature)
            while at >= 0:
                struct.pack_into("<H", data, at + offset, code)
                at = data.find(signature, at + 4)
        return bytes(data)

    return st.one_of(rebuilt(), rebuilt(), method(), byte_damage(seed), special_files())


def _xor(seed: bytes, changes: list[tuple[int, int]]) -> bytes:
    data = bytearray(seed)
    for at, mask in changes:
        data[at] ^= mask
    return bytes(data)


def state_file(seed: bytes) -> st.SearchStrategy[bytes | str]:
    """A core state: byte damage, the real header with a random body (what crashed genesis_plus_gx),
    its 64-byte blocks shuffled (what made stella allocate 1.6 GB), truncated, or a special file."""
    # the random bytes come from a drawn seed: hypothesis's own randoms would draw a megabyte of choices
    seeds = st.integers(0, 2**32 - 1).map(random.Random)
    header = st.tuples(st.integers(0, 64), seeds).map(
        lambda drawn: seed[:drawn[0]] + drawn[1].randbytes(len(seed) - drawn[0]))

    def shuffle(rng: random.Random) -> bytes:
        blocks = [seed[i:i + 64] for i in range(0, len(seed), 64)]
        rng.shuffle(blocks)
        return b"".join(blocks)

    shuffled = seeds.map(shuffle)
    flips = st.lists(st.tuples(st.integers(0, len(seed) - 1), st.integers(1, 255)), min_size=1, max_size=16).map(
        lambda changes: _xor(seed, changes))  # the size kept, so the core's own reader meets the damage
    return st.one_of(byte_damage(seed, 8), flips, flips, header, shuffled,
                     st.integers(0, len(seed)).map(lambda n: seed[:n]), special_files())
