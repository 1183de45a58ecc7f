"""The Done tab's list of episode movies Suggest uses: each with its end frame, and Trim, Restore
and Remove for the selected one.

Behaviour lives in :class:`studio.model.scenario.done_episodes.EpisodeMovies`; the panel shows
what it did (or why it could not) through ``say``, never raising into Qt.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.model.scenario.done_episodes import Episode, EpisodeMovies

ROWS_SHOWN = 2


class DoneEpisodesPanel(QWidget):
    """The episodes of ``episodes`` (a :class:`EpisodeMovies`), one line each.

    Args:
        episodes: The open game's episode movies.
        say: Shows a command's notice (or error) and returns it; called after each command.
    """

    def __init__(self, episodes: EpisodeMovies, say: Callable[[Callable[[], str]], str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.episodes_model = episodes
        self.say = say
        self.rows: list[Episode] = []
        self.title = QLabel("Episodes (each ends at its game over):")
        self.listing = QListWidget()
        self.listing.setTextElideMode(Qt.TextElideMode.ElideRight)  # long lines end in "...": the tooltip says all
        self.listing.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.listing.setToolTip("The episode movies Suggest uses, with their length; Trim ends the selected one "
                                "earlier, Restore puts back the whole movie, Remove leaves it out")
        height = self.fontMetrics().lineSpacing() * ROWS_SHOWN + 6 * ROWS_SHOWN + 8
        self.listing.setFixedHeight(height)
        self.listing.currentRowChanged.connect(self._chosen)
        self.end = QSpinBox()
        self.end.setPrefix("end at frame ")
        self.end.setRange(1, 1)
        self.end.setToolTip("The frame the selected episode's game over is at: Trim ends the movie there")
        self.buttons: dict[str, QPushButton] = {}
        side = QVBoxLayout()
        for key, title, slot in (("trim", "Trim", self.trim), ("restore", "Restore", self.restore),
                                 ("remove", "Remove", self.remove)):
            button = QPushButton(title)
            button.clicked.connect(lambda _=False, s=slot: s())
            side.addWidget(button)
            self.buttons[key] = button
        side.addStretch(1)
        left = QVBoxLayout()
        left.addWidget(self.listing)
        left.addWidget(self.end)
        row = QHBoxLayout()
        row.addLayout(left, 1)
        row.addLayout(side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(row)
        self.refresh()

    def bind(self, episodes: EpisodeMovies) -> None:
        self.episodes_model = episodes
        self.refresh()

    def refresh(self) -> None:
        """Lists the episodes again (after a recording, a Suggest that moved an end, a command)."""
        row = self.listing.currentRow()
        self.rows = self.episodes_model.episodes()
        self.listing.clear()
        for episode in self.rows:
            item = QListWidgetItem(episode.line())
            item.setToolTip(f"{episode.path}\n{episode.line()}")
            self.listing.addItem(item)
        self.title.setText(f"Episodes (each ends at its game over): {len(self.rows)}")
        if self.rows:
            self.listing.setCurrentRow(min(max(row, 0), len(self.rows) - 1))
        self._chosen(self.listing.currentRow())

    def _chosen(self, row: int) -> None:
        chosen = self.rows[row] if 0 <= row < len(self.rows) else None
        for button in self.buttons.values():
            button.setEnabled(chosen is not None)
        self.end.setEnabled(chosen is not None and chosen.frames > 2)
        if chosen is not None:  # the frame of its game over (frame 0 is the movie's reset frame)
            self.end.setRange(1, max(chosen.frames - 1, 1))
            self.end.setValue(max(chosen.frames - 1, 1))

    @property
    def chosen(self) -> Episode | None:
        row = self.listing.currentRow()
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def _command(self, action: Callable[[Episode], str]) -> str:
        def run() -> str:
            episode = self.chosen
            if episode is None:
                raise ValueError("select an episode in the list first")
            return action(episode)

        text = self.say(run)
        self.refresh()
        return text

    def trim(self, frame: int | None = None) -> str:
        """Ends the selected episode at ``frame`` (default: the end-frame box's): its game over."""
        end = self.end.value() if frame is None else frame

        def trim(episode: Episode) -> str:
            had = self.episodes_model.trim(episode.path, end + 1)
            return (f"{episode.path.name} now ends at frame {end:,}: {had - end - 1:,} frames cut "
                    "(Restore puts them back)")

        return self._command(trim)

    def restore(self) -> str:
        def restore(episode: Episode) -> str:
            self.episodes_model.restore(episode.path)
            return f"{episode.path.name} ends at your mark again"

        return self._command(restore)

    def remove(self) -> str:
        def remove(episode: Episode) -> str:
            self.episodes_model.remove(episode.path)
            return f"{episode.path.name} is left out of the examples"

        return self._command(remove)


__all__ = ["DoneEpisodesPanel"]
