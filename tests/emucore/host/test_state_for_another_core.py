"""A state rejected by a core other than the one stable-retro runs the system with says which core the state is
for and how to get it (the NES demo's Start.state is fceumm's; Debian's nestopia rejects it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import emucore
from emucore.errors import StateError
from emucore.host.corefinder import find_library
from emucore.paths import integrations_dir

pytestmark = pytest.mark.skipif(not find_library("nestopia") or not find_library("fceumm"),
                                reason="needs the nestopia core (apt-get install libretro-nestopia) and fceumm")

REJECTED = "the nestopia core rejected it (another core or version, or corrupt); Nes states (the integrations' " \
           "among them) are made for fceumm, stable-retro's core"


def test_a_chosen_other_core_is_told_to_leave_the_core_unchosen():
    with pytest.raises(StateError) as caught:
        emucore.make("StudioDemo-Nes", core="nestopia")
    assert str(caught.value).endswith(
        f"Start.state: {REJECTED}, which is installed: leave the core unchosen (core=None) to run fceumm")


def test_without_stable_retro_the_fallback_core_names_the_cores_extra():
    code = """
        import sys
        sys.modules["stable_retro"] = None  # stable-retro (the cores extra) not installed: Debian's nestopia runs
        import emucore
        try:
            emucore.make("StudioDemo-Nes")
        except emucore.errors.StateError as exc:
            print(exc)
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(
        f"Start.state: {REJECTED}, not installed here (so nestopia runs): "
        "pip install 'retro-integration-studio[cores]'")


def test_the_core_states_are_made_for_says_nothing_more():
    rom = integrations_dir() / "StudioDemo-Nes" / "rom.nes"
    with pytest.raises(StateError) as caught, emucore.Emulator(rom) as emu:
        emu.set_state(b"FCS" + bytes(40))
    assert str(caught.value) == "state: truncated: 43 bytes, the fceumm core's states for this game have 13321"
