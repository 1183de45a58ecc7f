#!/usr/bin/env bash
# Installs what the studio needs (once: pip is skipped while nothing that affects the install changed) and opens
# it on the bundled demo game (arguments go to retro-studio).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
apt_install python3-venv "${QT_PACKAGES[@]}"
setup_venv "studio,env,cores,video"
step "starting retro-studio"
exec "$VENV/bin/retro-studio" "$@"
