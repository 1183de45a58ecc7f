"""The number read off the screen, plotted beside the variable found with it (a dashed "on screen"
series): where the two part, the variable is not what the screen shows, or the reader misreads."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt

SCREEN_PEN = pg.mkPen((230, 160, 0), width=1.5, style=Qt.PenStyle.DashLine)
NAME = "on screen"


class ScreenSeries:
    """The "on screen" curve of a variables plot.

    Args:
        plot: The plot it is drawn in.
        watch: The variables (their provenance says which were found from the screen).
        screen: The workspace's :class:`~studio.model.search.screen_reader.ScreenReader`, or None.
    """

    def __init__(self, plot: pg.PlotWidget, watch: Any, screen: Any):
        self.plot, self.watch, self.screen = plot, watch, screen
        self.curve: pg.PlotDataItem | None = None
        self.legend: pg.LegendItem | None = None  # says which curve is the screen's

    def wanted(self, selected: list[str]) -> bool:
        """Shown when there is a reader and a selected variable was found from the screen."""
        if self.screen is None or self.screen.reader is None:
            return False
        entries = self.watch.provenance.entries
        return any(name in entries and entries[name].how == "find from screen" for name in selected)

    def rebuild(self, selected: list[str]) -> None:
        if self.curve is not None:
            self.plot.removeItem(self.curve)
            self.curve = None
        if self.legend is not None:
            self.legend.setParentItem(None)
            if self.legend.scene() is not None:
                self.legend.scene().removeItem(self.legend)
            self.legend = None
        if self.wanted(selected):
            self.curve = self.plot.plot([], [], pen=SCREEN_PEN, name=NAME, connect="finite")
            self.curve.setToolTip("The number the screen reader reads on each frame (gaps: not readable)")
            self.legend = pg.LegendItem(offset=(40, 4))
            self.legend.setParentItem(self.plot.getPlotItem())
            self.legend.addItem(self.curve, NAME)

    def refresh(self) -> None:
        if self.curve is not None and self.screen is not None:
            frames, values = self.screen.samples()
            self.curve.setData(frames, values, connect="finite")


__all__ = ["NAME", "ScreenSeries"]
