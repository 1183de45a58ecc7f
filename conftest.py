"""pytest's collection of the README's and the docs' code blocks (``tests/docs_examples.py`` says how they run).
A page's blocks share its namespace and run in order, so ``scripts/test.sh`` runs them without pytest-xdist."""

from tests.docs_examples import docs_sybil

pytest_collect_file = docs_sybil().pytest()
