"""The studio's op lists and texts derive from emucore.operations (one vocabulary)."""

from __future__ import annotations

from emucore.operations import Change, Operation
from emucore.search import OPS as SEARCH_OPS
from studio.qt.scenario.scenario_doc_editor import NO_OP, OP_CHOICES
from studio.qt.search.search_book_panel import AMOUNT_OPS, OP_TITLES, SNAPSHOT_OPS, VALUE_OPS


def test_the_scenario_editor_offers_every_operation():
    assert (NO_OP, *(op.value for op in Operation)) == OP_CHOICES
    assert all(type(choice) is str for choice in OP_CHOICES)  # plain text for the combo box


def test_the_search_panel_has_a_title_for_every_search_operation():
    assert list(OP_TITLES) == list(SEARCH_OPS)
    assert set(VALUE_OPS) | set(AMOUNT_OPS) | set(SNAPSHOT_OPS) == set(SEARCH_OPS)
    assert len(VALUE_OPS) + len(AMOUNT_OPS) + len(SNAPSHOT_OPS) == len(SEARCH_OPS)
    assert OP_TITLES[Operation.LESS_THAN] == "<" and OP_TITLES[Change.DECREASED_BY] == "decreased by"
    assert OP_TITLES["greater-than"] == ">"  # members are their names
