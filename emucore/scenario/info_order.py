"""The order of stable-retro's ``info`` dict, which is the iteration order of C++ hash tables.

stable-retro builds ``info`` by iterating a ``std::unordered_map<std::string, ...>`` of the
variables (filled from data.json in sorted name order, nlohmann's) into a new one, then the
custom variables (their own map, in the order they were first set) into it, and hands that map
to Python. libstdc++'s hash tables (GCC 5 and later, as the wheels are built) iterate in an
order fixed by the string hash, the bucket counts it grows through and the insertion history,
which :class:`StringTable` reproduces, so ``list(info)`` matches stable-retro's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

_U64 = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
_SEED = 0xC70F6907
# Bucket counts a libstdc++ table grows through when filled one element at a time from empty:
# 13 at the first insertion, then the first of its primes at least twice the count.
_GROWTH = (13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061,
           712697, 1447153, 2938679)


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def std_hash(text: str) -> int:
    """``std::hash<std::string>`` of the UTF-8 bytes (libstdc++'s 64-bit ``_Hash_bytes``)."""
    data = text.encode("utf-8", "surrogatepass")
    size = len(data)
    value = _SEED ^ ((size * _MUL) & _U64)
    whole = size & ~7
    for start in range(0, whole, 8):
        word = (_shift_mix((int.from_bytes(data[start:start + 8], "little") * _MUL) & _U64) * _MUL) & _U64
        value = ((value ^ word) * _MUL) & _U64
    if size & 7:
        value = ((value ^ int.from_bytes(data[whole:], "little")) * _MUL) & _U64
    return _shift_mix((_shift_mix(value) * _MUL) & _U64)


class StringTable:
    """The keys of a libstdc++ ``std::unordered_map<std::string, T>`` in its iteration order.

    Models the singly linked node list and the bucket array (each bucket points at the node
    *before* its first node), insertion at the start of a bucket, rehashing and erasing.
    """

    _BEFORE_BEGIN = object()

    def __init__(self, keys: Iterable[str] = ()):
        self._buckets_count = 1
        self._next_resize = 0
        self._next: dict[object, str | None] = {self._BEFORE_BEGIN: None}
        self._hash: dict[str, int] = {}
        self._bucket_before: dict[int, object] = {}
        for key in keys:
            self.insert(key)

    def __contains__(self, key: object) -> bool:
        return key in self._hash

    def __len__(self) -> int:
        return len(self._hash)

    def __iter__(self) -> Iterator[str]:
        node = self._next[self._BEFORE_BEGIN]
        while node is not None:
            yield node
            node = self._next[node]

    def hash_key(self, key: str) -> int:
        """The table's hash function (a subclass models another key type's ``std::hash``)."""
        return std_hash(key)

    def _bucket(self, key: str) -> int:
        return self._hash[key] % self._buckets_count

    def insert(self, key: str) -> None:
        """``emplace``: a key already present stays where it is."""
        if key in self._hash:
            return
        count = len(self._hash) + 1
        if count > self._next_resize:
            wanted = max(count, 0 if self._next_resize else 11)
            if wanted >= self._buckets_count:
                self._rehash(self._grown())
            else:
                self._next_resize = self._buckets_count
        self._hash[key] = self.hash_key(key)
        self._link_at_bucket_start(key, self._bucket(key))

    def _grown(self) -> int:
        for size in _GROWTH:
            if size >= 2 * self._buckets_count:
                return size
        raise OverflowError("more keys than any data.json holds")

    def _link_at_bucket_start(self, key: str, bucket: int) -> None:
        before = self._bucket_before.get(bucket)
        if before is not None:
            self._next[key] = self._next[before]
            self._next[before] = key
            return
        first = self._next[self._BEFORE_BEGIN]
        self._next[key] = first
        self._next[self._BEFORE_BEGIN] = key
        if first is not None:
            self._bucket_before[self._bucket(first)] = key
        self._bucket_before[bucket] = self._BEFORE_BEGIN

    def _rehash(self, buckets_count: int) -> None:
        nodes = list(self)
        self._buckets_count = buckets_count
        self._next_resize = buckets_count
        self._bucket_before = {}
        self._next = {self._BEFORE_BEGIN: None}
        first_bucket = 0
        for key in nodes:
            bucket = self._bucket(key)
            before = self._bucket_before.get(bucket)
            if before is None:
                self._next[key] = self._next[self._BEFORE_BEGIN]
                self._next[self._BEFORE_BEGIN] = key
                self._bucket_before[bucket] = self._BEFORE_BEGIN
                if self._next[key] is not None:
                    self._bucket_before[first_bucket] = key
                first_bucket = bucket
            else:
                self._next[key] = self._next[before]
                self._next[before] = key

    def erase(self, key: str) -> None:
        """Removes ``key`` if present (the bucket count stays, as in libstdc++)."""
        if key not in self._hash:
            return
        bucket = self._bucket(key)
        previous = self._bucket_before[bucket]
        while self._next[previous] != key:
            previous = self._next[previous]
        following = self._next[key]
        following_bucket = self._bucket(following) if following is not None else None
        if previous is self._bucket_before[bucket]:
            if following is None or following_bucket != bucket:
                if following_bucket is not None:
                    self._bucket_before[following_bucket] = self._bucket_before[bucket]
                del self._bucket_before[bucket]
        elif following_bucket is not None and following_bucket != bucket:
            self._bucket_before[following_bucket] = previous
        self._next[previous] = following
        del self._next[key], self._hash[key]

    def clear(self) -> None:
        """Drops every key and keeps the buckets, as ``std::unordered_map::clear`` does."""
        self._next = {self._BEFORE_BEGIN: None}
        self._hash.clear()
        self._bucket_before.clear()


def info_order(variables: Iterable[str], custom: Iterable[str] = ()) -> list[str]:
    """The keys of stable-retro's info: the mapped variables in their table's order, then the custom ones."""
    table = StringTable(variables)
    for name in custom:
        table.insert(name)
    return list(table)


class InfoOrder:
    """The order of one evaluator's info dict as its variables are edited: stable-retro's map of the variables
    (filled in sorted order; ``set_variable`` erases, then inserts) and the orders met with custom or unmapped
    variables (cached)."""

    def __init__(self, variables: Iterable[str]):
        self._table = StringTable(sorted(variables))
        self._orders: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}

    def edited(self, name: str, present: bool) -> None:
        """Variable ``name`` was set (``present``) or removed."""
        self._table.erase(name)
        if present:
            self._table.insert(name)

    def variables(self) -> list[str]:
        """Every variable, in the info's order."""
        return info_order(self._table)

    def ordered(self, info: dict[str, int], custom: dict[str, int]) -> dict[str, int]:
        """``info`` (mapped variables, in the order of :meth:`variables`) with the ``custom`` values, in the info's
        order."""
        key = (tuple(info), tuple(custom))
        order = self._orders.get(key)
        if order is None:
            if len(self._orders) > 64:
                self._orders.clear()
            order = self._orders[key] = info_order([name for name in self._table if name in info], custom)
        info.update(custom)
        return {name: info[name] for name in order}
