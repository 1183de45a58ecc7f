#!/usr/bin/env bash
# CI: the release build (scripts/build_dist.sh), then its wheel installed as users install it, into fresh
# virtual environments outside the checkout, and smoke-tested there (scripts/smoke_installed.py): the wheel
# alone, with the env extra (no Qt), with env and cores (the demo games and Airstriker run), and the studio
# extra alone (retro-studio opens the demo). On this machine's Python and on the newest CPython found.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$ROOT/scripts/newest_python.sh"
apt_install python3-venv "${QT_PACKAGES[@]}"
bash "$ROOT/scripts/build_dist.sh"
WHEEL="$(ls "$ROOT"/dist/*.whl)"

# The wheel reaches glibc 2.28 systems (RHEL/Rocky/Alma 8, Ubuntu 20.04, Debian 11): build_dist.sh checked its
# symbols (scripts/wheel_glibc.py names any that needs a newer glibc); here, the tag pip reads.
step "the wheel's tag: manylinux_2_28 or older"
TAGS="$(basename "$WHEEL" .whl | rev | cut -d- -f1 | rev)"  # the platform tags, dot-separated
OLDEST="$(tr . '\n' <<< "$TAGS" | sed -n 's/^manylinux_2_\([0-9]*\)_.*/\1/p' | sort -n | head -1)"
if [ -z "$OLDEST" ] || [ "$OLDEST" -gt 28 ]; then
    echo "check_wheel.sh: $(basename "$WHEEL") is tagged $TAGS, not manylinux_2_28 or older:" \
         "pip would refuse it on glibc 2.28 (RHEL 8, Ubuntu 20.04, Debian 11)" >&2
    exit 1
fi
step "the wheel is $TAGS: it installs on glibc 2.$OLDEST and later"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$ROOT/scripts/smoke_installed.py" "$WORK/"
cd "$WORK"  # outside the checkout: nothing of it is importable from here

smoke() {
    local python="$1" label
    label="$("$python" -c 'import platform; print("Python", platform.python_version())')"
    rm -rf "$WORK/venv" "$WORK/venv-studio"
    quietly "$python" -m venv "$WORK/venv"
    step "$label: the wheel alone"
    quietly "$WORK/venv/bin/python" -m pip install "$WHEEL"
    quietly "$WORK/venv/bin/python" smoke_installed.py core
    step "$label: the wheel with [env] (no Qt)"
    quietly "$WORK/venv/bin/python" -m pip install "$WHEEL[env]"
    quietly "$WORK/venv/bin/python" smoke_installed.py env
    step "$label: the wheel with [env,cores]: make() on the demo games and Airstriker"
    quietly "$WORK/venv/bin/python" -m pip install "$WHEEL[env,cores]"
    quietly "$WORK/venv/bin/python" smoke_installed.py cores
    step "$label: the wheel with [studio] alone: retro-studio opens the demo"
    quietly "$python" -m venv "$WORK/venv-studio"
    quietly "$WORK/venv-studio/bin/python" -m pip install "$WHEEL[studio]"
    quietly "$WORK/venv-studio/bin/python" smoke_installed.py studio
}

smoke python3
NEWEST="$(newest_python)"
if [ -n "$NEWEST" ] && [ "$("$NEWEST" -c 'import sys; print(sys.version_info[:2] > (3, 11))')" = True ]; then
    smoke "$NEWEST"
else
    step "no CPython newer than 3.11 on this machine: the wheel was tested on $(python3 --version) only"
fi
step "the wheel installs and runs outside the checkout"
