"""``check_integration`` and ``emucore check`` on real cores, real ROMs and movies recorded here.

The homebrew games are the ground truth (homebrew/nes/README.md, homebrew/genesis/README.md): one
button adds 1 to the score per frame and another 10, a life is lost every 300 frames of play and
the game is over at the 900th. Each test copies an integration folder and breaks one thing in it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import emucore
from emucore.assist import CheckpointError, check_integration
from emucore.errors import GameNotFoundError
from emucore.movie import Movie, MovieError
from emucore.paths import integrations_dir
from tests.conftest import ROOT
from tests.emucore.movie import entries, write_zip

NES = integrations_dir() / "StudioDemo-Nes"
GENESIS = integrations_dir() / "StudioDemo-Genesis"


def record(folder: Path, out: Path, held: Callable[[int], tuple[str, ...]], *, steps: int | None = None,
           until: Callable[[dict], bool] | None = None) -> Path:
    """Plays ``folder`` from its default state in ``emucore.make(record=out)``, holding the buttons
    ``held(step)`` names at each step, for ``steps`` steps or until ``until(info)``; the movie's path."""
    env = emucore.make(str(folder), record=str(out), use_restricted_actions=emucore.Actions.ALL)
    try:
        env.reset()
        step = 0
        while True:
            action = np.zeros(env.num_buttons, dtype=np.int8)
            for name in held(step):
                action[env.buttons.index(name)] = 1
            _, _, _, _, info = env.step(action)
            step += 1
            if (until is not None and until(info)) or step == steps:
                break
        return Path(env.movie.path)
    finally:
        env.close()


def scoring(step: int) -> tuple[str, ...]:
    """NES: B (+10) on every third frame, A (+1) on the others: the score passes 1,000, 2,000 and 3,000."""
    return ("B",) if step % 3 == 0 else ("A",)


def ordinary(step: int) -> tuple[str, ...]:
    """NES: right for 50 frames, then B (+10) for 150 (score 1,500 from frame 200 on), then nothing."""
    return ("RIGHT",) if step < 50 else ("B",) if step < 200 else ()


@pytest.fixture(scope="module")
def nes(tmp_path_factory) -> dict[str, Path]:
    """NES movies: an episode to the game over, ordinary play, and play on past a game over and a restart."""
    root = tmp_path_factory.mktemp("nes-movies")
    return {
        "episode": record(NES, root / "episode", scoring, until=lambda info: info["game_over"] == 1),
        "play": record(NES, root / "play", ordinary, steps=400),
        "restart": record(NES, root / "restart", lambda s: ("A",) if s < 899 else ("START",) if s in (920, 921) else (),
                          steps=960),
    }


def broken(tmp_path: Path, source: Path = NES, *, data: Callable[[dict], None] | None = None,
           scenario: dict | None = None) -> Path:
    """A copy of ``source`` (same folder name) with data.json's variables edited and scenario.json replaced."""
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    if data is not None:
        document = json.loads((folder / "data.json").read_text())
        data(document["info"])
        (folder / "data.json").write_text(json.dumps(document))
    if scenario is not None:
        (folder / "scenario.json").write_text(json.dumps(scenario))
    return folder


def kinds(report, severity: str = "problem") -> list[str]:
    return [f.kind for f in report.findings if f.severity == severity]


def one(report, kind: str):
    found = [f for f in report.findings if f.kind == kind]
    assert len(found) == 1, report.text()
    return found[0]


REWARD = {"variables": {"score": {"reward": 1.0}}}


def test_the_shipped_integration_passes_its_episode_and_play(nes):
    report = check_integration(NES, movies=[nes["play"]], episodes=[nes["episode"]])
    assert report.ok, report.text()
    play, episode = report.movies
    assert (play.kind, play.steps, play.reward_total, play.rewards_nonzero) == ("movie", 400, 1500.0, 150)
    assert play.first_done is None and play.game_over is None
    assert episode.kind == "episode" and episode.first_done == episode.game_over == episode.steps
    assert episode.reward_total == 300 * 10 + (episode.steps - 300) * 1 and episode.done_reason == "lives == 0 (is 0)"
    at_over = one(report, "done-at-game-over")
    assert at_over.severity == "info" and at_over.frame == episode.steps and at_over.movie == 1
    assert report.frames == 401 + episode.steps + 1 and report.changes["score"] > 0
    assert "y" in [f.variable for f in report.findings if f.kind == "never-changed"]  # the smiley never went up or down
    assert json.loads(report.to_json())["ok"] is True and report.text().splitlines()[-1].startswith("ok: 0 problems")


def test_a_score_at_a_wrong_address_gives_a_reward_that_is_always_zero(nes, tmp_path):
    folder = broken(tmp_path, data=lambda info: info["score"].update(address=0x700))
    report = check_integration(folder, movies=[nes["play"]])
    finding = one(report, "reward-always-zero")
    assert finding.severity == "problem" and finding.movie == 0 and finding.variable == "score"
    assert "reward is 0 on every step (400 steps) although score_digits changed 150 times" in finding.message
    assert "score never changed: wrong address" in finding.message
    assert report.movies[0].reward_total == 0 and "score" in [f.variable for f in report.findings
                                                              if f.kind == "never-changed"]


def test_done_on_lives_equal_1_fires_early_at_the_second_death(nes, tmp_path):
    folder = broken(tmp_path, scenario={"reward": REWARD, "done": {"variables": {"lives": {"op": "equal",
                                                                                           "reference": 1}}}})
    report = check_integration(folder, episodes=[nes["episode"]])
    over = report.movies[0].game_over
    finding = one(report, "done-early")
    assert finding.severity == "problem" and finding.frame == over - 300 and finding.variable == "lives"
    assert (f"done fires at frame {over - 300} (lives == 1 (is 1)), 300 frames before the game over at frame {over}"
            in finding.message)
    assert not report.ok and report.movies[0].first_done == over - 300


def test_done_a_few_frames_before_a_late_mark_is_reaction_time_not_a_problem(nes, tmp_path):
    """An episode marked 11 frames after the game over (as a person marks it on seeing it): the
    shipped rule (lives equal 0) fires 11 frames before the mark and holds until it, with no life
    lost in between: a note, and the check is ok. A rule that fires as close to the mark but at
    a life lost (the last one: lives goes 1 -> 0 at the game over) stays a problem."""
    late = record(NES, tmp_path / "late", scoring, until=lambda info: info["frame"] == 911)
    report = check_integration(NES, episodes=[late])
    over = report.movies[0].game_over
    note = one(report, "done-before-mark")
    assert note.severity == "info" and note.frame == over - 11 and report.ok
    assert f"11 frames before your mark at frame {over}: your reaction time?" in note.message
    dying = broken(tmp_path / "dying", scenario={"reward": REWARD, "done": {"condition": "all", "variables": {
        "lives": {"op": "less-than", "reference": 2}, "timer": {"op": "less-than", "reference": 30}}}})
    report = check_integration(dying, episodes=[nes["episode"]])
    assert one(report, "done-early").severity == "problem" and not report.ok


def test_done_that_never_fires_on_an_episode_is_a_problem(nes, tmp_path):
    folder = broken(tmp_path, scenario={"reward": REWARD, "done": {"variables": {"lives": {"op": "equal",
                                                                                           "reference": 5}}}})
    report = check_integration(folder, episodes=[nes["episode"]])
    finding = one(report, "done-never")
    assert finding.severity == "problem" and finding.variable == "lives"
    assert "the rule is lives == 5, and at the game over lives is 0" in finding.message
    # the frame counter runs on in game over: it passes 930 thirty-one frames after the game over (at 900)
    late = broken(tmp_path / "late", scenario={"reward": REWARD, "done": {"variables": {"frame": {
        "op": "greater-than", "reference": 930}}}})
    report = check_integration(late, episodes=[nes["episode"]])
    finding = one(report, "done-late")
    assert finding.severity == "problem" and finding.frame - report.movies[0].game_over == 31
    assert report.movies[0].late_done == finding.frame and "31 frames after the game over" in finding.message


def test_a_score_read_as_a_wider_type_makes_absurd_steps(nes, tmp_path):
    """``<u4`` at the score holds the thousands digit of score_digits in its top byte: 2**24 a thousand."""
    folder = broken(tmp_path, data=lambda info: info["score"].update(type="<u4"))
    report = check_integration(folder, movies=[nes["play"]])
    spike = one(report, "reward-spike")
    assert spike.severity == "problem" and spike.frame == 150 and spike.variable == "score"  # 100 frames of B
    assert "reward 16,777,226 at frame 150 is more than 100x the median non-zero reward (10)" in spike.message
    assert "score went from 990 to 16,778,216" in spike.message


def test_checkpoints_name_the_factor_between_the_reward_and_the_shown_score(nes):
    tenfold = check_integration(NES, movies=[nes["play"]], checkpoints={0: [(40, 0), (300, 15000)]})
    finding = one(tenfold, "reward-scale")
    assert finding.severity == "problem" and finding.frame == 300 and finding.variable == "score"
    assert finding.message.endswith(
        "reward between frames 40 and 300 is 1,500 but the screen went from 0 to 15,000 (score x1.0): the reward "
        "is 10x too small — is the shown score 10x the stored value? a reward multiplier of 10 would match")
    agree = check_integration(NES, movies=[nes["play"]], episodes=[nes["episode"]],
                              checkpoints={0: [(40, 0), (300, 1500)], 1: [(0, 0), (3, 12)]})
    assert agree.ok and [f.severity for f in agree.findings if f.kind == "reward-scale"] == ["info", "info"]


def test_unmapped_and_never_changing_variables(nes, tmp_path):
    folder = broken(tmp_path, data=lambda info: info.update(ghost={"address": 0x1000, "type": "|u1"},
                                                            still={"address": 0x700, "type": "|u1"}))
    report = check_integration(folder, movies=[nes["play"]])
    ghost = one(report, "unmapped")
    assert ghost.severity == "problem" and ghost.variable == "ghost" and "0x1000" in ghost.message
    still = [f for f in report.findings if f.kind == "never-changed" and f.variable == "still"]
    assert still and still[0].severity == "warning"
    assert "still (|u1 at 0x700) never changed in 401 frames of play (always 0)" in still[0].message
    used = broken(tmp_path / "used", data=lambda info: info["score"].update(address=0x1000))
    cannot_load = check_integration(used, movies=[nes["play"]])
    assert kinds(cannot_load) == ["unmapped"] and cannot_load.movies == []


def test_a_reset_of_the_game_is_a_penalty_only_where_done_did_not_end_the_episode(nes, tmp_path):
    """A score that falls back to 0 at a restart costs the whole score where a fall is a penalty."""
    penalty = {"variables": {"score": {"reward": 1.0, "penalty": 1.0}}}
    done = broken(tmp_path / "done", scenario={"reward": penalty, "done": {"variables": {"lives": {"op": "zero"}}}})
    report = check_integration(done, movies=[nes["restart"]])
    assert report.ok and report.movies[0].first_done == 899  # done came first: training had reset the env
    assert report.movies[0].reward_total == 0 and one(report, "done-in-movie").frame == 899
    no_done = broken(tmp_path, scenario={"reward": penalty})
    report = check_integration(no_done, movies=[nes["restart"]])
    finding = one(report, "reward-at-reset")
    assert finding.severity == "problem" and finding.frame == 921 and finding.variable == "score"
    assert "reward -899 at frame 921, right after a reset of the game (score went from 899 to 0)" in finding.message


def test_an_env_is_checked_by_its_integration_and_left_as_it_was(nes):
    env = emucore.make(str(NES))
    try:
        env.reset()
        for _ in range(20):
            env.step(np.ones(env.num_buttons, dtype=np.int8))
        ram, state = env.get_ram().copy(), env.em.get_state()
        report = check_integration(env, movies=[nes["play"]], episodes=[nes["episode"]])
        assert np.array_equal(env.get_ram(), ram) and env.em.get_state() == state
        env.step(np.zeros(env.num_buttons, dtype=np.int8))
    finally:
        env.close()
    assert report.ok and [m.reward_total for m in report.movies] == [
        m.reward_total for m in check_integration(NES, movies=[nes["play"]], episodes=[nes["episode"]]).movies]


def test_the_genesis_game_passes_with_its_own_buttons(tmp_path):
    episode = record(GENESIS, tmp_path, lambda s: ("C",) if s < 100 else ("B",),
                     until=lambda info: info["game_over"] == 1)
    report = check_integration(GENESIS, episodes=[episode], checkpoints={0: [(100, 1000), (200, 1100)]})
    assert report.ok, report.text()
    assert report.movies[0].reward_total == 1000 + report.movies[0].steps - 100
    assert kinds(report, "info") == ["reward-scale", "done-at-game-over"]


def test_bad_inputs_are_errors_naming_the_file(nes, tmp_path):
    with pytest.raises(MovieError, match="nope.bk2"):
        check_integration(NES, movies=[tmp_path / "nope.bk2"])
    garbage = tmp_path / "garbage.bk2"
    garbage.write_bytes(b"not a movie at all")
    with pytest.raises(MovieError, match="garbage.bk2"):
        check_integration(NES, movies=[garbage])
    genesis = record(GENESIS, tmp_path / "genesis", lambda s: (), steps=10)
    with pytest.raises(MovieError, match=f"{genesis.name}.*(Genesis|Nes)"):
        check_integration(NES, movies=[genesis])
    three = Movie(tmp_path / "three.bk2", True, players=3)
    three.configure("StudioDemo-Nes", "Nes")
    for _ in range(5):
        three.step()
    three.close()
    with pytest.raises(MovieError, match="three.bk2.*3 players"):
        check_integration(NES, movies=[tmp_path / "three.bk2"])
    with pytest.raises(CheckpointError, match="index 2"):
        check_integration(NES, movies=[nes["play"]], checkpoints={2: [(1, 1)]})
    with pytest.raises(CheckpointError, match="frames 0 to 400"):
        check_integration(NES, movies=[nes["play"]], checkpoints={0: [(401, 1)]})
    with pytest.raises(GameNotFoundError, match="Nowhere"):
        check_integration(tmp_path / "Nowhere-Nes")
    assert check_integration(NES, movies=[Movie(nes["play"])]).movies[0].steps == 400  # a Movie is reopened


def test_a_movie_without_a_start_state_plays_from_the_state_given(nes, tmp_path):
    stateless = write_zip(tmp_path / "stateless.bk2",
                          [(name, data) for name, data in entries(nes["play"]).items() if name != "Core.bin"])
    with pytest.raises(MovieError, match="stateless.bk2: no usable start state"):
        check_integration(NES, movies=[stateless])
    report = check_integration(NES, movies=[stateless], state="Start")
    assert report.ok and report.movies[0].reward_total == 1500


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "emucore.cli", "check", *map(str, args)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_the_command_exits_0_when_nothing_is_a_problem_and_1_when_something_is(nes, tmp_path):
    ok = cli(NES, "--movie", nes["play"], "--episode", nes["episode"], "--checkpoint", "40=0", "0:300=1,500")
    assert ok.returncode == 0, ok.stderr
    assert "done fires at the game over" in ok.stdout and ok.stdout.rstrip().endswith("ok: 0 problems, 1 warning")
    early = broken(tmp_path, scenario={"reward": REWARD, "done": {"variables": {"lives": {"op": "equal",
                                                                                          "reference": 1}}}})
    bad = cli(early, "--episode", nes["episode"], "--json")
    assert bad.returncode == 1, bad.stderr
    document = json.loads(bad.stdout)
    assert document["ok"] is False and document["movies"][0]["kind"] == "episode"
    assert [f["kind"] for f in document["findings"] if f["severity"] == "problem"] == ["done-early"]


@pytest.mark.parametrize(("args", "message"), [
    (["{tmp}/Missing-Nes"], "FOLDER {tmp}/Missing-Nes: no such folder"),
    (["{nes}", "--movie", "{tmp}/nope.bk2"], "--movie {tmp}/nope.bk2: no such file"),
    (["{nes}", "--movie", "{play}", "--checkpoint", "12x"], "--checkpoint: '12x' is not [INDEX:]FRAME=SHOWN"),
    (["{nes}", "--episode", "{tmp}/garbage.bk2"], "garbage.bk2"),
    (["{nes}", "--movie", "{play}", "--checkpoint", "3:10=1"], "checkpoint index 3"),
])
def test_bad_arguments_exit_2_with_one_line(nes, tmp_path, args, message):
    (tmp_path / "garbage.bk2").write_bytes(b"not a movie")
    values = {"tmp": tmp_path, "nes": NES, "play": nes["play"]}
    done = cli(*[arg.format(**values) for arg in args])
    assert done.returncode == 2 and done.stdout == ""
    assert message.format(**values) in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
