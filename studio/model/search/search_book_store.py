"""The Search dock's searches kept in the game's workspace across runs. No Qt.

A :class:`SearchStore` saves a :class:`~studio.model.search.search_book.SearchBook` into a folder (the
workspace's ``searches/``) on every ``"searches"``/``"candidates"`` event, and loads it back:

* ``book.json`` - the memory layout's signature, the current search, and per search its name,
  types, value box text, position (undo/redo) and steps (label, candidate file, snapshots);
* ``snapshots/<hash>.npz`` - the bytes of each distinct snapshot once, named by their hash;
* ``candidates/<hash>.npz`` - each distinct candidate set, compressed (masks packed to bits,
  positions as int64), named by its hash.

Saving writes only the files not there yet, then ``book.json``, then removes the files no
longer named (all writes atomic): a refinement costs one snapshot, one candidate set and the index.

Disk use is bounded: per search, the start step and the last ``KEEP_STEPS - 1`` steps are saved
(the oldest others are left out, as :class:`~emucore.search.MemorySearch` drops its oldest past
``MAX_HISTORY``), so at most ``KEEP_STEPS`` candidate sets (each at most one bit per type and
position) and ``2 * KEEP_STEPS + 1`` snapshots (each the size of memory) per search. On the
Genesis (64 KiB of RAM, 15 types) that is at most 32 x 120 KiB + 65 x 64 KiB, under 8 MiB before
compression; a real search compresses to far less (100 steps of the homebrew game: under 100 KiB).

A folder that cannot be loaded (bad JSON, a truncated or altered file, another memory layout:
another game or core) is set aside as ``searches.bad`` and reported; the book starts empty.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from emucore.fileio import MAX_JSON_BYTES, atomic_write_bytes, atomic_write_text, open_regular, read_regular
from emucore.search import CandidateSet, MemorySearch, Snapshot, Step
from emucore.search.ops import renamed_label
from emucore.search.snapshot import Layout, layout_of
from studio.model.events import Connections
from studio.model.search.search_book import SearchBook
from studio.model.set_aside import OpenProblem, describe, set_aside_problem

KEEP_STEPS = 32  # steps saved per search: the start and the last 31
VERSION = 1
NONE, MASK, POSITIONS = 0, 1, 2  # how each type's candidates are stored


class BadFile(ValueError):
    """A file of the folder that cannot be loaded."""

    def __init__(self, path: Path, problem: str):
        super().__init__(problem)
        self.path = path


def kept_steps(count: int, at: int, keep: int = KEEP_STEPS) -> list[int]:
    """The indices of the steps saved: the start, and at most ``keep - 1`` consecutive later ones,
    the latest possible that include step ``at``."""
    if count <= keep:
        return list(range(count))
    first = count - (keep - 1)
    if 0 < at < first:
        first = at
    return [0, *range(first, first + keep - 1)]


def content_hash(arrays: dict[str, np.ndarray]) -> str:
    """The name of the file holding ``arrays``: a hash of their names, types, shapes and bytes."""
    h = hashlib.blake2b(digest_size=16)
    for key in sorted(arrays):
        a = np.ascontiguousarray(arrays[key])
        h.update(f"{key}:{a.dtype.str}:{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """``arrays`` as a compressed npz file."""
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]  # numpy's stub types the keywords as bool
    return out.getvalue()


def encode_candidates(cset: CandidateSet) -> dict[str, np.ndarray]:
    """A candidate set as the arrays of its file."""
    kinds = np.zeros(len(cset.parts), dtype=np.uint8)
    arrays: dict[str, np.ndarray] = {}
    for t, part in enumerate(cset.parts):
        if part is None:
            continue
        if part.dtype == bool:
            kinds[t], arrays[f"p{t}"] = MASK, np.packbits(part)
        else:
            kinds[t], arrays[f"p{t}"] = POSITIONS, part.astype(np.int64)
    arrays["kinds"] = kinds
    return arrays


def decode_candidates(arrays: dict[str, np.ndarray], layout: Layout) -> CandidateSet:
    """The candidate set of :func:`encode_candidates`' arrays (ValueError when they do not fit)."""
    kinds = arrays["kinds"]
    if kinds.dtype != np.uint8 or kinds.ndim != 1:
        raise ValueError("the kinds of the candidate parts are not a list of bytes")
    parts: list[np.ndarray | None] = []
    packed_length = (layout.positions + 7) // 8
    for t, kind in enumerate(kinds):
        if kind == NONE:
            parts.append(None)
        elif kind == MASK:
            packed = arrays[f"p{t}"]
            if packed.dtype != np.uint8 or packed.shape != (packed_length,):
                raise ValueError(f"candidate mask {t} does not fit this memory layout")
            parts.append(np.unpackbits(packed, count=layout.positions).astype(bool))
        elif kind == POSITIONS:
            parts.append(np.asarray(arrays[f"p{t}"], dtype=np.int64))
        else:
            raise ValueError(f"candidate part {t} is of unknown kind {kind}")
    return CandidateSet(layout, parts)


def layout_json(layout: Layout) -> Any:
    """A layout's signature as JSON reads it back."""
    return json.loads(json.dumps(layout.signature))


class SearchStore:
    """Keeps a :class:`SearchBook` in ``folder`` (see the module docstring).

    Args:
        book: The searches.
        folder: Where they are kept (e.g. ``session.states.workspace / "searches"``).
        report: Told about a folder set aside, or a save that failed.
    """

    def __init__(self, book: SearchBook, folder: Path, report: Callable[[OpenProblem], None] | None = None):
        self.book = book
        self.folder = Path(folder)
        self.report = report or (lambda problem: None)
        self._names: dict[int, tuple[Any, str]] = {}  # id(snapshot or candidate set) -> (it, its file's hash)
        self._json: str | None = None  # book.json as last written or read
        self._files: set[Path] = set()  # the files book.json names
        self._failed = False
        self._connections = Connections()

    @classmethod
    def attach(cls, book: SearchBook, folder: Path, report: Callable[[OpenProblem], None] | None = None
               ) -> SearchStore:
        """Loads the saved searches into ``book`` (a new, empty one) and saves it on every change."""
        store = cls(book, folder, report)
        store.load()
        store._connections.connect(book.events.searches, store.save)
        store._connections.connect(book.events.candidates, store.save)
        store._connections.connect(book.events.value_text, store.save)
        return store

    def detach(self) -> None:
        """Stops saving the book."""
        self._connections.disconnect_all()

    # ---- saving ----

    def _hash(self, thing: Any, arrays: Callable[[], dict[str, np.ndarray]]) -> tuple[str, dict | None]:
        known = self._names.get(id(thing))
        if known is not None and known[0] is thing:
            return known[1], None
        made = arrays()
        return content_hash(made), made

    def save(self) -> bool:
        """Writes what changed since the last save; False (reported once) when it cannot be written."""
        try:
            self._save()
        except OSError as exc:
            if not self._failed:
                self.report(OpenProblem(self.folder, describe(exc), "", None,
                                        "the searches are not saved until it can be written"))
            self._failed = True
            return False
        self._failed = False
        return True

    def _save(self) -> None:
        names: dict[int, tuple[Any, str]] = {}
        table: list[dict] = []
        rows: dict[int, int] = {}  # id(snapshot) -> its row in table
        files: set[Path] = set()
        pending: dict[Path, dict[str, np.ndarray]] = {}

        def store(thing: Any, kind: str, arrays: Callable[[], dict[str, np.ndarray]]) -> str:
            digest, made = self._hash(thing, arrays)
            names[id(thing)] = (thing, digest)
            path = self.folder / kind / f"{digest}.npz"
            files.add(path)
            if path not in self._files and not path.exists():
                pending[path] = made if made is not None else arrays()
            return digest

        def snapshot_row(snap: Snapshot | None) -> int | None:
            if snap is None:
                return None
            if id(snap) not in rows:
                digest = store(snap, "snapshots", lambda: {"buf": snap.buf})
                rows[id(snap)] = len(table)
                table.append({"file": digest, "frame": snap.frame, "label": snap.label})
            return rows[id(snap)]

        searches = []
        for name in self.book.names():
            search = self.book.get(name)
            kept = kept_steps(len(search.steps), search.position)
            steps = []
            for index in kept:
                step = search.steps[index]
                encoded = partial(encode_candidates, step.candidates)
                steps.append({"label": step.label, "candidates": store(step.candidates, "candidates", encoded),
                              "reference": snapshot_row(step.reference), "compared": snapshot_row(step.compared)})
            searches.append({"name": name, "types": list(search.types),
                             "value_text": self.book.value_texts.get(name, ""), "at": kept.index(search.position),
                             "first": snapshot_row(search.first), "steps": steps})
        first = self.book.get(self.book.names()[0]).first if searches else None
        document = {"version": VERSION, "layout": layout_json(first.layout) if first is not None else None,
                    "current": self.book.current_name, "snapshots": table, "searches": searches}
        text = json.dumps(document, indent=1) + "\n"
        for path, arrays in pending.items():
            atomic_write_bytes(path, npz_bytes(arrays))
        if text != self._json:
            atomic_write_text(self.folder / "book.json", text)
            self._json = text
        if files != self._files:
            for kind in ("snapshots", "candidates"):
                for path in (self.folder / kind).glob("*.npz"):
                    if path not in files:
                        path.unlink(missing_ok=True)
        self._names, self._files = names, files

    # ---- loading ----

    def load(self) -> bool:
        """Adds the saved searches to the book; False (the folder set aside and reported) when
        they cannot be loaded. Nothing saved is not a problem."""
        index = self.folder / "book.json"
        if not index.exists():
            return True
        layout = layout_of(self.book.emulator.memory)  # outside the try: no emulator is not a bad folder
        try:
            loaded, current, texts = self._read(index, layout)
        except Exception as exc:  # whatever a damaged file makes numpy, zipfile or json raise
            where = exc.path if isinstance(exc, BadFile) else index
            problem = f"{where.relative_to(self.folder)}: {describe(exc)}"
            self.report(set_aside_problem(self.folder, problem, "the saved searches are not loaded"))
            self._names, self._json, self._files = {}, None, set()
            return False
        self.book.value_texts.update(texts)
        for name, search in loaded:
            self.book.add(name, search)
        if current is not None and current in self.book:
            self.book.select(current)
        return True

    def _read(self, index: Path, layout: Layout) -> tuple[list[tuple[str, MemorySearch]], str | None, dict]:
        text = read_regular(index, MAX_JSON_BYTES).decode("utf-8")
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise BadFile(index, f"not a version {VERSION} search book")
        if data["searches"] and data["layout"] != layout_json(layout):
            raise BadFile(index, "saved for another memory layout (another game or core)")
        buffers: dict[str, np.ndarray] = {}
        snapshots = [self._snapshot(entry, layout, buffers) for entry in data["snapshots"]]
        csets: dict[str, CandidateSet] = {}
        loaded: list[tuple[str, MemorySearch]] = []
        texts: dict[str, str] = {}
        for entry in data["searches"]:
            name = entry["name"]
            if not isinstance(name, str) or not name.strip() or name in dict(loaded):
                raise BadFile(index, f"search name {name!r} is empty, not text or repeated")
            steps = []
            for step in entry["steps"]:
                compared = step["compared"]
                label = renamed_label(str(step["label"]))  # saved before less/greater were renamed
                steps.append(Step(label, self._candidates(step["candidates"], layout, csets),
                                  snapshots[_row(step["reference"])],
                                  None if compared is None else snapshots[_row(compared)]))
            try:
                search = MemorySearch.restore(self.book.emulator, [str(t) for t in entry["types"]], steps,
                                              _row(entry["at"]), snapshots[_row(entry["first"])])
            except ValueError as exc:
                raise BadFile(index, f"search {name!r}: {exc}") from exc
            loaded.append((name, search))
            texts[name] = str(entry.get("value_text", ""))
        current = data["current"]
        for digest, cset in csets.items():
            self._names[id(cset)] = (cset, digest)
        self._files = {self.folder / "snapshots" / f"{d}.npz" for d in buffers}
        self._files |= {self.folder / "candidates" / f"{d}.npz" for d in csets}
        self._json = text
        return loaded, current if isinstance(current, str) else None, texts

    def _arrays(self, kind: str, digest: Any) -> tuple[Path, dict[str, np.ndarray]]:
        if not isinstance(digest, str) or len(digest) != 32 or any(c not in "0123456789abcdef" for c in digest):
            raise BadFile(self.folder / "book.json", f"{digest!r} is not a file name of {kind}/")
        path = self.folder / kind / f"{digest}.npz"
        try:
            with open_regular(path) as f, np.load(f) as npz:
                arrays = {key: npz[key] for key in npz.files}
        except Exception as exc:
            raise BadFile(path, describe(exc)) from exc
        if content_hash(arrays) != digest:
            raise BadFile(path, "its content does not match its name (the file was altered)")
        return path, arrays

    def _snapshot(self, entry: dict, layout: Layout, buffers: dict[str, np.ndarray]) -> Snapshot:
        digest = entry["file"]
        if digest not in buffers:
            path, arrays = self._arrays("snapshots", digest)
            buf = arrays.get("buf")
            if buf is None or buf.dtype != np.uint8 or buf.shape != (layout.length,):
                raise BadFile(path, f"not a snapshot of this memory layout ({layout.length} bytes)")
            buf.flags.writeable = False
            buffers[digest] = buf
        frame = entry.get("frame")
        if frame is not None and not isinstance(frame, int):
            raise BadFile(self.folder / "book.json", f"snapshot frame {frame!r} is not a whole number")
        snap = Snapshot(layout, buffers[digest], frame, str(entry.get("label", "")))
        self._names[id(snap)] = (snap, digest)
        return snap

    def _candidates(self, digest: Any, layout: Layout, csets: dict[str, CandidateSet]) -> CandidateSet:
        if digest not in csets:
            path, arrays = self._arrays("candidates", digest)
            try:
                csets[digest] = decode_candidates(arrays, layout)
            except (KeyError, ValueError) as exc:
                raise BadFile(path, describe(exc)) from exc
        return csets[digest]


def _row(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{value!r} is not a row number")
    return value
