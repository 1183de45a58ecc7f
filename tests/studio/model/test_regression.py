"""Scenario regression: attached movies keep their reward and done frame until the scenario changes."""

from __future__ import annotations

import json

import numpy as np

from studio.model.play.session import Session
from studio.model.scenario.regression import RegressionSuite


def test_attached_movie_is_rechecked_after_an_edit(demo, tmp_path):
    session = Session(*demo)
    movie = session.folder / "take.bk2"
    session.movies.start_recording(movie)
    for mask in np.random.default_rng(1).integers(0, 1 << 12, 120):
        session.set_buttons(0, int(mask) | 1)  # B held: score grows every frame
        session.advance(1)
    session.movies.stop_recording()
    session.close()
    suite = RegressionSuite(session.folder)
    expectation = suite.attach(movie)
    assert expectation.movie == "take.bk2" and expectation.total_reward > 100 and expectation.done_frame is None
    assert [o.changed for o in suite.check()] == [False]
    from emucore.env import replay

    assert replay(movie).total_reward == expectation.total_reward  # the env's own playback agrees
    doubled = {"reward": {"variables": {"score": {"reward": 2.0}}},
               "done": {"variables": {"frame": {"op": "greater-than", "reference": 50}}}}
    outcome = suite.check(doubled)[0]
    assert outcome.changed and outcome.total_reward > expectation.total_reward and outcome.done_frame is not None
    (reason,) = outcome.done_reasons  # why done fired at the done frame
    assert reason.key == "done.variables.frame" and reason.measured == 51
    (session.folder / "scenario.json").write_text(json.dumps(doubled))
    assert suite.check()[0].changed
    suite.detach("take.bk2")
    assert suite.expectations() == []
