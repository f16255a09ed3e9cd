#!/bin/bash
# layers.sh SRC -- the tree's dependencies run one way:
#   commands -> searcher/, indexer/ -> corpus/ -> common/
# No file includes a header of a higher layer, and the two sides do not
# include each other.  (common/main.c, the program's top, reaches the
# commands through cli.h's declarations, not through an include.)
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
check indexer '\.\./searcher/' "the read side"
check searcher '\.\./indexer/' "the write side"
[ "$fail" = 0 ] && echo "ok: includes run one way (commands -> indexer/searcher -> corpus -> common)"
exit $fail
