"""What compiling a chunk may cost, priced before LuaJIT compiles it.

Compiling is one C call: the count hook sees none of it and the CPU-time net is read only after it
returns. Most of LuaJIT's parser (lj_parse.c) is linear in the source, and the source is bounded
(4 MiB per script file, the memory cap for ``load``), but a few of its paths are not:

- jump lists (``jmp_append`` walks a list to its end before appending): the exits of an ``if``'s
  branches (one per ``elseif``), the false/true exits of one ``and``/``or`` expression, the jumps
  patched to the same instruction (``jpc``: a loop's ``break``\\s, ``goto``\\s to one label). A list
  of n costs n**2 / 2 steps;
- gotos and labels (``gola_findlabel``, ``gola_resolve``, ``gola_fixup``) scan the function's
  variable stack (its locals, gotos, labels and breaks, at most 65,476 entries) for each goto and label;
- names (``var_lookup_``) scan the active locals (at most 200) and upvalues (at most 60) of every
  enclosing function for each name the chunk refers to, and functions nest up to about 100 deep.

:func:`refusal` tokenizes the source as LuaJIT's lexer does (comments and strings skipped) and
follows the blocks that bound each list: an ``if`` frame counts its ``elseif``\\s, a loop its
breaks, an expression (from one statement keyword, ``=``, ``,`` or a call's parentheses to the next)
its ``and``/``or``, a function its gotos, labels and variable-stack entries, and each name costs the
scan width of the functions around it. Counts only ever err upwards (a name that is a field counts as
a lookup, an unclosed block stays open to the end), so the sum bounds the parser's extra steps; the
walk stops where LuaJIT's lexer would (an unfinished string). A source of at most 64 KiB whose crude
bound (each keyword counted wherever it stands) is within the limit skips the walk.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter

COMPILE_COST_LIMIT = 100_000_000
"""Steps of LuaJIT's parser beyond its linear work one chunk may need (about 2 ns each: 0.2 s)."""

MAX_ACTIVE_LOCALS, MAX_UPVALUES, MAX_VSTACK = 200, 60, 65_476  # lj_parse.c's limits

LOOKUP_STEPS = 3
"""Steps of a name lookup's scan (one comparison, ~0.8 ns) per step of a jump list's walk (~2.3 ns)."""

_NAME = rb"[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*"
_KEYWORD = (rb"(?:and|break|do|else|elseif|end|false|for|function|goto|if|in|local|nil|not|or|repeat|return"
            rb"|then|true|until|while)(?![A-Za-z0-9_\x80-\xff])")
_NUMBER = rb"\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_\x80-\xff.])*"
# a run: names (no keyword), numbers and operators that change no count (what most of a source is)
_RUN = rb"(?:[ \t\r\n\f\v]*(?:(?!" + _KEYWORD + rb")" + _NAME + rb"|" + _NUMBER + \
    rb"|\.\.\.?|==|~=|<=|>=|-(?!-)|:(?!:)|[+*/%^#<>.~&|]))+"
_TOKENS = re.compile(rb"""
    [ \t\r\n\f\v]*(?:
      (?P<long>(?:--)?\[(?P<level>=*)\[)
    | --[^\n]*
    | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
    | (?P<stop>["'])
    | (?P<run>""" + _RUN + rb""")
    | (?P<name>""" + _NAME + rb""")
    | (?P<op>::|[^ \t\r\n\f\v])
    )""", re.S | re.X)
_WORDS = re.compile(rb"[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*")
_VALUES = {b"not", b"nil", b"true", b"false"}  # keywords inside an expression: no boundary, no lookup
_LOOPS = ("while", "for", "repeat")
_CRUDE_SIZE = 1 << 16  # bytes of source the crude bound is tried on
_CHECK_CLOCK_EVERY = 1 << 14  # tokens between two reads of the clock (when a deadline is given)


class _Function:
    __slots__ = ("active", "names", "gola", "entries")

    def __init__(self) -> None:
        self.active = self.names = self.gola = self.entries = 0


class _Block:
    __slots__ = ("kind", "function", "declared", "chain", "elseifs", "breaks", "awaiting_do", "brackets")

    def __init__(self, kind: str, function: _Function) -> None:
        self.kind, self.function, self.awaiting_do = kind, function, kind in ("while", "for")
        self.declared = self.chain = self.elseifs = self.breaks = 0
        self.brackets: list[tuple[bool, int]] = []  # open (, [, {: (its contents discharged?, outer chain)


class _Scan:
    """The walk over one source: ``cost`` (parser steps) and ``worst`` (the largest part, described)."""

    def __init__(self) -> None:
        self.cost = self.lookups = 0.0
        self.worst = (0.0, "")
        self.width = 0  # steps one name lookup takes now: active locals and upvalues of the open functions
        root = _Function()
        self.blocks = [_Block("chunk", root)]
        self.declaring = ""  # "names" after local and for, "params" in a function's parameter list
        self.params_next = False
        self.previous = b""  # the previous token (a name, keyword or operator; b'"' a string, b"0" a number)

    def charge(self, steps: float, what: str) -> None:
        self.cost += steps
        if steps > self.worst[0]:
            self.worst = (steps, what)

    def declare(self, count: int = 1) -> None:
        block = self.blocks[-1]
        function = block.function
        block.declared += count
        function.entries += count
        self.width += min(function.active + count, MAX_ACTIVE_LOCALS) - min(function.active, MAX_ACTIVE_LOCALS)
        function.active += count

    def check(self, count: int, what: str) -> None:
        """Charges a list still growing once its walk alone is past the limit: the scan can stop."""
        if count * count / 2 > COMPILE_COST_LIMIT:
            self.charge(count * count / 2, what.format(count))

    def goto_or_label(self, function: _Function) -> None:
        function.gola += 1
        function.entries += 1
        entries = min(function.entries, MAX_VSTACK)
        if function.gola * entries > COMPILE_COST_LIMIT:  # the scan can stop
            self.charge(function.gola * entries, f"over {function.gola} gotos and labels among {entries} variables")

    def end_chain(self) -> None:
        block = self.blocks[-1]
        if block.chain:
            self.charge(block.chain * block.chain / 2, f"an and/or expression of {block.chain} operators")
            block.chain = 0

    def close(self, until: bool = False) -> bool:
        """Ends the innermost block; False when none is left (a parser would stop at its ``end``)."""
        self.end_chain()
        block = self.blocks.pop()
        if block.elseifs:
            self.charge(block.elseifs ** 2 / 2, f"an if with {block.elseifs} elseif branches")
        if block.breaks:
            self.charge(block.breaks ** 2 / 2, f"a loop with {block.breaks} breaks")
        function = block.function
        if until and self.blocks:  # the condition still sees the body's locals: keep them to the outer block's end
            self.blocks[-1].declared += block.declared
        else:
            before = min(function.active, MAX_ACTIVE_LOCALS)
            function.active -= block.declared
            self.width -= before - min(function.active, MAX_ACTIVE_LOCALS)
        if block.kind in ("function", "chunk"):
            self.width -= min(function.names, MAX_UPVALUES)
            if function.gola:
                entries = min(function.entries, MAX_VSTACK)
                self.charge(function.gola * entries, f"{function.gola} gotos and labels among {entries} variables")
        return bool(self.blocks)

    def keyword(self, word: bytes) -> bool:
        """Handles a keyword; False once a parser would have stopped (an ``end`` with nothing open)."""
        block = self.blocks[-1]
        if word in (b"and", b"or"):
            block.chain += 1
            self.check(block.chain, "an and/or expression of over {} operators")
            return True
        declaring, self.declaring = self.declaring, ""
        if word == b"function":  # an expression too: the chain around it goes on
            if self.previous == b"local":
                self.declare()
            self.blocks.append(_Block("function", _Function()))
            self.declare()  # self, if it is a method (an upper bound either way)
            self.params_next = True
            return True
        self.end_chain()
        if word in (b"if", b"while", b"for", b"repeat"):
            self.blocks.append(_Block(word.decode(), block.function))
            if word == b"for":
                self.declare(3)  # the loop's hidden state
        elif word == b"do":
            if block.awaiting_do:
                block.awaiting_do = False
            else:
                self.blocks.append(_Block("do", block.function))
        elif word == b"elseif":
            block.elseifs += 1
            self.check(block.elseifs, "an if with over {} elseif branches")
        elif word == b"break":
            loops = [b for b in self.blocks if b.function is block.function and b.kind in _LOOPS]
            loop = loops[-1] if loops else block
            loop.breaks += 1
            self.check(loop.breaks, "a loop with over {} breaks")
            block.function.entries += 1
        elif word == b"goto":
            self.goto_or_label(block.function)
        elif word in (b"end", b"until"):
            return self.close(until=word == b"until")
        if word in (b"local", b"for"):
            self.declaring = "names"
        elif declaring == "params":
            self.declaring = declaring
        return True

    def name(self, word: bytes) -> None:
        if self.declaring:
            if self.previous in (b"local", b"for", b",", b"("):
                self.declare()
                return
            if self.declaring == "names":
                self.declaring = ""
        function = self.blocks[-1].function
        self.lookups += self.width / LOOKUP_STEPS
        if function.names < MAX_UPVALUES:
            function.names += 1
            self.width += 1

    def run(self, text: bytes) -> None:
        names = len(_WORDS.findall(text))  # a number's letters count too: an upper bound
        if names and self.declaring and self.previous in (b"local", b"for", b",", b"("):
            self.declare()
            names -= 1
        if self.declaring == "names":
            self.declaring = ""
        function = self.blocks[-1].function
        self.lookups += self.width * names / LOOKUP_STEPS
        grow = min(function.names + names, MAX_UPVALUES) - min(function.names, MAX_UPVALUES)
        function.names += names
        self.width += grow
        last = text.rstrip()[-1:]
        self.previous = b"x" if last.isalnum() or last == b"_" or last >= b"\x80" else last

    def operator(self, op: bytes) -> None:
        block = self.blocks[-1]
        if op == b"(" and self.params_next:
            self.params_next = False
            self.declaring = "params"
        if op in (b"(", b"[", b"{"):
            previous = self.previous
            name = previous[:1].isalpha() or previous[:1] == b"_" or previous[:1] >= b"\x80"
            call = op != b"(" or previous in (b")", b"]") or (
                name and previous not in _KEYWORDS and previous not in _VALUES)
            block.brackets.append((call, block.chain))
            block.chain = 0
        elif op in (b")", b"]", b"}"):
            if op == b")" and self.declaring == "params":
                self.declaring = ""
            if block.brackets:
                call, outer = block.brackets.pop()
                if call:  # the contents were discharged: their lists end here
                    self.end_chain()
                block.chain += outer
        elif op in (b"=", b",", b";"):
            self.end_chain()
        elif op == b"::":
            self.goto_or_label(block.function)
        if self.declaring == "names" and op != b",":
            self.declaring = ""

    def feed(self, source: bytes, deadline: float | None) -> bool:
        """Walks ``source`` until its end, the end of what a parser would read, or the limit; False if
        ``deadline`` (thread CPU time) passed first."""
        position, count = 0, 0
        match = _TOKENS.match
        while position < len(source):
            count += 1
            if deadline is not None and count % _CHECK_CLOCK_EVERY == 0 and time.thread_time() > deadline:
                return False
            token = match(source, position)
            if token is None or token.group("stop") is not None:
                break  # only blanks left, or an unfinished string: a parser stops there
            position = token.end()
            kind = token.lastgroup
            if kind == "long":
                end = source.find(b"]" + token.group("level") + b"]", position)
                if end < 0:
                    break  # unfinished long string or comment
                position = end + len(token.group("level")) + 2
                if token.group("long")[:1] == b"[":
                    self.previous = b'"'
            elif kind == "name":
                word = token.group("name")
                if word in _KEYWORDS:
                    if not self.keyword(word):
                        return True
                elif word not in _VALUES:
                    self.name(word)
                self.previous = word
            elif kind == "run":
                self.run(token.group("run"))
            elif kind == "op":
                self.operator(token.group("op"))
                self.previous = token.group("op")
            elif kind is not None:
                self.previous = b'"' if kind == "string" else b"0"
            if self.cost + self.lookups > COMPILE_COST_LIMIT:
                return True
        while self.close():
            pass
        return True


_KEYWORDS = {b"and", b"or", b"local", b"function", b"if", b"while", b"for", b"repeat", b"do", b"elseif",
             b"break", b"goto", b"end", b"until", b"then", b"else", b"return", b"in"}


def _crude_cost(source: bytes) -> float:
    """A bound from counts alone (each keyword wherever it stands): a source within it skips the walk."""
    if len(source) > _CRUDE_SIZE:
        return math.inf
    words = Counter(_WORDS.findall(source))
    jumps = sum(words[word] for word in (b"elseif", b"and", b"or", b"break", b"goto"))
    gola = words[b"goto"] + source.count(b"::")
    nesting = min(words[b"function"] + 1, 100)
    return (jumps * jumps / 2 + gola * min(len(source), MAX_VSTACK)
            + words.total() * nesting * (MAX_ACTIVE_LOCALS + MAX_UPVALUES) / LOOKUP_STEPS)


def chunk_label(chunkname: bytes) -> str:
    """How Lua names a chunk in messages: the file of ``@file``, else ``[string "first line..."]``."""
    name = chunkname.decode("utf-8", "replace")
    if name[:1] in ("@", "="):
        return name[1:]
    line = name.split("\n", 1)[0]
    return f'[string "{line[:40]}..."]' if len(line) > 40 or "\n" in name else f'[string "{line}"]'


def refusal(source: bytes, chunkname: bytes, deadline: float | None = None) -> bytes | None:
    """Why compiling ``source`` is refused (naming the chunk and the limit), or None to compile it.
    With ``deadline`` (a ``time.thread_time()`` value), a walk still running past it answers
    ``time limit exceeded``."""
    if _crude_cost(source) <= COMPILE_COST_LIMIT:
        return None
    scan = _Scan()
    if not scan.feed(source, deadline):
        return b"time limit exceeded"
    cost = scan.cost + scan.lookups
    if cost <= COMPILE_COST_LIMIT:
        return None
    what = scan.worst[1] if scan.worst[0] >= scan.lookups else "looking names up through nested functions' locals"
    return (f"{chunk_label(chunkname)}: too costly to compile in the sandbox: {what} would take about"
            f" {cost:.3g} steps of LuaJIT's parser beyond its linear work (limit: {COMPILE_COST_LIMIT:.3g}"
            " per chunk)").encode()
