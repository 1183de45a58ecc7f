"""An install without an optional extra names the extra to install, not a bare ModuleNotFoundError.

Each case runs in a fresh interpreter where the missing package is made unimportable
(``sys.modules[name] = None`` makes ``import name`` raise ModuleNotFoundError, as an absent package does).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from emucore.errors import MissingExtraError


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def test_missing_extra_error_is_a_module_not_found_error_naming_the_extra():
    error = MissingExtraError("the studio", "PySide6", "studio")
    assert isinstance(error, ModuleNotFoundError) and error.name == "PySide6" and error.extra == "studio"
    assert str(error) == (
        "the studio needs PySide6, which is not installed: pip install 'retro-integration-studio[studio]'"
    )


def test_make_without_gymnasium_names_the_env_extra():
    result = _run("""
        import sys
        sys.modules["gymnasium"] = None
        import emucore
        emulator = emucore.Emulator  # the host works without Gymnasium
        try:
            emucore.make("StudioDemo-Nes")
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "MissingExtraError emucore's Gymnasium env (emucore.make, RetroEnv) needs Gymnasium, which is not installed: "
        "pip install 'retro-integration-studio[env]'"
    )


def test_lua_without_lupa_names_the_env_extra():
    result = _run("""
        import sys
        for name in ("lupa", "lupa.luajit21", "lupa.lua51"):
            sys.modules[name] = None
        try:
            import emucore.lua
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc)
    """)
    assert result.returncode == 0, result.stderr
    assert "MissingExtraError Lua scenarios (emucore.lua) needs lupa" in result.stdout
    assert "pip install 'retro-integration-studio[env]'" in result.stdout
