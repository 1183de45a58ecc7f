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
from hypothesis import given, seed

from tests.fuzz.conftest import cases_for, fuzz_settings
from tests.fuzz.parsers import parsers

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
