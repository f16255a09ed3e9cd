#!/bin/bash
# layers.sh SRC -- the tree's dependencies run one way:
#   commands -> searcher/, indexer/ -> corpus/ -> common/
# No file includes a header of a higher layer, and the two sides do not
# include each other.  The program sits above both sides: its table and
# helpers (searcher/main.c, cli.c, cli.h) live with the read side's
# commands, and the write side's commands (indexer/cmd_*.c) may include
# ../searcher/cli.h and nothing else of searcher/.  (The build enforces
# the library's layers too: -DPDX_LAYER_CHECK=ON links each alone.)
src=${1:?usage: layers.sh SRC}
cd "$src" || exit 2
fail=0
check() { # folder, forbidden include pattern, why
    local hits
    hits=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"$2" \
        "$1"/*.c "$1"/*.h "$1"/*.cc "$1"/*.hh 2>/dev/null)
    if [ -n "$hits" ]; then
        echo "FAIL $1/ includes $3:"
        echo "$hits"
        fail=1
    fi
}
check common '\.\./' "another folder (common/ is the bottom layer)"
check corpus '\.\./(indexer|searcher)/' "a higher layer"
# indexer/: nothing of searcher/ but cli.h, and that only in a command
hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"\.\./searcher/' \
    indexer/*.c indexer/*.h indexer/*.cc indexer/*.hh 2>/dev/null |
    grep -vE '^indexer/cmd_[a-z_]+\.c:[0-9]+:#include "\.\./searcher/cli\.h"$')
if [ -n "$hits" ]; then
    echo "FAIL indexer/ includes the read side (only its commands may, and"
    echo "only ../searcher/cli.h):"
    echo "$hits"
    fail=1
fi
check searcher '\.\./indexer/' "the write side"
[ "$fail" = 0 ] && echo "ok: includes run one way (commands -> indexer/searcher -> corpus -> common)"
exit $fail
