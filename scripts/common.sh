# Shared by scripts/studio.sh and scripts/test.sh: system packages and the .venv, idempotently.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs the Debian packages given that are not installed yet.
apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "installing Debian packages: ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# Qt's runtime libraries for PySide6 (xcb and offscreen platforms).
QT_PACKAGES=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libxcb-cursor0
    libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0
    libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0 libxrender1 libxi6 libglib2.0-0)

# A .venv with the project installed (editable) and the extras given, e.g. "studio,test".
setup_venv() {
    local extras="$1"
    apt_install gcc g++  # the native host: host.c, and guard.cpp, which catches a core's C++ exceptions
    if [ ! -x "$VENV/bin/python" ]; then
        python3 -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install -q --upgrade pip setuptools wheel cffi
    "$VENV/bin/python" -m pip install -q -e "$ROOT[$extras]"
}
