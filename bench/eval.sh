#!/usr/bin/env bash
# bench/eval.sh [--full] -- relevance on CACM and SciFact in one command,
# from a clean checkout: installs what is missing and builds (./dev.sh
# build), then runs bench/eval.py, which indexes both collections from
# ../shared/eval, runs their queries and prints the tables (defaults, the
# best sweep point, --expand, the author queries, the k1 x b and
# field-boost sweeps).  About 4 minutes on 2 cores.
#
# --full adds the feedback sweep: about 10 minutes.  The output is also
# written to build/eval.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./dev.sh build >&2
args=()
if [ "${1:-}" = "--full" ]; then
    args+=(--full)
fi
python3 bench/eval.py --paperdex build/paperdex --shared "${PDX_SHARED:-../shared}" \
    "${args[@]}" | tee build/eval.md
