#!/usr/bin/env bash
# Installs everything the tests need (ROM toolchains, Debian's nestopia core, Qt's libraries),
# then runs the checks and the test suite. Arguments go to pytest.
#
# --fast (first): the inner loop. Ruff, then the tests but the slow ones (-m "not slow and not ray": stable-retro
# parity runs, long replays, fuzzing, training, the Ray cluster), with and without Qt as below. Once .venv is set
# up it installs nothing (pip still runs when the C host or the project's metadata changed: the tests need that
# build). The ROM rebuild checks, the import contracts, mypy and the README's and the docs' examples are left to
# the full run.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
FAST=()
if [ "${1:-}" = "--fast" ]; then
    shift
    FAST=(-m "not slow and not ray")
fi
if [ "${#FAST[@]}" -eq 0 ] || [ ! -f "$VENV/.install-stamp" ]; then
    apt_install python3-venv cc65 binutils-m68k-linux-gnu libretro-nestopia xvfb "${QT_PACKAGES[@]}"
    if ! "$VENV/bin/python" -c "import torch" 2>/dev/null; then
        step "installing PyTorch (the CPU build; Stable-Baselines3 needs it)"
        [ -x "$VENV/bin/python" ] || quietly python3 -m venv "$VENV"
        quietly "$VENV/bin/python" -m pip install torch==2.13.0
    fi
fi
setup_venv "studio,env,cores,video,rl,ray,test,docs"
cd "$ROOT"
if [ "${#FAST[@]}" -eq 0 ]; then
    step "homebrew ROMs rebuild byte-identically"
    quietly "$VENV/bin/python" homebrew/nes/build.py --check
    quietly "$VENV/bin/python" homebrew/genesis/build.py --check
fi
step "ruff"
quietly "$VENV/bin/ruff" check emucore emucore_gymnasium.py setup.py conftest.py studio tests bench examples scripts homebrew/make_start_states.py
if [ "${#FAST[@]}" -eq 0 ]; then
    step "import contracts (emucore's packages in their layers, the studio's app over its views over its model)"
    quietly "$VENV/bin/lint-imports"
    step "mypy (mypy.ini: emucore, the studio and the Gymnasium hook, no errors allowed)"
    quietly "$VENV/bin/mypy"
fi
# Both runs use every core (pytest-xdist); the Ray tests share one worker and its cluster.
PARALLEL=(-n auto --dist loadgroup "${FAST[@]}")
export QT_QPA_PLATFORM=offscreen
# A page's code blocks share its namespace and run in order: the README's and the docs' examples run on one worker.
SERIAL=(-p no:xdist)
for arg in "$@"; do
    if [[ "$arg" != -* ]] && [ -e "${arg%%::*}" ]; then  # tests named: run just those, Qt as usual
        step "tests: $*"
        if [[ "$*" == *README.md* || "$*" == *docs* ]]; then PARALLEL=("${SERIAL[@]}"); fi
        "$VENV/bin/python" -m pytest "${PARALLEL[@]}" "$@"
        exit
    fi
done
step "tests of everything but the studio's views (emucore, the studio's model, ...), with Qt unimportable"
"$VENV/bin/python" -m pytest -p no:pytest-qt -p tests.without_qt "${PARALLEL[@]}" tests --ignore=tests/studio/qt "$@"
if [ "${#FAST[@]}" -eq 0 ]; then
    step "the README's and the docs' examples, each page's blocks in order, with Qt unimportable"
    "$VENV/bin/python" -m pytest -p no:pytest-qt -p tests.without_qt "${SERIAL[@]}" README.md docs "$@"
fi
step "tests of the studio's views (Qt)"
"$VENV/bin/python" -m pytest "${PARALLEL[@]}" tests/studio/qt "$@"
