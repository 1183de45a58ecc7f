"""The studio walkthrough's pictures (docs/studio.md), taken at build time by the studio itself: for each step,
``retro-studio --screenshot PNG --show STEP`` on the NES demo game, headless (Qt's offscreen platform), written into
the built site as ``images/studio/STEP.png`` by mkdocs-gen-files. The studio's settings and data folders are
temporary ones, so what the builder has done in their own studio never shows in the pictures."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mkdocs_gen_files

from studio.app import SHOW_STEPS

GAME = "StudioDemo-Nes"
SIZE = "1280x800"
TIMEOUT_S = 120  # one step takes about 2 s


def screenshot(step: str, folder: Path) -> bytes:
    """The picture of ``step``, taken by a ``retro-studio`` process of its own."""
    out = folder / f"{step}.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RETRO_STUDIO_DATA": str(folder / "data"),
           "RETRO_STUDIO_CONFIG": str(folder / "config")}
    command = [sys.executable, "-m", "studio.app", "--screenshot", str(out), "--show", step, "--size", SIZE, GAME]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if result.returncode != 0 or not out.is_file():
        raise RuntimeError(f"retro-studio --show {step} failed ({result.returncode}): {result.stderr.strip()}")
    return out.read_bytes()


started = time.perf_counter()
with tempfile.TemporaryDirectory(prefix="studio-screenshots-") as scratch:
    for step in SHOW_STEPS:
        picture = screenshot(step, Path(scratch))
        with mkdocs_gen_files.open(f"images/studio/{step}.png", "wb") as published:
            published.write(picture)
print(f"studio screenshots: {len(SHOW_STEPS)} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
