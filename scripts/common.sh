# Shared by scripts/studio.sh, scripts/test.sh and scripts/check_wheel.sh: system packages and the .venv,
# idempotently, one line of progress per step (a step's own output is shown only when it fails).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# One line of progress.
step() {
    echo "== $*"
}

# Runs a command with its output kept aside: shown only if the command fails.
quietly() {
    local log status=0
    log="$(mktemp)"
    "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$log" >&2
        echo "failed ($status): $*" >&2
    fi
    rm -f "$log"
    return "$status"
}

# Installs the Debian packages given that are not installed yet.
apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        step "installing Debian packages: ${missing[*]}"
        quietly as_root apt-get update -qq
        quietly as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# Qt's runtime libraries for PySide6 (xcb and offscreen platforms).
QT_PACKAGES=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libxcb-cursor0
    libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0
    libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0 libxrender1 libxi6 libglib2.0-0)

# What an install of the project depends on: its metadata, its build script and the C it compiles (with the
# operations' C, from emucore/operations.py). Other Python sources are not in it: the install is editable, so an
# edit to them needs no reinstall.
install_inputs_hash() {
    (cd "$ROOT" && cat pyproject.toml setup.py emucore-gymnasium.pth emucore/libretro/_build.py emucore/operations.py \
        emucore/libretro/*.c emucore/libretro/*.cpp emucore/libretro/*.h) | sha256sum | cut -d' ' -f1
}

# A .venv with the project installed (editable) and the extras given, e.g. "studio,test". pip runs only when
# the install's inputs changed since the last install into this .venv, or an extra asked for is not in it yet.
setup_venv() {
    local extras="$1" stamp="$VENV/.install-stamp" hash installed="" extra missing=""
    apt_install gcc g++  # the native host: host.c, and guard.cpp, which catches a core's C++ exceptions
    hash="$(install_inputs_hash)"
    if [ -x "$VENV/bin/python" ] && [ -f "$stamp" ]; then
        installed="$(sed -n 2p "$stamp")"
        for extra in ${extras//,/ }; do
            [[ ",$installed," == *",$extra,"* ]] || missing="$missing $extra"
        done
        if [ -z "$missing" ] && [ "$(head -n1 "$stamp")" = "$hash" ] \
            && "$VENV/bin/python" -c "import emucore.libretro._native" 2>/dev/null; then
            step "the project is installed in .venv and unchanged: pip skipped"
            return
        fi
        extras="$installed,$extras"  # keep what the other script installed
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        step "creating the virtual environment .venv"
        quietly python3 -m venv "$VENV"
    fi
    extras="$(echo "$extras" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -)"
    step "installing the project (editable, compiling its C host) with the extras $extras"
    rm -f "$stamp"
    quietly "$VENV/bin/python" -m pip install --upgrade pip setuptools wheel cffi
    quietly "$VENV/bin/python" -m pip install -e "$ROOT[$extras]"
    printf '%s\n%s\n' "$hash" "$extras" > "$stamp"
}
