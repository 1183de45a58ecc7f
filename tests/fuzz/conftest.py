"""The fuzz suite's settings: fixed seeds, no example database, a case budget shared by the parsers.

``FUZZ_CASES`` (default :data:`CI_CASES`) is the whole run's budget; each parser gets its weight's
share. ``FUZZ_REPORT`` names a JSON file that collects each parser's outcomes (``scripts/fuzz.sh``
prints it as a table).
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.fuzz.worker import Outcome, Worker

CI_CASES = 2500
WEIGHTS: dict[str, float] = {}  # parser -> share of the budget, filled by the test modules
_outcomes: dict[str, Counter] = defaultdict(Counter)


def cases_for(parser: str, weight: float, total_weight: float) -> int:
    budget = int(os.environ.get("FUZZ_CASES", CI_CASES))
    return max(5, round(budget * weight / total_weight))


def fuzz_settings(cases: int) -> settings:
    return settings(max_examples=cases, derandomize=True, database=None, deadline=None, print_blob=True,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="session")
def worker():
    running = Worker()
    yield running
    running.close()


@pytest.fixture(scope="session")
def record():
    def note(parser: str, outcome: Outcome) -> None:
        _outcomes[parser][outcome.kind] += 1
    yield note
    report = os.environ.get("FUZZ_REPORT")
    if report:
        Path(report).write_text(json.dumps({parser: dict(counts) for parser, counts in sorted(_outcomes.items())},
                                           indent=2))
