"""The search model: SearchBook's named searches and their events, proposed names, typed values (the dock:
``tests/studio/qt/test_search_panel.py``)."""

from __future__ import annotations

import pytest

from studio.model.play.session import Session
from studio.model.search.search_book import SearchBook, parse_value, proposed_name
from studio.model.workspace import Workspace
from tests.conftest import GENESIS_ROM

B = 1 << 0


class Game:
    """A workspace on a ROM from power-on, played with a button mask held."""

    def __init__(self, rom=GENESIS_ROM) -> None:
        self.workspace = Workspace(Session(rom))
        self.emulator = self.workspace.session.emulator
        self.advance(9)

    def advance(self, frames: int, mask: int = 0) -> None:
        self.workspace.session.set_buttons(0, mask)
        self.workspace.session.advance(frames)

    def close(self) -> None:
        self.workspace.close()


@pytest.fixture
def session():
    game = Game()
    yield game
    game.close()


def test_book_names_and_events(session):
    book = SearchBook(session.emulator)
    events = []
    book.events.searches.connect(lambda: events.append("searches"))
    book.events.candidates.connect(lambda: events.append("candidates"))
    assert book.create() == "Search 1" and book.create("Score", types=("|u1",)) == "Score"
    assert book.names() == ["Search 1", "Score"] and book.current_name == "Score"
    assert book.current.types == ("|u1",)
    with pytest.raises(ValueError, match="already"):
        book.create("Search 1")
    with pytest.raises(ValueError):
        book.rename("Score", " ")
    book.rename("Score", "Lives")
    assert book.names() == ["Search 1", "Lives"] and book.current_name == "Lives"
    book.select("Search 1")
    session.advance(10, B)
    assert book.refine("increased") == book.current.count
    assert [h.label for h in book.history()] == ["start", "increased"]
    assert book.undo() and not book.undo() and book.redo() and not book.redo()
    book.delete("Search 1")
    assert book.current_name == "Lives" and book.get("Lives").count == 0x10000 * 1
    book.delete("Lives")
    assert book.current is None and book.history() == []
    with pytest.raises(KeyError):
        book.select("nope")
    assert book.start(value=3) == book.current.count  # a new search when there is none
    assert "searches" in events and "candidates" in events


def test_proposed_names():
    assert proposed_name("lives (equal)", 19) == "lives" and proposed_name("Score P1", 5) == "score_p1"
    assert proposed_name("Search 2", 19) == "var_13" and proposed_name(None, 19) == "var_13"
    # the lives wizard's second search is "lives (equal) 2": still lives, not lives_2
    assert proposed_name("lives (equal) 2", 19) == "lives" and proposed_name("lives (label - 1) 3", 19) == "lives"
    assert proposed_name("Player 2", 19) == "player_2"  # a name of the user's own keeps its number


def test_parse_value():
    assert parse_value("") is None and parse_value(" 12 ") == 12 and parse_value("-0x10") == -16
    assert parse_value("$ff") == 255 and parse_value("1_000") == 1000
    with pytest.raises(ValueError):
        parse_value("twelve")
