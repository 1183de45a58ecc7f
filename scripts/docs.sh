#!/usr/bin/env bash
# The documentation site (mkdocs.yml, docs/): `bash scripts/docs.sh` builds it into site/ with --strict (a broken
# link, a missing page or an API reference that does not resolve fails the build); `bash scripts/docs.sh serve`
# serves it at http://127.0.0.1:8000 with live reload. Installs the docs extra into .venv first.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup_venv "docs"
cd "$ROOT"
# the plugins print a long notice about MkDocs 2 on every build: the extra pins MkDocs below 2
export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
case "${1:-build}" in
    build)
        step "the documentation site, built with --strict into site/"
        "$VENV/bin/mkdocs" build --strict --quiet
        ;;
    serve)
        "$VENV/bin/mkdocs" serve --strict
        ;;
    *)
        echo "usage: scripts/docs.sh [build|serve]" >&2
        exit 2
        ;;
esac
