"""The movie of the episode in progress survives the end of its process, however it ends.

Real subprocesses record ``StudioDemo-Nes`` with ``record=`` and never call ``close()``; their
movies must equal, line for line, a recording of the same actions closed properly here (or be
a prefix of it, for a killed process) and replay to the same RAM and frames.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore.env import MoviePlayer
from emucore.host.emulator import Emulator
from emucore.movie import Movie
from emucore.movie.take import CHECK_FRAMES
from tests.conftest import NES_ROM
from tests.emucore.movie import Recording, entries, record_with_env

pytestmark = pytest.mark.slow  # recording processes started, ended and killed

GAME = "StudioDemo-Nes"
SEED = 5
STEPS = 300
KILL_STEPS = 2000  # with a 1 ms sleep each: over a second of recording, so a checkpoint is written

CHILD = f"""
import gc, os, sys, time
import numpy as np
import emucore

mode, folder, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
env = emucore.make({GAME!r}, record=folder, use_restricted_actions=emucore.Actions.ALL,
                   inttype=emucore.data.Integrations.ALL)
rng = np.random.default_rng({SEED})
env.reset(seed={SEED})
for _ in range(steps):
    env.step(rng.integers(0, 2, env.num_buttons, dtype=np.int8))
    if mode == "kill":
        time.sleep(0.001)
if mode == "raise":
    raise RuntimeError("uncaught")
if mode == "collect":
    path = env.movie.path
    del env
    gc.collect()
    print("frames after collect:", emucore.Movie(path).frame_count, flush=True)
    time.sleep(0.2)
    os._exit(0)  # no exit handlers: what is on disk was written by the collection
if mode == "kill":
    print("done", flush=True)
    time.sleep(60)
"""


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Recording:
    """The same actions recorded in this process and closed (index 0 of rams/frames: the reset)."""
    return record_with_env(GAME, tmp_path_factory.mktemp("reference"), KILL_STEPS, seed=SEED)


def run_child(mode: str, folder: Path, steps: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(folder), str(steps)],
        capture_output=True, text=True, timeout=60,
    )


def only_movie(folder: Path) -> Path:
    movies = sorted(folder.iterdir())
    assert [p.suffix for p in movies] == [".bk2"], movies  # no temporary file left behind
    return movies[0]


def assert_replays_as_recorded(path: Path, reference: Recording, steps: int) -> None:
    """The movie is the reference's first ``steps`` steps, entry for entry, and replays to its RAM and frames."""
    ours, theirs = entries(path), entries(reference.path)
    assert ours["Header.txt"] == theirs["Header.txt"] and ours["Core.bin"] == theirs["Core.bin"]
    expected = Movie(reference.path).get_masks()[: steps + 1]
    assert np.array_equal(Movie(path).get_masks(), expected)
    with MoviePlayer(path) as player:
        for step in player:
            assert np.array_equal(player.env.get_ram(), reference.rams[step.index]), f"RAM differs at step {step.index}"
            assert np.array_equal(step.observation, reference.frames[step.index]), f"frame differs at step {step.index}"
        assert player.steps == steps


def test_written_at_normal_exit_without_close(tmp_path: Path, reference: Recording) -> None:
    result = run_child("exit", tmp_path, STEPS)
    assert result.returncode == 0, result.stderr
    path = only_movie(tmp_path)
    assert entries(path)["Input Log.txt"].endswith(b"[/Input]")
    assert_replays_as_recorded(path, reference, STEPS)


def test_written_when_an_exception_ends_the_program(tmp_path: Path, reference: Recording) -> None:
    result = run_child("raise", tmp_path, STEPS)
    assert result.returncode == 1 and "RuntimeError: uncaught" in result.stderr
    assert_replays_as_recorded(only_movie(tmp_path), reference, STEPS)


def test_written_when_the_env_is_garbage_collected(tmp_path: Path, reference: Recording) -> None:
    result = run_child("collect", tmp_path, STEPS)
    assert result.returncode == 0, result.stderr
    assert f"frames after collect: {STEPS + 1}" in result.stdout
    assert_replays_as_recorded(only_movie(tmp_path), reference, STEPS)


def test_a_killed_process_leaves_a_valid_prefix(tmp_path: Path, reference: Recording) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, "kill", str(tmp_path), str(KILL_STEPS)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "done", child.stderr.read() if child.stderr else ""
        child.kill()  # SIGKILL: no exit handler, no finalizer
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()
    path = only_movie(tmp_path)
    steps = Movie(path).frame_count - 1
    assert CHECK_FRAMES <= steps <= KILL_STEPS
    assert_replays_as_recorded(path, reference, steps)


def test_checkpoints_do_not_change_the_movie(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A movie checkpointed every CHECK_FRAMES frames ends byte for byte as one that was not;
    each checkpoint is a complete movie; discarding removes the checkpoint."""
    monkeypatch.setattr("emucore.movie.take.COST_RATIO", 0)  # no stretching: a checkpoint at every look
    env = emucore.make(GAME, players=2, inttype=emucore.data.Integrations.ALL)
    try:
        env.reset()
        rng = np.random.default_rng(1)
        plain, checked, dropped = (Movie(tmp_path / f"{name}.bk2", True, 2) for name in ("plain", "checked", "dropped"))
        for movie in (plain, checked, dropped):
            movie.configure(GAME, env.em)
        checked.enable_checkpoints(1e-9)
        dropped.enable_checkpoints(1e-9)
        for frame in range(5 * CHECK_FRAMES + 3):
            masks = [int(m) for m in rng.integers(0, 1 << 8, 2)]
            for movie in (plain, checked, dropped):
                for player, mask in enumerate(masks):
                    movie.set_mask(mask, player)
                movie.step()
            if frame == 2 * CHECK_FRAMES:
                assert Movie(checked.path).frame_count == 2 * CHECK_FRAMES
        assert not plain.path.exists() and "5 written" in checked.checkpoint_stats
        dropped.discard()
        assert not dropped.path.exists()
        plain.close()
        checked.close()
        assert entries(plain.path) == entries(checked.path)
    finally:
        env.close()


def test_a_dropped_movie_is_written_when_collected(tmp_path: Path) -> None:
    with Emulator(NES_ROM) as em:
        movie = Movie(tmp_path / "dropped.bk2", True)
        movie.configure(GAME, em)
        for _ in range(10):
            movie.step()
        del movie
        gc.collect()
    assert Movie(tmp_path / "dropped.bk2").frame_count == 10


FORK_CHILD = f"""
import os, sys
import emucore
from emucore.host.emulator import Emulator

path = os.path.join(sys.argv[1], "parent.bk2")
with Emulator(sys.argv[2]) as em:
    movie = emucore.Movie(path, True)
    movie.configure({GAME!r}, em)
    movie.step()
    pid = os.fork()
    if pid == 0:
        sys.exit(0)  # the child's exit handlers run, and must leave the parent's movie alone
    os.waitpid(pid, 0)
    print("after the child:", os.path.exists(path), flush=True)
"""


def test_a_forked_child_does_not_write_the_parents_movie(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", FORK_CHILD, str(tmp_path), str(NES_ROM)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "after the child: False" in result.stdout
    assert Movie(tmp_path / "parent.bk2").frame_count == 1  # written at the parent's exit
