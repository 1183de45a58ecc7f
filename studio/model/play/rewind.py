"""Rewind: a memory-bounded ring of recent save states.

States are grouped: each group starts with a keyframe (the state, compressed) followed by
states stored as the XOR against that keyframe, compressed. Consecutive states differ in few
bytes, so the XOR compresses to almost nothing. The oldest whole group is dropped when the
buffer exceeds its byte budget.
"""

from __future__ import annotations

import zlib
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

LEVEL = 1  # fastest zlib level: rewinding runs in the GUI's frame budget


@dataclass
class _Group:
    keyframe_frame: int
    keyframe: bytes  # compressed state
    size: int  # uncompressed state size
    deltas: list[tuple[int, bytes]] = field(default_factory=list)  # (frame, compressed XOR)
    nbytes: int = 0


class RewindBuffer:
    """Push a state per frame; pop them back newest first.

    Args:
        max_bytes: the memory budget for compressed states.
        keyframe_every: states per group (a keyframe plus deltas against it).
    """

    def __init__(self, max_bytes: int = 256 << 20, keyframe_every: int = 60, max_states: int | None = None):
        self.max_bytes = max_bytes
        self.max_states = max_states
        self.keyframe_every = keyframe_every
        self._groups: deque[_Group] = deque()
        self._nbytes = 0
        self._count = 0
        self._key_cache: tuple[int, np.ndarray] | None = None  # (id of group, decompressed keyframe)

    def __len__(self) -> int:
        return self._count

    @property
    def nbytes(self) -> int:
        return self._nbytes

    def clear(self) -> None:
        self._groups.clear()
        self._nbytes = 0
        self._count = 0
        self._key_cache = None

    def push(self, frame: int, state: bytes) -> None:
        group = self._groups[-1] if self._groups else None
        if group is None or len(group.deltas) + 1 >= self.keyframe_every or group.size != len(state):
            compressed = zlib.compress(state, LEVEL)
            group = _Group(frame, compressed, len(state), nbytes=len(compressed))
            self._groups.append(group)
            self._nbytes += group.nbytes
        else:
            key = self._keyframe(group)
            delta = np.bitwise_xor(np.frombuffer(state, dtype=np.uint8), key)
            compressed = zlib.compress(delta.tobytes(), LEVEL)
            group.deltas.append((frame, compressed))
            group.nbytes += len(compressed)
            self._nbytes += len(compressed)
        self._count += 1
        while len(self._groups) > 1 and (
            self._nbytes > self.max_bytes
            or (self.max_states is not None and self._count - 1 - len(self._groups[0].deltas) >= self.max_states)
        ):
            dropped = self._groups.popleft()
            self._nbytes -= dropped.nbytes
            self._count -= 1 + len(dropped.deltas)

    def pop(self) -> tuple[int, bytes] | None:
        """The newest state and its frame number, removed from the buffer; None when empty."""
        if not self._groups:
            return None
        group = self._groups[-1]
        self._count -= 1
        if group.deltas:
            frame, compressed = group.deltas.pop()
            group.nbytes -= len(compressed)
            self._nbytes -= len(compressed)
            key = self._keyframe(group)
            state = np.bitwise_xor(np.frombuffer(zlib.decompress(compressed), dtype=np.uint8), key).tobytes()
            return frame, state
        self._groups.pop()
        self._nbytes -= group.nbytes
        if self._key_cache is not None and self._key_cache[0] == id(group):
            state = self._key_cache[1].tobytes()
            self._key_cache = None
        else:
            state = zlib.decompress(group.keyframe)
        return group.keyframe_frame, state

    def states(self) -> Iterator[tuple[int, bytes]]:
        """Every state kept and its frame, oldest first, without removing them (lazily: do not
        push or pop while iterating)."""
        for group in list(self._groups):
            key = np.frombuffer(zlib.decompress(group.keyframe), dtype=np.uint8)
            yield group.keyframe_frame, key.tobytes()
            for frame, compressed in list(group.deltas):
                yield frame, np.bitwise_xor(np.frombuffer(zlib.decompress(compressed), dtype=np.uint8), key).tobytes()

    def oldest_frame(self) -> int | None:
        return self._groups[0].keyframe_frame if self._groups else None

    def _keyframe(self, group: _Group) -> np.ndarray:
        if self._key_cache is None or self._key_cache[0] != id(group):
            self._key_cache = (id(group), np.frombuffer(zlib.decompress(group.keyframe), dtype=np.uint8))
        return self._key_cache[1]
