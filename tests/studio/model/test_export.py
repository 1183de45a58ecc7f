"""An exported integration loads in emucore.make and in stable-retro unchanged, with identical rewards."""

from __future__ import annotations

import json

import numpy as np
import pytest

import emucore
from studio.model.export import export_integration
from studio.model.play.session import Session


def test_export_then_load_in_emucore_and_stable_retro(demo, tmp_path):
    session = Session(*demo)
    session.set_buttons(0, 1)
    session.advance(30)
    session.save_state("Scored")
    session.states.set_default("Scored")
    session.close()
    scenario = {"reward": {"variables": {"score": {"reward": 0.5}, "x": {"reward": 1.0, "penalty": 2.0}}},
                "done": {"variables": {"lives": {"op": "less-than", "reference": 3}}}}
    (session.folder / "scenario.json").write_text(json.dumps(scenario))
    out = tmp_path / "export"
    result = export_integration(session.folder, out, include_rom=True)
    assert result.folder == out / "StudioDemo-Genesis" and not result.errors
    assert {"rom.md", "rom.sha", "data.json", "scenario.json", "metadata.json", "Scored.state"} <= set(result.files)
    assert json.loads((result.folder / "metadata.json").read_text())["default_state"] == "Scored"

    emucore.data.Integrations.clear_custom_paths()  # only the exported folder may answer
    emucore.data.Integrations.add_custom_path(str(out))
    ours = emucore.make("StudioDemo-Genesis", inttype=emucore.data.Integrations.CUSTOM_ONLY,
                        use_restricted_actions=emucore.Actions.ALL)
    retro = pytest.importorskip("stable_retro")
    retro.data.Integrations.clear_custom_paths()  # earlier tests registered the repo's integrations
    retro.data.Integrations.add_custom_path(str(out))
    theirs = retro.make("StudioDemo-Genesis", inttype=retro.data.Integrations.CUSTOM_ONLY,
                        use_restricted_actions=retro.Actions.ALL, render_mode=None)
    try:
        assert ours.statename == theirs.statename == "Scored.state"
        a, b = ours.reset(seed=0)[0], theirs.reset(seed=0)[0]
        assert np.array_equal(a, b)
        rng = np.random.default_rng(2)
        for _ in range(300):
            action = rng.integers(0, 2, 12)
            x, y = ours.step(action), theirs.step(action)
            assert x[1:] == y[1:] and np.array_equal(x[0], y[0])
    finally:
        ours.close()
        theirs.close()
        emucore.data.Integrations.clear_custom_paths()
        retro.data.Integrations.clear_custom_paths()


def test_exporting_onto_itself_is_refused(demo):
    rom, _ = demo
    with pytest.raises(ValueError, match="integration itself"):
        export_integration(rom.parent, rom.parent.parent)
