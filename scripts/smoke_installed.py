"""Smoke test of an installed wheel, run by scripts/check_wheel.sh from a folder outside the checkout.

``python smoke_installed.py STAGE``: ``core`` (the wheel alone), ``env`` (with the env extra: no Qt),
``cores`` (env and cores: the demo games and stable-retro's Airstriker run), ``studio`` (the studio extra alone).
Each check prints one line; the first failure raises.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import emucore

BIN = Path(sysconfig.get_path("scripts"))
DEMOS = ("StudioDemo-Genesis", "StudioDemo-Nes")


def run(*command: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def check(what: str, ok: bool, detail: object = "") -> None:
    if not ok:
        raise SystemExit(f"FAILED: {what} {detail}")
    print(f"ok: {what}")


def core() -> None:
    check("emucore is imported from the install, not a checkout", "site-packages" in emucore.__file__,
          emucore.__file__)
    from emucore.paths import descriptors_dir, integrations_dir
    from emucore.systems import systems

    check("the system table ships in the package", len(systems()) == 16, descriptors_dir())
    check("the demo integrations ship in the package",
          all((integrations_dir() / demo / "rom.sha").is_file() for demo in DEMOS), integrations_dir())
    version = run(str(BIN / "emucore"), "--version").strip()
    check("emucore --version", version == f"emucore {emucore.__version__}", version)
    check("emucore cores", "systems have a core" in run(str(BIN / "emucore"), "cores"))
    try:
        emucore.make("StudioDemo-Nes")
    except ModuleNotFoundError as exc:
        check("make() without the env extra names it", "retro-integration-studio[env]" in str(exc), exc)
    else:
        check("make() without the env extra fails", False)


def env() -> None:
    check("the env extra pulls no Qt", importlib.util.find_spec("PySide6") is None)
    import emucore.env  # noqa: F401  (Gymnasium and lupa are there)
    import emucore.lua  # noqa: F401

    check("the env extra brings Gymnasium and lupa", True)


def cores() -> None:
    import gymnasium
    import numpy as np

    for game in (*DEMOS, "Airstriker-Genesis-v0"):
        env = emucore.make(game)
        observation, _ = env.reset(seed=0)
        for _ in range(30):
            observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        env.close()
        check(f"make({game!r}) runs", observation.dtype == np.uint8 and observation.ndim == 3, observation.shape)
    env = gymnasium.make("emucore/StudioDemo-Nes")  # registered by the installed .pth hook
    env.reset(seed=0)
    env.close()
    check("gymnasium.make('emucore/StudioDemo-Nes')", True)


def studio() -> None:
    version = run(str(BIN / "retro-studio"), "--version").strip()
    check("retro-studio --version", version == f"retro-studio {emucore.__version__}", version)
    with tempfile.TemporaryDirectory() as folder:
        shot = Path(folder) / "studio.png"
        quiet = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
        quiet.update(RETRO_STUDIO_DATA=str(Path(folder) / "data"), RETRO_STUDIO_CONFIG=str(Path(folder) / "config"))
        run(str(BIN / "retro-studio"), "--screenshot", str(shot), "--frames", "60", env=quiet)
        check("retro-studio --screenshot opens the demo", shot.read_bytes()[:4] == b"\x89PNG", shot)


if __name__ == "__main__":
    {"core": core, "env": env, "cores": cores, "studio": studio}[sys.argv[1]]()
