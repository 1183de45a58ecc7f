"""GUI tick time and dropped frames of the studio at 1x on the Genesis demo, offscreen.

The window runs its real timer and event loop for ``--seconds`` with the states dock open; every
tick (emulate the due frames, paint the newest) is timed. Dropped frames are the frames the
core's rate asked for over the run that were not emulated.

    QT_QPA_PLATFORM=offscreen python bench/bench_studio.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--memory-tools", action="store_true",
                        help="also show the RAM viewer, the search panel and three variable plots")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-studio-")
    os.environ["RETRO_STUDIO_CONFIG"] = os.path.join(folder, "config")
    os.environ["RETRO_STUDIO_DATA"] = os.path.join(folder, "data")

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from studio.app import resolve_game
    from studio.model.play.session import Session
    from studio.model.workspace import Workspace
    from studio.qt.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    rom, state = resolve_game(None, None)
    window = MainWindow(Workspace(Session(rom, state)))
    window.show()
    if args.memory_tools:
        from PySide6.QtCore import QItemSelectionModel

        window.ram_dock.show()
        window.variables_dock.setFloating(True)  # out of the tabs, so the plots and the search both show
        window.variables_dock.show()
        window.search_dock.show()
        window.search_dock.raise_()
        window.search_panel.book.create("bench")  # a full candidate table to keep live
        panel = window.variables_panel
        for row, name in enumerate(panel.model.names):
            if name in ("score", "x", "timer"):
                panel.table.selectionModel().select(
                    panel.model.index(row, 0),
                    QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
                )
        print("variables plotted:", panel.selected_names())
    window.session.set_buttons(0, 1 | 1 << 7)  # hold B and RIGHT: the game has work to do
    durations: list[float] = []  # ticks that emulated at least one frame
    tick = window.tick

    def timed_tick() -> None:
        before = window.session.frame
        start = time.perf_counter()
        tick()
        app.processEvents()  # include the paint of the newest frame
        if window.session.frame != before:
            durations.append(time.perf_counter() - start)

    window.timer.timeout.disconnect()
    window.timer.timeout.connect(timed_tick)
    fps = window.session.emulator.get_screen_rate()
    start_frame = window.session.frame
    started = time.perf_counter()
    QTimer.singleShot(int(args.seconds * 1000), app.quit)
    app.exec()
    elapsed = time.perf_counter() - started
    frames = window.session.frame - start_frame
    expected = elapsed * fps
    ms = sorted(d * 1000 for d in durations)
    p99 = ms[int(len(ms) * 0.99) - 1]
    print(f"{len(ms)} frame ticks over {elapsed:.1f} s: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, "
          f"max {ms[-1]:.2f} ms (target p99 <= 8 ms)")
    print(f"frames emulated {frames}, expected {expected:.0f}, dropped {max(0, round(expected - frames))}")
    window.close()


if __name__ == "__main__":
    main()
