"""The poke test on the homebrew games: a real counter, a copy, a value never drawn; the session untouched
(its button and dialog in the Variables dock: ``tests/studio/qt/test_poke_panel.py``)."""

from __future__ import annotations

import shutil

import pytest

from emucore.paths import integrations_dir
from studio.model.opening import resolve_game
from studio.model.play.session import Session
from studio.model.variables.poke import DEFAULT_FRAMES, default_value, poke_test, value_range

# StudioDemo-Nes (homebrew/nes/README.md): lives is drawn as a digit; score_digits is recomputed
# from score every frame, after the top score was taken from it; hud_buf is rewritten from the score or
# the timer every frame and never drawn (a copy). StudioDemo-Genesis: the binary score is never drawn (the HUD
# shows score_bcd).
NES_LIVES, NES_SCORE, NES_DIGITS, NES_HUD_BUF = (19, "|u1"), (32, "<u2"), (34, ">n5"), (0x40, ">d3")
GENESIS_SCORE, GENESIS_BCD = (0xFF0000, ">u4"), (0xFF0004, ">d4")


def open_copy(tmp_path, game: str) -> Session:
    folder = tmp_path / game
    shutil.copytree(integrations_dir() / game, folder)
    return Session(*resolve_game(str(folder), None))


@pytest.fixture
def nes(tmp_path):
    session = open_copy(tmp_path, "StudioDemo-Nes")
    session.advance(10)
    yield session
    session.close()


@pytest.fixture
def genesis(tmp_path):
    session = open_copy(tmp_path, "StudioDemo-Genesis")
    session.advance(10)
    yield session
    session.close()


def test_a_real_counter_keeps_the_poke_and_changes_the_picture(nes):
    lives = nes.emulator.read(*NES_LIVES)
    result = poke_test(nes, NES_LIVES)
    assert result.before == lives and result.poked == lives + 1 and result.frames == DEFAULT_FRAMES
    assert result.stayed and not result.rewritten and not result.rejoined
    assert result.screen_changed and 0 < result.pixels_changed < 500  # one digit of the HUD
    assert result.verdict().startswith("A real value: it kept")

    score = poke_test(nes, NES_SCORE, 4321, frames=20)
    assert score.stayed and score.screen_changed and score.values == [4321] * 20
    assert score.baseline == [0] * 20  # no button held: the game's own score stays 0


def test_a_copy_is_rewritten_by_the_game_and_the_picture_ends_the_same(nes):
    result = poke_test(nes, NES_HUD_BUF, 777)  # rewritten from the score (or timer) every frame, never drawn
    assert not result.stayed and result.rewritten and result.rejoined and result.rewritten_at == 1
    assert not result.screen_changed and result.pixels_changed == 0 and not result.frames_looking_different
    assert result.verdict().startswith("A copy")


def test_a_copy_the_game_reads_before_rewriting_it_is_said_to_be(nes):
    """score_digits is recomputed from score every frame, but the top score is taken from it first
    (homebrew/nes/README.md): the poked 777 becomes the top score, and the picture shows it."""
    result = poke_test(nes, NES_DIGITS, 777)
    assert not result.stayed and result.rewritten and result.rejoined
    assert result.rewritten_at == 1 and result.rewritten_to == nes.emulator.read(*NES_SCORE)
    assert result.screen_changed and 0 < result.pixels_changed < 500  # TOP 00777: three digits
    assert result.verdict().startswith("Recomputed by the game at frame 1 (777 -> 0), but the picture changed")
    assert "the game read it before writing it again" in result.verdict()


def test_a_value_never_drawn_stays_but_changes_nothing_on_screen(genesis):
    hidden = poke_test(genesis, GENESIS_SCORE, 5000)
    assert hidden.stayed and not hidden.screen_changed and not hidden.frames_looking_different
    assert "nothing changed on screen" in hidden.verdict()
    shown = poke_test(genesis, GENESIS_BCD, 5000)  # the same score as the HUD draws it
    assert shown.stayed and shown.screen_changed and shown.verdict().startswith("A real value")


def test_the_session_is_untouched(genesis):
    session = genesis
    session.advance(30)
    state, picture, frame = session.emulator.get_state(), session.screen().copy(), session.frame
    rewind, buttons = len(session.rewind), session.emulator.get_button_mask(0)
    session.set_buttons(0, 1 << 7)
    poke_test(session, GENESIS_BCD, frames=90)
    assert session.emulator.get_state() == state and session.frame == frame
    assert (session.screen() == picture).all() and len(session.rewind) == rewind
    assert session.emulator.get_button_mask(0) == buttons and session.held[0] == 1 << 7
    session.advance(1)  # and the game goes on from there
    assert session.frame == frame + 1


def test_an_atari_game_is_put_back_too(ale_rom):
    """Stella is reloaded to load a state (as stable-retro does): the game is still put back exactly."""
    session = Session(ale_rom("breakout", "Breakout.a26"))
    session.advance(100)
    state, picture = session.emulator.get_state(), session.screen().copy()
    result = poke_test(session, (0xDC, "|d1"), frames=30)  # a byte of Breakout's score (ALE reads it here)
    assert len(result.values) == len(result.baseline) == 30
    assert session.emulator.get_state() == state and (session.screen() == picture).all()
    session.advance(5)
    assert session.frame == 105
    session.close()


def test_no_poke_test_while_a_movie_is_recorded(genesis, tmp_path):
    genesis.movies.start_recording(tmp_path / "take.bk2")
    frames = genesis.movies.recorder.frame_count
    with pytest.raises(ValueError, match="movie"):
        poke_test(genesis, GENESIS_BCD)
    assert genesis.movies.recorder.frame_count == frames
    genesis.movies.stop_recording()


def test_clear_errors(nes):
    with pytest.raises(ValueError, match="not mapped"):
        poke_test(nes, (0x9000, "|u1"))
    with pytest.raises(ValueError, match="does not fit"):
        poke_test(nes, NES_LIVES, 256)
    with pytest.raises(ValueError, match="does not fit"):
        poke_test(nes, NES_DIGITS, 100000)
    with pytest.raises(ValueError, match="already"):
        poke_test(nes, NES_LIVES, nes.emulator.read(*NES_LIVES))
    with pytest.raises(ValueError, match="frames"):
        poke_test(nes, NES_LIVES, frames=0)
    with pytest.raises(ValueError, match="width"):
        poke_test(nes, (19, "|u9"))


def test_value_ranges_and_default_values():
    assert value_range("|u1") == (0, 255) and value_range(">i2") == (-32768, 32767)
    assert value_range(">d2") == (0, 9999) and value_range(">n5") == (0, 99999)
    assert value_range("<u8") == (0, (1 << 63) - 1)
    assert default_value(3, "|u1") == 4 and default_value(255, "|u1") == 254
    assert default_value(-1, "|i1") == 0 and default_value(99, "|d1") == 98
