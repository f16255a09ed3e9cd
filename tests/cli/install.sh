#!/usr/bin/env bash
# install.sh BUILDDIR SRCDIR [EXTRA_CFLAGS] -- `cmake --install` into a
# scratch prefix, then build docs/example.c against the installed header
# and library with pkg-config, twice (shared, and static with
# --static), and run both against an index made by the installed CLI;
# then build docs/embed.c the same way and run it (tests/cli/embed.py).
set -u
B=$1 SRC=$2 EXTRA=${3:-}
T=$(mktemp -d /tmp/pdx-install-XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
step() { if "${@:2}"; then pass=$((pass + 1)); echo "ok   $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi; }

step "cmake --install" cmake --install "$B" --prefix "$T/prefix"
pc=$(dirname "$(find "$T/prefix" -name paperdex.pc | head -1)")
export PKG_CONFIG_PATH=$pc
step "header installed" test -f "$T/prefix/include/paperdex.h"
step "pkg-config knows paperdex" pkg-config --exists paperdex
step "installed OAI-PMH harvester runs" sh -c '"$1" --help | grep -q resumptionToken' sh "$T/prefix/bin/paperdex-oai-harvest"
step "installed CLI indexes" "$T/prefix/bin/paperdex" index --quiet --db "$T/ix" "$SRC"/corpus/samples/papers.jsonl
# shellcheck disable=SC2046,SC2086
step "example builds against the shared library" cc $EXTRA "$SRC/docs/example.c" \
    $(pkg-config --cflags --libs paperdex) -Wl,-rpath,"$(pkg-config --variable=libdir paperdex)" -o "$T/ex"
# shellcheck disable=SC2046,SC2086
step "example builds against the static library" cc $EXTRA "$SRC/docs/example.c" \
    $(pkg-config --cflags paperdex) "$(pkg-config --variable=libdir paperdex)/libpaperdex.a" \
    $(pkg-config --static --libs paperdex | sed 's/-lpaperdex//') -o "$T/ex-static"
for e in ex ex-static; do
    out=$("$T/$e" "$T/ix" "bird song" 2>&1)
    step "$e finds works" grep -q 'Bird Song' <<<"$out"
done
# The long-running embedder, built the same way, and run through its paces.
# shellcheck disable=SC2046,SC2086
step "embedder builds against the installed library" cc $EXTRA "$SRC/docs/embed.c" \
    $(pkg-config --cflags --libs paperdex) -pthread \
    -Wl,-rpath,"$(pkg-config --variable=libdir paperdex)" -o "$T/embed"
step "the API tour builds against the installed library" cc $EXTRA -std=c99 "$SRC/tests/header/api_tour.c" \
    $(pkg-config --cflags --libs paperdex) -Wl,-rpath,"$(pkg-config --variable=libdir paperdex)" -o "$T/tour"
step "every public function through the installed library" "$T/tour" "$SRC/corpus/samples" "$T/tour-work"
step "man page installed" test -s "$T/prefix/share/man/man1/paperdex.1"
step "bash completion installed" test -s "$T/prefix/share/bash-completion/completions/paperdex"
step "zsh completion installed" test -s "$T/prefix/share/zsh/vendor-completions/_paperdex"
step "the installed CLI finds its library" sh -c '"$1" --version | grep -q "^paperdex "' sh "$T/prefix/bin/paperdex"
step "embedder syncs and searches" python3 "$SRC/tests/cli/embed.py" "$T/embed" \
    "$T/prefix/bin/paperdex" "$SRC"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
