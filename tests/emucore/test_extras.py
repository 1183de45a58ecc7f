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


def _run_cli(args: list[str], blocked: str) -> subprocess.CompletedProcess[str]:
    """``emucore ARGS`` in a fresh interpreter where ``blocked`` cannot be imported."""
    return _run(f"""
        import sys
        sys.modules[{blocked!r}] = None
        from emucore.cli import main
        sys.exit(main({args!r}))
    """)


def test_playback_without_gymnasium_is_one_line_naming_the_env_extra(tmp_path):
    from tests.emucore.movie import record_with_env

    movie = record_with_env("StudioDemo-Nes", tmp_path, 30, keep_frames=False).path
    result = _run_cli(["playback", str(movie)], "gymnasium")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("emucore: emucore playback needs Gymnasium, which is not installed: "
                             "pip install 'retro-integration-studio[env]'\n")


def test_playback_video_without_pyav_names_the_video_extra(tmp_path):
    from tests.emucore.movie import record_with_env

    movie = record_with_env("StudioDemo-Nes", tmp_path, 30, keep_frames=False).path
    result = _run_cli(["playback", str(movie), "--video", str(tmp_path / "out.mp4"), "--no-progress"], "av")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == (f"emucore playback: video {tmp_path / 'out.mp4'}: video export needs PyAV, which is not "
                             "installed: pip install 'retro-integration-studio[video]'\n")


def test_sb3_without_gymnasium_names_the_rl_extra():
    result = _run("""
        import sys
        sys.modules["gymnasium"] = None
        try:
            import emucore.sb3
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("MissingExtraError emucore.sb3 (RetroVecEnv) needs Gymnasium, which is not "
                                     "installed: pip install 'retro-integration-studio[rl]'")


def test_each_feature_extra_brings_the_env_and_cores_it_runs_on():
    import tomllib
    from pathlib import Path

    extras = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for name in ("video", "rl", "ray", "studio"):  # playback --video, SB3 training, RLlib workers, the studio
        assert "retro-integration-studio[env,cores]" in extras[name], name
    assert any(need.startswith("torch") for need in extras["ray"])  # RLlib's PPO builds torch models
