"""Files given to emucore are regular files, read within their caps, and written so that a failure
names the target and leaves nothing behind (rel-04, rel-05, rel-06, rel-10, rel-11).

Cases that would hang when they regress run in a child process under a timeout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import emucore
from emucore.fileio import atomic_write_bytes, read_regular, sweep_stale_temps
from emucore.integration import IntegrationError
from emucore.paths import integrations_dir

ROOT = Path(__file__).resolve().parents[3]
NES = integrations_dir() / "StudioDemo-Nes"


def run_child(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter; a hang fails the test instead of blocking the suite."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


MAKE_AND_RESET = """
    import sys, emucore
    try:
        env = emucore.make(sys.argv[1]); env.reset(seed=0); env.step(env.action_space.sample()); env.close()
        print("ran")
    except emucore.EmucoreError as error:
        print("EmucoreError:", error)
"""


@pytest.mark.parametrize("name", ["Start.state", "data.json", "scenario.json", "metadata.json", "script.lua"])
def test_a_fifo_in_an_integration_is_refused_or_skipped_never_opened_blocking(tmp_path, name):
    """rel-05: a FIFO Start.state blocked make() forever (tar archives carry FIFOs)."""
    game = tmp_path / "StudioDemo-Nes"
    shutil.copytree(NES, game)
    if name == "script.lua":
        (game / "scenario.json").write_text(json.dumps(
            {"reward": {"script": "lua:r"}, "done": {"script": "lua:d"}, "scripts": ["script.lua"]}))
    else:
        (game / name).unlink()
    os.mkfifo(game / name)
    out = run_child(MAKE_AND_RESET, str(game), timeout=60).stdout
    if name == "Start.state":
        assert "EmucoreError" in out and "Start.state" in out and "not a regular file (a FIFO)" in out
    else:
        assert out.startswith(("ran", "EmucoreError")), out  # skipped as absent, or a clear error


def test_a_fifo_movie_is_a_movie_error_for_the_api_and_the_playback_command(tmp_path):
    """rel-06: Movie(), replay() and `emucore playback` opened a FIFO .bk2 and blocked."""
    movie = tmp_path / "movie.bk2"
    os.mkfifo(movie)
    code = """
        import sys
        from emucore.movie import Movie
        from emucore.errors import MovieError
        try:
            Movie(sys.argv[1])
        except MovieError as error:
            print("MovieError:", error)
    """
    assert "not a regular file (a FIFO)" in run_child(code, str(movie), timeout=60).stdout
    cli = run_child("import sys; from emucore.cli import main; sys.exit(main())", "playback", str(movie), timeout=60)
    assert cli.returncode == 2 and "not a regular file (a FIFO)" in cli.stderr and str(movie) in cli.stderr


def test_a_folder_or_fifo_given_as_a_start_state_is_named(tmp_path):
    fifo = tmp_path / "start.state"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_regular(fifo)
    with pytest.raises(OSError, match="a folder"):
        read_regular(tmp_path)


def test_a_huge_sparse_metadata_json_is_refused_without_reading_it(tmp_path):
    """rel-04: a 3 GiB sparse metadata.json was read whole (3.1 GB of memory)."""
    game = tmp_path / "StudioDemo-Nes"
    shutil.copytree(NES, game)
    with open(game / "metadata.json", "wb") as f:
        f.truncate(3 << 30)
    with pytest.raises(IntegrationError, match="metadata.json: larger than 67108864 bytes"):
        emucore.make(str(game))


# ---- writes ----


def test_a_killed_write_leaves_a_temp_file_that_the_next_write_of_the_target_removes(tmp_path):
    """rel-11: a kill -9 inside an atomic write left '.<name>.<random>.tmp' forever."""
    target = tmp_path / "recovery.state"
    writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, time
        from pathlib import Path
        import emucore.fileio as fileio
        original = fileio.os.replace
        def stall(*args):
            print("writing", flush=True); time.sleep(60)
        fileio.os.replace = stall
        fileio.atomic_write_bytes(Path(sys.argv[1]), b"new")
    """), str(target)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert writer.stdout.readline().strip() == "writing"
        temps = list(tmp_path.glob(".recovery.state.*.tmp"))
        assert len(temps) == 1
        assert sweep_stale_temps(tmp_path) == []  # a live writer holds its temp file: not stale
        assert temps[0].exists()
    finally:
        writer.kill()
        writer.wait()
    atomic_write_bytes(target, b"small")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recovery.state"]
    assert target.read_bytes() == b"small"


def test_the_studio_sweeps_its_data_folder_at_start(tmp_path):
    from studio.model.play.recovery import Recovery

    left = tmp_path / ".session.json.abc123.tmp"
    left.write_bytes(b"half")
    unrelated = tmp_path / ".hidden.tmp"
    unrelated.write_bytes(b"not ours")
    Recovery(tmp_path).start()
    assert not left.exists() and unrelated.exists()


FULL_DISK = """
    import os, resource, signal, sys
    from pathlib import Path
    import emucore
    folder = Path(sys.argv[1])
    emu = emucore.Emulator(sys.argv[2]); emu.step()
    emu.save_state_file(folder / "keep.state"); before = (folder / "keep.state").read_bytes()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))  # every write past 200 bytes fails, as on a full disk
    try:
        emu.save_state_file(folder / "keep.state"); print("no error")
    except OSError as error:
        print("state:", error)
    print("intact:", (folder / "keep.state").read_bytes() == before)
    sys.path.insert(0, os.getcwd())
    from studio.model.export import export_integration
    try:
        export_integration(sys.argv[3], folder / "exports" / "new", include_rom=True); print("no error")
    except OSError as error:
        print("export:", error)
    print("left:", sorted(p.name for p in folder.iterdir()))
"""


def test_a_failed_write_names_its_target_and_leaves_nothing_behind(tmp_path):
    """rel-10: ENOSPC named no file (or a hidden temp file), and a failed export left an empty folder."""
    out = run_child(FULL_DISK, str(tmp_path), str(NES / "rom.nes"), str(NES)).stdout
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert "File too large" in lines["state"] and str(tmp_path / "keep.state") in lines["state"]
    assert ".tmp" not in lines["state"]
    assert lines["intact"] == "True"
    assert str(tmp_path / "exports" / "new" / "StudioDemo-Nes") in lines["export"]
    assert lines["left"] == "['keep.state']"
