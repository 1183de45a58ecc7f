"""The solvers moved from emucore.search to emucore.assist: the old imports keep working, with a warning."""

from __future__ import annotations

import pytest

import emucore.assist
import emucore.search


@pytest.mark.parametrize("name", sorted(emucore.search.MOVED_TO_ASSIST))
def test_old_name_warns_and_is_the_assist_object(name):
    with pytest.warns(DeprecationWarning, match=f"from emucore.assist import {name}"):
        moved = getattr(emucore.search, name)
    assert moved is getattr(emucore.assist, name)


def test_from_import_of_the_old_home_works():
    with pytest.warns(DeprecationWarning, match="moved to emucore.assist"):
        from emucore.search import solve_value, suggest_done  # noqa: F401


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solve_valu'"):
        emucore.search.solve_valu  # noqa: B018
