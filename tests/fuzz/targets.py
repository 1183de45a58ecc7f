"""What one fuzz case does with a mutated file, run inside a worker (:mod:`tests.fuzz.worker`).

A payload is a dict: ``content`` (the file's bytes, or a :data:`SPECIAL` name for a special file)
and what the target needs. A target raises what the code under test raises; the worker classifies
it. It returns, or sets on the error, nothing: every EmucoreError must name the folder or file.
"""

from __future__ import annotations

import gzip
import os
import shutil
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

from emucore.paths import integrations_dir

ROOT = Path(__file__).resolve().parents[2]
SPECIAL = ("fifo", "folder", "symlink_loop", "dangling_symlink", "empty")
SCRATCH = Path(tempfile.mkdtemp(prefix="emucore-fuzz-"))
STEPS = 3


def put(path: Path, content: bytes | str) -> None:
    """Writes a case's file: bytes, or one of the special files a user's folder can hold."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "fifo":
        os.mkfifo(path)
    elif content == "folder":
        path.mkdir()
    elif content == "symlink_loop":
        path.symlink_to(path.name)
    elif content == "dangling_symlink":
        path.symlink_to(path.with_name("absent"))
    elif content == "empty":
        path.write_bytes(b"")
    else:
        raise ValueError(content)


def _fresh(source: Path, name: str) -> Path:
    folder = SCRATCH / name
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(source, folder)
    return folder


def integration(payload: dict) -> None:
    """A mutated file in a copy of a demo integration, through make(), reset(), steps and lint."""
    import emucore
    from emucore.integration import lint

    folder = _fresh(integrations_dir() / payload["game"], payload["game"])
    payload["names"] = [str(folder)]
    for name, content in payload.get("extra", {}).items():
        put(folder / name, content)
    put(folder / payload["file"], payload["content"])
    lint(folder)
    env = emucore.make(str(folder))
    try:
        env.reset(seed=0)
        for _ in range(STEPS):
            env.step(env.action_space.sample())
    finally:
        env.close()


@cache
def _emulator(rom: str):
    import emucore

    emulator = emucore.Emulator(rom)
    emulator.step()
    return emulator, emulator.get_state()


def state(payload: dict) -> None:
    """A mutated state (a gzip ``.state`` file or raw bytes) loaded into a running core, then frames.
    The emulator must stay usable: its own good state loads and runs after the case."""
    emulator, good = _emulator(payload["rom"])
    path = SCRATCH / ("case.state" if payload["gzip"] else "case.raw")
    payload["names"] = [str(path)]
    content = payload["content"]
    put(path, gzip.compress(content, mtime=0) if payload["gzip"] and isinstance(content, bytes) else content)
    try:
        if payload["gzip"]:
            emulator.load_state_file(path)
        else:
            emulator.set_state(path.read_bytes() if isinstance(content, bytes) else b"", source=path)
        emulator.run_frames(30)
    finally:
        emulator.set_state(good)
        emulator.run_frames(2)


def movie(payload: dict) -> None:
    """A mutated ``.bk2`` or ``.fm2`` read whole: header, every frame of input."""
    from emucore.movie import Movie

    path = SCRATCH / f"case.{payload['suffix']}"
    payload["names"] = [str(path)]
    put(path, payload["content"])
    opened = Movie(str(path))
    for _ in range(100_000):
        if not opened.step():
            break
    opened.close()


def rom(payload: dict) -> None:
    """A ROM whose header (its first bytes) was mutated: opened by its core and run a few frames."""
    import emucore

    path = SCRATCH / f"case{Path(payload['rom']).suffix}"
    payload["names"] = [str(path)]
    put(path, payload["content"])
    with emucore.Emulator(str(path)) as emulator:
        emulator.run_frames(10)


def lua(payload: dict) -> None:
    """A generated script as the reward and done of the NES demo: loaded in the sandbox and called."""
    payload["extra"] = {"scenario.json": b'{"reward": {"script": "lua:r"}, "done": {"script": "lua:d"}, '
                                         b'"scripts": ["s.lua"]}'}
    integration({**payload, "game": "StudioDemo-Nes", "file": "s.lua"})


def _studio(payload: dict) -> None:
    """The demo opened in the studio's models with a mutated workspace, settings or recovery file."""
    os.environ["RETRO_STUDIO_DATA"] = str(SCRATCH / "studio-data")
    os.environ["RETRO_STUDIO_CONFIG"] = str(SCRATCH / "studio-config")
    from studio.model.play.episodes import ending_of
    from studio.model.play.recovery import Recovery
    from studio.model.play.session import Session
    from studio.model.scenario.done_marks import DoneMarks
    from studio.model.scenario.regression import RegressionSuite
    from studio.model.search.plausibility import find_plausibility
    from studio.model.search.screen_values import ScreenValueFinder
    from studio.model.search.search_book import SearchBook
    from studio.model.search.search_book_store import SearchStore
    from studio.model.search.state_labels import StateLabels
    from studio.model.settings import Settings
    from studio.model.variables.provenance import ProvenanceBook

    for folder in ("studio-data", "studio-config"):
        shutil.rmtree(SCRATCH / folder, ignore_errors=True)
    game = _fresh(integrations_dir() / "StudioDemo-Nes", "StudioDemo-Nes")
    workspace = SCRATCH / "studio-data" / "workspaces" / game.name
    where = {"settings.json": SCRATCH / "studio-config", "session.json": SCRATCH / "studio-data",
             "regression.json": game}.get(payload["file"], workspace)
    target = where / payload["file"]
    target.parent.mkdir(parents=True, exist_ok=True)
    put(target, payload["content"])
    payload["names"] = [str(target)]
    Settings.load()
    recovery = Recovery(SCRATCH / "studio-data")
    saved = recovery.crashed_session()
    if saved is not None:
        recovery.load_state(saved)
    session = Session(game / "rom.nes")
    session.states.infos()
    StateLabels(session)
    ProvenanceBook(session.states.workspace)
    ScreenValueFinder(session)
    DoneMarks(session).close()
    SearchStore.attach(SearchBook(lambda: session.emulator), session.states.workspace / "searches")
    RegressionSuite(game).expectations()
    ending_of(session.states.workspace / "episodes" / "episode-0.bk2")
    find_plausibility(game, workspace=session.states.workspace)
    session.emulator.close()


TARGETS: dict[str, Callable[[dict], None]] = {
    "integration": integration, "state": state, "movie": movie, "rom": rom, "lua": lua, "studio": _studio,
}
