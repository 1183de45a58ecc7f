#!/usr/bin/env bash
# A long run of the fuzz suite (tests/fuzz): scripts/fuzz.sh --cases N [pytest arguments].
# The case budget is shared by the parsers by weight; each parser's outcomes are printed at the end,
# and the input of each failing case is kept under fuzz-failures/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CASES=10000
if [ "${1:-}" = "--cases" ]; then CASES="$2"; shift 2; fi
REPORT="$(mktemp --suffix=.json)"
trap 'rm -f "$REPORT"' EXIT
cd "$ROOT"
status=0
FUZZ_CASES="$CASES" FUZZ_REPORT="$REPORT" FUZZ_FAILURES="$ROOT/fuzz-failures" QT_QPA_PLATFORM=offscreen \
    "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider tests/fuzz "$@" || status=$?
"$ROOT/.venv/bin/python" - "$REPORT" <<'PY'
import json, sys
counts = json.load(open(sys.argv[1]))
kinds = ["ok", "error", "unnamed", "raw", "crash", "hang"]
print(f"{'parser':34}" + "".join(f"{k:>8}" for k in kinds) + f"{'cases':>8}")
for parser, outcome in counts.items():
    print(f"{parser:34}" + "".join(f"{outcome.get(k, 0):>8}" for k in kinds) + f"{sum(outcome.values()):>8}")
total = {k: sum(o.get(k, 0) for o in counts.values()) for k in kinds}
print(f"{'all':34}" + "".join(f"{total[k]:>8}" for k in kinds) + f"{sum(total.values()):>8}")
PY
exit $status
