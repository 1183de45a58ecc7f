"""The seeded fuzz suite: every parser a user feeds gets mutated files, and every case ends in success
or an EmucoreError naming the file, in a worker process that bounds its time and memory (a crash or
hang is a failure, not the end of the run). ``FUZZ_CASES`` sets the run's size (``scripts/fuzz.sh``).

A failing case does not stop its parser's run (so the counts are whole): the failures are listed at
the end, and each failing file is kept under ``FUZZ_FAILURES`` when that names a folder.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pytest
from hypothesis import example, given, seed

from tests.fuzz.conftest import cases_for, fuzz_settings
from tests.fuzz.lua_programs import lua_budget_examples, lua_budget_programs
from tests.fuzz.parsers import parsers

pytestmark = pytest.mark.slow  # fuzzing: every target for seconds

PARSERS = parsers()
TOTAL_WEIGHT = sum(parser.weight for parser in PARSERS)
SHOWN = 5


def _keep(parser: str, index: int, content: bytes | str) -> str:
    folder = os.environ.get("FUZZ_FAILURES")
    if not folder or not isinstance(content, bytes):
        return repr(content)[:200]
    path = Path(folder) / f"{parser.replace(' ', '_').replace('/', '_')}-{index}.bin"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return str(path)


@pytest.mark.parametrize("parser", PARSERS, ids=[parser.name for parser in PARSERS])
def test_fuzz(parser, worker, record):
    failures: list[str] = []

    @fuzz_settings(cases_for(parser.name, parser.weight, TOTAL_WEIGHT))
    @seed(zlib.crc32(parser.name.encode()))
    @given(content=parser.contents())
    def case(content):
        outcome = worker.run(parser.target, parser.payload(content))
        record(parser.name, outcome)
        if outcome.failed:
            failures.append(f"{outcome.kind}: {outcome.detail}\n  input: {_keep(parser.name, len(failures), content)}")

    case()
    assert not failures, f"{len(failures)} of the {parser.name} cases failed:\n" + "\n".join(failures[:SHOWN])


LUA_BUDGETS_WEIGHT = 2  # the share of the case budget for the scripts that aim at the Lua budgets


def test_fuzz_lua_budgets(worker, record):
    """Scripts whose load or calls hold what could outrun the budget in one C call (long elseif, and/or,
    break chains, labels, nested names, compiled as files or through load; table.insert/remove far out,
    unpack and concat ranges, rep, format widths, gsub escapes): none may take over 3 x its CPU net."""
    name = "Lua budgets"
    failures: list[str] = []

    def run(content):
        outcome = worker.run("lua", {"content": content})
        record(name, outcome)
        if outcome.failed:
            failures.append(f"{outcome.kind}: {outcome.detail}\n  input: {_keep(name, len(failures), content)}")

    case = given(content=lua_budget_programs())(run)
    for script in lua_budget_examples():
        case = example(content=script)(case)
    case = seed(zlib.crc32(name.encode()))(case)
    fuzz_settings(cases_for(name, LUA_BUDGETS_WEIGHT, TOTAL_WEIGHT + LUA_BUDGETS_WEIGHT))(case)()
    assert not failures, f"{len(failures)} of the {name} cases failed:\n" + "\n".join(failures[:SHOWN])


def _load_with_net(seconds: float):
    def run(payload):
        from emucore.lua import LuaScripts

        # one C call of tens of milliseconds (3 million matches) at load time
        LuaScripts([("s.lua", "local n = select(2, string.rep('a', 3e6):gsub('a', 'a'))")], object(),
                   time_limit=seconds).reload()
    return run


def test_worker_fails_a_lua_load_past_its_budget():
    """A load or call that overruns its CPU-time net threefold is a failure, whatever it answered (the
    load below fails with 'time limit exceeded', an error the case would otherwise accept)."""
    from tests.fuzz.worker import classify, watch_lua_budgets

    pytest.importorskip("lupa")
    watch_lua_budgets()
    escaped = classify(_load_with_net(0.001), {})
    assert escaped.kind == "budget" and escaped.failed, escaped
    assert "Lua run_file ('s.lua') took" in escaped.detail and "over 3 x its 0.001 s net" in escaped.detail
    assert classify(_load_with_net(1.0), {}).kind == "ok"
