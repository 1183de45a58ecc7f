"""pytest's collection of the README's and the docs' code blocks (``tests/docs_examples.py`` says how they run)."""

from tests.docs_examples import docs_sybil

pytest_collect_file = docs_sybil().pytest()
