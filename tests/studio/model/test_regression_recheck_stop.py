"""A regression re-check replaying a long movie stops when the studio closes or opens another game."""

from __future__ import annotations

import threading
import time
import zipfile
from pathlib import Path

import pytest

from studio.model.play.session import Session
from studio.model.scenario import regression
from studio.model.scenario.regression import RegressionSuite, ReplayStopped
from studio.model.scenario.regression_recheck import CLOSE_WAIT_S, RegressionRecheck

LINES = 300_000  # minutes of replay


def long_movie(demo) -> Path:
    """A movie of ``LINES`` lines attached to the demo's folder: its first frame's line repeated."""
    session = Session(*demo)
    short = session.folder / "short.bk2"
    session.movies.start_recording(short)
    session.advance(5)
    session.movies.stop_recording()
    session.close()
    with zipfile.ZipFile(short) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    log = parts["Input Log.txt"].decode().splitlines()
    first = next(i for i, line in enumerate(log) if line.startswith("|"))
    parts["Input Log.txt"] = ("\n".join(log[:first]) + "\n" + (log[first] + "\n") * LINES + "[/Input]\n").encode()
    path = session.folder / "long.bk2"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    RegressionSuite(session.folder).attach(short)  # the expectation's numbers; then the long movie's name
    (session.folder / regression.FILE).write_text(
        (session.folder / regression.FILE).read_text().replace('"short.bk2"', '"long.bk2"'))
    return session.folder


def started(folder: Path, monkeypatch) -> tuple[RegressionRecheck, threading.Event]:
    """A re-check of ``folder`` running, past its first stop look (the replay is under way)."""
    replaying = threading.Event()
    real = regression.replay_lines

    def spy(*args, **kwargs):
        for index, item in enumerate(real(*args, **kwargs)):
            if index == 2 * regression.STOP_EVERY:
                replaying.set()
            yield item

    monkeypatch.setattr(regression, "replay_lines", spy)
    recheck = RegressionRecheck(delay=0.0)
    recheck.follow(folder)
    recheck.request()
    recheck.poll()
    assert replaying.wait(60), "the replay did not start"
    return recheck, replaying


def test_closing_stops_a_check_replaying_a_long_movie(demo, monkeypatch):
    recheck, _ = started(long_movie(demo), monkeypatch)
    worker = recheck._running.thread
    assert worker.is_alive() and worker.daemon
    began = time.monotonic()
    recheck.close()
    assert not worker.is_alive(), "the check still runs after close()"
    assert time.monotonic() - began < CLOSE_WAIT_S
    assert recheck.poll() is None and not recheck.busy


def test_following_another_game_stops_the_check_of_the_old_one(demo, monkeypatch, tmp_path):
    recheck, _ = started(long_movie(demo), monkeypatch)
    run = recheck._running
    results = []
    recheck.events.checked.connect(results.append)
    recheck.follow(tmp_path / "another")
    run.thread.join(CLOSE_WAIT_S)
    assert not run.thread.is_alive() and run.result is None
    assert recheck.poll() is None and results == [] and not recheck.busy
    recheck.close()


def test_a_set_stop_event_is_a_replay_stopped_not_an_outcome(demo):
    stop = threading.Event()
    stop.set()
    with pytest.raises(ReplayStopped):
        RegressionSuite(long_movie(demo)).check(stop=stop)
