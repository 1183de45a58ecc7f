#!/usr/bin/env bash
# CI's second Python: emucore's tests (tests/emucore, tests/homebrew), on every core, on the
# newest CPython found on PATH or under pyenv, in .venv-newest. PyTorch, Stable-Baselines3 and Ray are left out
# (no CPU build of PyTorch for that Python lies on this machine); the tests that need them skip. Arguments go to
# pytest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$ROOT/scripts/newest_python.sh"
apt_install python3-venv cc65 binutils-m68k-linux-gnu libretro-nestopia "${QT_PACKAGES[@]}"
NEWEST="$(newest_python)"
if [ -z "$NEWEST" ] || [ "$("$NEWEST" -c 'import sys; print(sys.version_info[:2] > (3, 11))')" != True ]; then
    step "no CPython newer than 3.11 on this machine: nothing to do"
    exit 0
fi
VENV="$ROOT/.venv-newest"
if [ -x "$VENV/bin/python" ] && [ "$("$VENV/bin/python" -c 'import sys; print(sys.version_info[:2])')" != \
    "$("$NEWEST" -c 'import sys; print(sys.version_info[:2])')" ]; then
    rm -rf "$VENV"  # made by an older Python
fi
[ -x "$VENV/bin/python" ] || quietly "$NEWEST" -m venv "$VENV"
setup_venv "studio,env,cores,video,test"
cd "$ROOT"
step "tests on $("$VENV/bin/python" --version)"
QT_QPA_PLATFORM=offscreen "$VENV/bin/python" -m pytest -n auto -m "not ray" tests/emucore tests/homebrew "$@"
