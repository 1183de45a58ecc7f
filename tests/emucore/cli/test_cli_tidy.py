"""The ``emucore`` command line, tidied: tqdm bars, one exit-status scheme, "did you mean", --json, defaults in
--help, each verify problem once, --version. Real ROMs, cores and integrations only (the demo games)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import emucore
from emucore import __version__
from emucore.cli.dispatch import main
from emucore.cli.verify import distinct_findings
from emucore.errors import CoreNotFoundError, GameNotFoundError, StateNotFoundError
from emucore.host.corefinder import find_core
from emucore.integration import LintFinding
from emucore.paths import integrations_dir
from emucore.systems import get_system, library, systems
from tests.conftest import NES_ROM, require_core
from tests.emucore.movie import entries, record_with_env, write_zip

EMUCORE = Path(sys.executable).parent / "emucore"  # the installed console script


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The one ``emucore...: ...`` line a bad argument is reported with."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emucore") and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def movie(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_core("genesis_plus_gx")
    return record_with_env("StudioDemo-Genesis", tmp_path_factory.mktemp("rec"), 20, keep_frames=False).path


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A copy of the NES demo whose data.json gives lives a bad type and whose default state does not exist."""
    folder = tmp_path / "Broken-Nes"
    shutil.copytree(integrations_dir() / "StudioDemo-Nes", folder)
    variables = json.loads((folder / "data.json").read_text())
    variables["info"]["lives"]["type"] = "|q9"
    (folder / "data.json").write_text(json.dumps(variables))
    (folder / "metadata.json").write_text('{"default_state": "Nope"}')
    return folder


def words(text: str) -> str:
    return " ".join(text.split())


# ---- 1. tqdm progress bars on stderr ----


def test_import_progress_bar_is_tqdm_and_off_when_stderr_is_no_terminal(tmp_path, capsys):
    (tmp_path / "a.txt").write_bytes(b"not a ROM")
    code, out, err = run(capsys, "import", "--progress", tmp_path)
    assert code == 0 and out == "Imported 0 games\n"
    assert "1/1" in err and "file/s" in err
    for quiet in ([], ["--no-progress"]):  # capsys's stderr is not a terminal
        assert run(capsys, "import", *quiet, tmp_path) == (0, "Imported 0 games\n", "")


def test_playback_progress_bar_is_tqdm_and_off_when_stderr_is_no_terminal(movie, capsys):
    code, out, err = run(capsys, "playback", movie, "--progress")
    assert code == 0 and "21 frames (20 steps)" in out
    assert "20/20" in err and "step/s" in err and movie.name in err
    code, out, err = run(capsys, "playback", movie)
    assert code == 0 and err == ""


# ---- 2. exit status: 2 for bad arguments (missing paths, unknown names), 1 for findings ----


@pytest.mark.parametrize(("args", "message"), [
    (["info", "{tmp}/gone.nes"], "ROM {tmp}/gone.nes: no such file"),
    (["verify", "{tmp}/Gone-Nes"], "{tmp}/Gone-Nes: no such folder"),
    (["import", "{tmp}/gone"], "{tmp}/gone: no such file or folder"),
    (["playback", "{tmp}/gone.bk2"], "{tmp}/gone.bk2"),
    (["check", "{tmp}/Gone-Nes"], "FOLDER {tmp}/Gone-Nes: no such folder"),
    (["rollout", "Gone-Nes"], "No romfiles found for game: Gone-Nes"),
])
def test_a_missing_path_or_game_exits_2_with_one_line(capsys, tmp_path, args, message):
    code, out, err = run(capsys, *[arg.format(tmp=tmp_path) for arg in args])
    assert code == 2 and out == ""
    assert message.format(tmp=tmp_path) in one_line(err)


def test_cores_without_system_descriptors_exits_2(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("EMUCORE_CORES_DIR", str(tmp_path))
    code, out, err = run(capsys, "cores")
    assert code == 2 and out == ""
    assert one_line(err) == f"emucore: no system descriptors found in {tmp_path / 'systems'}"


def test_unknown_core_and_state_names_exit_2(capsys):
    code, _, err = run(capsys, "info", NES_ROM, "--core", "nestopiaa")
    line = one_line(err)
    assert code == 2 and line.startswith("emucore: no nestopiaa core found for") and "did you mean nestopia?" in line
    code, out, err = run(capsys, "rollout", "StudioDemo-Nes", "--state", "Strat")
    assert code == 2 and out == "" and "did you mean Start?" in one_line(err)


def test_findings_exit_1(capsys, broken):
    assert run(capsys, "verify", "--lint-only", broken)[0] == 1
    assert run(capsys, "verify", "--lint-only", "--json", broken)[0] == 1
    assert run(capsys, "verify", "--lint-only", integrations_dir() / "StudioDemo-Nes")[0] == 0


def test_playback_mismatch_exits_1_and_an_unplayable_movie_2(capsys, movie, tmp_path):
    items = entries(movie)
    items["Header.txt"] = items["Header.txt"].replace(b"Platform GEN", b"Platform NES")
    nes = write_zip(tmp_path / "nes.bk2", list(items.items()))
    code, out, err = run(capsys, "playback", nes)
    assert code == 1 and out == "" and "recorded on Nes" in one_line(err)
    code, out, err = run(capsys, "playback", nes, movie)
    assert code == 1 and "21 frames (20 steps)" in out
    code, _, err = run(capsys, "playback", nes, tmp_path / "gone.bk2", movie)
    assert code == 2 and len(err.strip().splitlines()) == 2


def test_playback_of_a_game_name_with_a_typo_suggests_the_game(capsys, movie):
    code, out, err = run(capsys, "playback", movie, "--game", "StudioDemo-Genesys")
    assert code == 2 and out == "" and "did you mean StudioDemo-Genesis" in one_line(err)


def test_the_console_script_exit_status(tmp_path):
    def emucore_(*args: object, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(EMUCORE), *map(str, args)], capture_output=True, text=True, timeout=120,
                              env={**os.environ, **env})

    version = emucore_("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"emucore {__version__}"
    missing = emucore_("verify", tmp_path / "Gone-Nes")
    assert missing.returncode == 2 and missing.stdout == "" and one_line(missing.stderr)
    empty = emucore_("cores", EMUCORE_CORES_DIR=str(tmp_path))
    assert empty.returncode == 2 and "no system descriptors found" in one_line(empty.stderr)
    usage = emucore_("rollout", "StudioDemo-Nes", "--episodes", "-1")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


# ---- 3. did you mean ----


def test_make_suggests_close_game_names_after_stable_retros_wording():
    with pytest.raises(GameNotFoundError) as caught:
        emucore.make("StudioDemo-Ne")
    text = str(caught.value)
    assert text.startswith("No romfiles found for game: StudioDemo-Ne; did you mean StudioDemo-Nes")
    assert "\n" not in text
    with pytest.raises(GameNotFoundError) as caught:
        emucore.make("Zzyzx-Nes")
    assert str(caught.value) == "No romfiles found for game: Zzyzx-Nes"  # nothing close: nothing suggested


def test_make_of_a_game_without_rom_suggests_close_imported_ones(tmp_path, monkeypatch, clean_data_state):
    game = tmp_path / "games" / "StudioDemoo-Nes"
    game.mkdir(parents=True)
    shutil.copyfile(integrations_dir() / "StudioDemo-Nes" / "rom.sha", game / "rom.sha")
    monkeypatch.setenv("EMUCORE_DATA_PATH", str(game.parent))
    with pytest.raises(GameNotFoundError) as caught:
        emucore.make("StudioDemoo-Nes")
    text = str(caught.value)
    assert text.startswith("Game not found: StudioDemoo-Nes. Did you make sure to import the ROM?")
    assert text.endswith(" Or did you mean StudioDemo-Nes or StudioDemo-Genesis (their ROMs are imported)?")


def test_a_missing_state_suggests_close_state_names():
    require_core("fceumm")
    with pytest.raises(StateNotFoundError) as caught:
        emucore.make("StudioDemo-Nes", state="Strat")
    assert "not found in the integration of StudioDemo-Nes (inttype Integrations." in str(caught.value)
    assert str(caught.value).endswith("; did you mean Start?")
    with pytest.raises(StateNotFoundError) as caught:  # the enum by name, not its repr
        emucore.make("StudioDemo-Nes", state="Strat", inttype=emucore.data.Integrations.ALL)
    assert str(caught.value) == ("state Strat.state: not found in the integration of StudioDemo-Nes (inttype "
                                 "Integrations.ALL); did you mean Start?")


@pytest.mark.parametrize("command", ["verify", "check"])
def test_verify_and_check_suggest_close_game_names(capsys, command):
    code, out, err = run(capsys, command, "StudoDemo-Nes")
    assert code == 2 and out == ""
    assert "StudoDemo-Nes: no such" in one_line(err) and "did you mean StudioDemo-Nes" in err


# ---- 4. where to get a core ----


def test_provider_text_reads_well_for_every_kind_of_core():
    nes = get_system("Nes")
    assert library("nestopia").provider_text() == (
        "install it with apt-get install libretro-nestopia; "
        "or put nestopia_libretro.so in EMUCORE_CORE_PATH or RetroArch's cores folder")
    assert library("mesen").provider_text(nes).startswith("put mesen_libretro.so in EMUCORE_CORE_PATH")
    assert library("nestopiaa").provider_text(nes) == (
        "nestopiaa is not a known core (Nes's cores: fceumm, nestopia, mesen); did you mean nestopia?")
    assert library("qqqq").provider_text(nes) == "qqqq is not a known core (Nes's cores: fceumm, nestopia, mesen)"


def test_missing_core_messages(monkeypatch):
    monkeypatch.setattr("emucore.host.corefinder.search_dirs", lambda: [])  # no core is installed anywhere
    with pytest.raises(CoreNotFoundError) as caught:
        find_core("Nes", "nestopia")
    assert str(caught.value) == (
        "no nestopia core found for Nintendo Entertainment System / Famicom: install it with apt-get install "
        "libretro-nestopia; or put nestopia_libretro.so in EMUCORE_CORE_PATH or RetroArch's cores folder")
    with pytest.raises(CoreNotFoundError) as caught:
        find_core("Nes")
    assert "(tried fceumm, nestopia, mesen); for fceumm, install it with pip install stable-retro" in str(caught.value)
    assert "Install it: or" not in str(caught.value)


# ---- 5. --json ----


def test_cores_json(capsys):
    code, out, _ = run(capsys, "cores", "--json")
    rows = json.loads(out)
    assert code == 0 and [row["system"] for row in rows] == list(systems())
    for row in rows:
        assert set(row) == {"system", "title", "core", "source", "path", "missing"}
        assert (row["core"] is None) == (row["path"] is None) == (row["missing"] is not None)
        if row["path"]:
            assert Path(row["path"]).is_file()


def test_info_json(capsys):
    require_core("fceumm")
    code, out, _ = run(capsys, "info", NES_ROM, "--json")
    info = json.loads(out)
    assert code == 0 and info["system"] == "Nes" and info["core"]["lib"] == "fceumm"
    assert info["screen"] == [240, 224] and info["memory"] == {"system_ram": 2048} and info["state_bytes"] > 0
    text = run(capsys, "info", NES_ROM)[1]
    assert f"ROM          {info['rom']}" in text and "240x224" in text


def test_verify_json(capsys, broken):
    code, out, _ = run(capsys, "verify", "--json", broken, integrations_dir() / "StudioDemo-Nes")
    report = json.loads(out)
    assert code == 1 and [r["ok"] for r in report] == [False, True] and report[1]["findings"] == []
    assert report[0]["folder"] == str(broken)
    for finding in report[0]["findings"]:
        assert set(finding) == {"level", "file", "key", "message"}
    assert {"level": "error", "file": "metadata.json", "key": "default_state",
            "message": "invalid default state Nope"} in report[0]["findings"]


# ---- 6. defaults in --help ----


@pytest.mark.parametrize(("command", "default"), [
    ("cores", None),  # no option with a default
    ("info", "(default: the first core found for the system)"),
    ("verify", None),
    ("import", "(default: ['.'])"),
    ("playback", "(default: veryfast)"),
    ("check", None),
    ("rollout", "(default: 4500)"),
])
def test_help_shows_defaults_and_exit_status(capsys, command, default):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    out = words(capsys.readouterr().out)
    assert done.value.code == 0 and "Exit status: 0" in out
    assert default is None or default in out
    assert not any(empty in out for empty in ("(default: None)", "(default: False)", "(default: [])"))


# ---- 7. verify reports each problem once ----


def test_verify_reports_each_problem_once(capsys, broken):
    require_core("fceumm")
    code, out, _ = run(capsys, "verify", broken)
    lines = out.splitlines()
    assert code == 1 and len(lines) == len(set(lines))
    assert sum("Nope" in line for line in lines) == 1  # lint's error, not again as the trial's make() failure
    assert sum("[info.lives.type]" in line for line in lines) == 1  # the error, not its two warnings too
    code, out, _ = run(capsys, "verify", "--json", broken)
    findings = [tuple(f.values()) for f in json.loads(out)[0]["findings"]]
    assert len(findings) == len(set(findings))


def test_distinct_findings():
    bad_type = LintFinding("error", "data.json", "info.lives.type", "invalid type |q9 for lives")
    warned = LintFinding("warning", "data.json", "info.lives.type", "suspicious type |q9 for lives")
    other = LintFinding("warning", "scenario.json", "reward", "missing reward")
    again = LintFinding("error", "data.json", "info.lives", "the first step fails: no such type")
    elsewhere = LintFinding("error", "script.lua", "", "the first step fails: boom")
    unnamed = LintFinding("error", "", "", "the game cannot be made into an env: boom")
    assert distinct_findings([bad_type, warned, other, bad_type], [again, elsewhere, elsewhere]) == [
        bad_type, other, elsewhere]
    assert distinct_findings([bad_type], [unnamed]) == [bad_type]
    assert distinct_findings([other], [unnamed]) == [other, unnamed]  # no lint error explains it


# ---- 8. --version ----


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"emucore {__version__}\n"


def test_a_reader_that_goes_away_is_not_an_error():
    """``emucore cores | head -1``: the pipe closes early; no traceback, no "Broken pipe" message, exit 0."""
    script = Path(sys.executable).with_name("emucore")
    process = subprocess.Popen([script, "cores", "-v"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    _, errors = process.communicate(timeout=120)
    assert (process.returncode, errors) == (0, b"")
