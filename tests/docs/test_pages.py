"""Rules for the pages whose examples run as tests (tests/docs_examples.py): a skipped example says why, and the
README stays a front page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SKIP = re.compile(r"<!--\s*skip:\s*(\w+)(.*?)-->")


def test_every_skip_says_why():
    silent = [f"{page.relative_to(ROOT)}: {match.group(0)}" for page in PAGES
              for match in SKIP.finditer(page.read_text())
              if match.group(1) in ("next", "start") and not re.fullmatch(r'\s*"[^"]+"\s*', match.group(2))]
    assert not silent, "a skipped example must say why, as <!-- skip: next \"why\" -->: " + "; ".join(silent)


def test_the_pages_have_examples_that_run():
    """Sybil collects python and sh fences: a page of examples written as ```py or ```bash would run nothing."""
    stray = [f"{page.relative_to(ROOT)}: ```{lang}" for page in PAGES
             for lang in re.findall(r"^```(py|python3|bash|shell|console)\s*$", page.read_text(), re.MULTILINE)]
    assert not stray, "use ```python or ```sh (or ```text for output): " + "; ".join(stray)


def test_the_readme_is_a_front_page():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150
