#!/usr/bin/env bash
# The tests on the newest Gymnasium. scripts/test.sh installs the `ray` extra, and RLlib pins an older
# Gymnasium (1.2.2 with Ray 2.60); this runs the same tests, Ray's aside, in a second virtual environment
# without Ray, where pip takes the newest Gymnasium. Arguments go to pytest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
apt_install python3-venv cc65 binutils-m68k-linux-gnu libretro-nestopia xvfb "${QT_PACKAGES[@]}"
VENV="$ROOT/.venv-gymnasium-latest"
if ! "$VENV/bin/python" -c "import torch" 2>/dev/null; then
    python3 -m venv "$VENV" 2>/dev/null || true
    "$VENV/bin/python" -m pip install -q torch==2.13.0  # the CPU build; Stable-Baselines3 needs torch
fi
setup_venv "studio,env,cores,video,rl,test"
"$VENV/bin/python" -m pip install -q --upgrade gymnasium
cd "$ROOT"
"$VENV/bin/python" -c "import gymnasium; print('== tests on gymnasium', gymnasium.__version__)"
if "$VENV/bin/python" -c "import ray" 2>/dev/null; then
    echo "Ray is installed in $VENV: it pins Gymnasium, so this would not test the newest" >&2
    exit 1
fi
QT_QPA_PLATFORM=offscreen "$VENV/bin/python" -m pytest -m "not ray" "$@"
