#!/usr/bin/env bash
# golden.sh PAPERDEX SRCDIR -- golden tests of `paperdex search` output
# (and of show, similar and every command's --help).
#
# Each tests/golden/NAME.args holds the arguments of one search over an
# index of corpus/samples (every format paperdex reads), one argument per line (a first line
# "@similar" or "@show" runs that subcommand instead); NAME.out holds its
# expected standard output followed by a line "exit N".  With
# PDX_GOLDEN_UPDATE=1 the .out files are rewritten from what the binary
# prints now (review the diff before committing it).
set -u
# Absolute paths: the cases run from other directories.
PDX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
T=$(mktemp -d /tmp/pdx-golden-XXXXXX)
trap 'rm -rf "$T"' EXIT
# Relative paths, so that the sources the output names are the same in
# every checkout.
(cd "$SRC" && "$PDX" index --db "$T/ix" corpus/samples >/dev/null) || exit 1
# The seed pages too, for the cases that start with "@seeds" (skipped when
# ../shared is not there).
SHARED="$SRC/../shared"
have_seeds=0
if [ -d "$SHARED/seeds" ]; then
    (cd "$SHARED" && "$PDX" index --db "$T/seeds" --page-date 2026-07-01 seeds >/dev/null) && have_seeds=1
fi
pass=0 fail=0
for args in "$SRC"/tests/golden/*.args; do
    name=$(basename "$args" .args)
    mapfile -t argv <"$args"
    cmd=search db=$T/ix # "@seeds": the seed pages' index; "@CMD": another subcommand
    if [ "${argv[0]}" = "@seeds" ]; then
        [ "$have_seeds" = 1 ] || { echo "skip $name (no ../shared/seeds)"; continue; }
        db=$T/seeds
        argv=("${argv[@]:1}")
    fi
    if [ "${argv[0]:0:1}" = "@" ]; then
        cmd=${argv[0]:1}
        argv=("${argv[@]:1}")
    fi
    got=$("$PDX" "$cmd" --db "$db" "${argv[@]}" 2>&1; echo "exit $?")
    want_file="$SRC/tests/golden/$name.out"
    if [ "${PDX_GOLDEN_UPDATE:-}" = 1 ]; then
        printf '%s\n' "$got" >"$want_file"
        echo "updated $name"
        pass=$((pass + 1))
    elif [ -f "$want_file" ] && diff -u "$want_file" <(printf '%s\n' "$got") >"$T/diff"; then
        echo "ok   $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name"
        cat "$T/diff" 2>/dev/null | head -40
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
