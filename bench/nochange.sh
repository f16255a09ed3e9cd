#!/usr/bin/env bash
# bench/nochange.sh [PAPERDEX] -- what a cron re-run costs when nothing
# changed: it should be a stat per source and a fingerprint lookup, and
# finish well under a second.  Prints the figures; asserts nothing (times
# are for reading, not for tests).
#
#   1. the 101k arXiv snapshot plus the five seed pages (../shared);
#   2. a directory of 1,000 small JSONL files (made here, 5 records each).
#
# Each index is built once (the build time is printed too), then re-run
# five times; the best and median of the re-runs are shown, with the
# re-run's own summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
PDX=${1:-build/paperdex}
SHARED=${PDX_SHARED:-../shared}
T=$(mktemp -d /tmp/pdx-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT

secs() { local s e; s=$(date +%s.%N); "$@" >"$T/last.out" 2>&1; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'; }

rerun() { # rerun LABEL ARGS...
    local label=$1; shift
    local times=() t
    for _ in 1 2 3 4 5; do
        t=$(secs "$PDX" index "$@")
        times+=("$t")
    done
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    printf '%-42s best %6.3f s  median %6.3f s\n' "$label" \
        "$(sed -n 1p <<<"$sorted")" "$(sed -n 3p <<<"$sorted")"
    printf '    %s\n' "$(cat "$T/last.out")"
}

echo "paperdex no-change re-run, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

mkdir -p "$T/small"
for i in $(seq -w 1 1000); do
    for k in 1 2 3 4 5; do
        printf '{"id":"s%s-%d","title":"Small source %s record %d","abstract":"Tiny abstract %d of file %s.","year":%d}\n' \
            "$i" "$k" "$i" "$k" "$k" "$i" "$((2000 + 10#$i % 25))"
    done >"$T/small/f$i.jsonl"
done
t=$(secs "$PDX" index --db "$T/ix-small" "$T/small")
printf '%-42s %8.1f s  (%s)\n' "build: 1,000 small files" "$t" "$(cat "$T/last.out")"
rerun "re-run: 1,000 small files, no change" --db "$T/ix-small" "$T/small"

if [ -f "$SHARED/data/arxiv-101k.jsonl.gz" ]; then
    t=$(secs "$PDX" index --db "$T/ix-arxiv" "$SHARED/data/arxiv-101k.jsonl.gz" "$SHARED/seeds")
    printf '%-42s %8.1f s  (%s)\n' "build: arXiv 101k + 5 seed pages" "$t" "$(cat "$T/last.out")"
    rerun "re-run: arXiv 101k + seeds, no change" --db "$T/ix-arxiv" "$SHARED/data/arxiv-101k.jsonl.gz" "$SHARED/seeds"
else
    echo "(no $SHARED/data/arxiv-101k.jsonl.gz: the arXiv case is skipped)"
fi
