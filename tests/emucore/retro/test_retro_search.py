"""stable-retro's memory search on GameData (emucore.retro.gamedata_search): the same search sequence run
on stable-retro and emucore, on the same ROM state and inputs, gives identical results; bad input
raises errors naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

import emucore
from emucore.paths import integrations_dir
from emucore.retro.gamedata_search import STABLE_RETRO_DEFAULT_TYPES, Search

OPS = [("equal", 0), ("not-equal", 0), ("greater-than", 0), ("less-than", 0), ("sign", 0), ("equal", 1),
       ("negative-equal", 1), ("nonzero", 0), ("less-or-equal", -1), ("greater-or-equal", 2), ("zero", 0),
       ("positive", 0), ("negative", 0)]


def _make(module, game: str, state: str):
    module.data.Integrations.add_custom_path(str(integrations_dir()))
    return module.make(game, state=state, inttype=module.data.Integrations.ALL,
                       use_restricted_actions=module.Actions.ALL, render_mode=None)


def _listing(data) -> tuple[list[str], dict]:
    out = {}
    for name, s in data.searches:
        unique = s.unique_result() if s.num_results() else None
        out[name] = (s.num_results(), s.has_unique_result(), unique, s.typed_results())
    return list(data.list_searches()), out


@pytest.mark.slow  # stable-retro parity
@pytest.mark.parametrize("game, state, buttons, values", [
    ("StudioDemo-Nes", "Start", 9, [0, 1, 3, 100, 160, 256, -1, -3, 0x1234, 1000, 20]),
    ("StudioDemo-Genesis", "Start", 12, [1, 3, 160, 0x1234, 20]),  # the overlay's quirks
])
def test_same_results_as_stable_retro(game, state, buttons, values):
    retro = pytest.importorskip("stable_retro")
    theirs, ours = _make(retro, game, state), _make(emucore, game, state)
    try:
        theirs.reset()
        ours.reset()
        rng = np.random.default_rng(1)
        ram = theirs.get_ram()
        values = values + [int(ram[5]), int(ram[17]) * 256 + int(ram[18])]
        compared = 0
        for i, value in enumerate(values):
            name = f"s{i}"
            theirs.data.search(name, value)
            ours.data.searches[name].search(value)
            for _ in range(5):
                action = rng.integers(0, 2, buttons)
                theirs.step(action)
                ours.step(action)
            op, ref = OPS[(i + 1) % len(OPS)]
            theirs.data.delta_search(name, op, ref)
            ours.data.searches[name].delta(op, ref)
            assert _listing(ours.data) == _listing(theirs.data), (name, value, op, ref)
            compared += ours.data.get_search(name).num_results()
        for op, ref in OPS[:5]:  # delta first, then a delta against the snapshot a removed search left
            for data in (theirs.data, ours.data):
                data.delta_search("d", op, ref)
            action = rng.integers(0, 2, buttons)
            theirs.step(action)
            ours.step(action)
            for data in (theirs.data, ours.data):
                data.remove_search("d")
                data.delta_search("d", "not-equal", 0)
            assert _listing(ours.data) == _listing(theirs.data), op
            for data in (theirs.data, ours.data):
                data.remove_search("d")
        assert compared > 3
        assert ours.data.memory.blocks == theirs.data.memory.blocks
        first = min(theirs.data.memory.blocks)
        for t in (">u2", "<i4", ">d2", "|u1"):
            assert ours.data.memory.extract(first + 17, t) == theirs.data.memory.extract(first + 17, t)
    finally:
        theirs.close()
        ours.close()


def test_bad_input_names_the_argument():
    env = _make(emucore, "StudioDemo-Nes", "Start")
    try:
        data = env.data
        with pytest.raises(KeyError, match="nope"):
            data.get_search("nope")
        with pytest.raises(KeyError, match="nope"):
            data.remove_search("nope")
        with pytest.raises(ValueError, match="op must be one of"):
            data.delta_search("x", "bigger", 0)
        with pytest.raises(TypeError, match="value must be an int"):
            data.search("x", 1.5)
        with pytest.raises(OverflowError, match="value"):
            data.search("x", 1 << 63)
        with pytest.raises(ValueError, match="type"):
            data.memory.extract(0, ">u9")
        with pytest.raises(ValueError, match=r"types\[1\]"):
            Search(["|u1", "x"])
        with pytest.raises(IndexError, match="no results"):
            Search().unique_result()
        with pytest.raises(NotImplementedError):
            data.searches.save("file")
    finally:
        env.close()


def test_handles_and_memory():
    env = _make(emucore, "StudioDemo-Nes", "Start")
    try:
        data = env.data
        data.memory.assign(16, "<u2", 0x1234)
        assert data.memory[{"address": 16, "type": "<u2"}] == 0x1234
        data.memory[{"address": 16, "type": "|u1"}] = 7
        assert data.memory.extract(16, "|u1") == 7 and data.memory.blocks[0][16] == 7
        data.searches["a"].search(7)
        assert "a" in data.searches and data.searches["a"].num_results() > 0
        assert [name for name, _ in data.searches] == ["a"]
        results = data.searches["a"].typed_results()
        assert ((16, 1, 1, 0), ["|d1", "|i1", "|u1"]) in results or any(r[0] == (16, 1, 1, 0) for r in results)
        del data.searches["a"]
        assert "a" not in data.searches and Search().types == list(STABLE_RETRO_DEFAULT_TYPES)
    finally:
        env.close()
