#!/usr/bin/env bash
# dev.sh -- paperdex's one entry point for people and CI on Debian 12.
#
#   ./dev.sh demo    install what is missing, build, index the sample corpus
#                    in corpus/samples, and run a few example searches
#   ./dev.sh test    install what is missing, then build and run the whole
#                    CTest suite twice: a normal build with warnings as
#                    errors, and an ASan+UBSan build (also -Werror) that
#                    links each layer alone and inflates with zlib
#   ./dev.sh deps    only install the Debian packages paperdex needs
#   ./dev.sh build   install what is missing and build build/
#   ./dev.sh bench   the same, with the benchmark programs (bench/README.md)
#   ./dev.sh fuzz [SECONDS]   with clang: run every libFuzzer target
#
# Builds go to build/ (normal) and build-asan/ (sanitizers).  Packages are
# installed with apt-get, through sudo when not root.
set -euo pipefail
cd "$(dirname "$0")"

PKGS=(build-essential cmake pkg-config python3 gzip curl
      libxapian-dev xapian-tools libstemmer-dev libcjson-dev
      libutf8proc-dev zlib1g-dev libzstd-dev libxxhash-dev libisal-dev
      libjemalloc-dev
      libexpat1-dev
      libsqlite3-dev libmicrohttpd-dev scowl
      chromium chromium-driver)
JOBS=$(nproc 2>/dev/null || echo 2)

need_pkgs() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
            grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "dev.sh: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() { # build DIR [cmake options...]
    local dir=$1; shift
    cmake -S . -B "$dir" -DPDX_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j "$JOBS"
}

case "${1:-}" in
deps)
    need_pkgs "${PKGS[@]}"
    ;;
build)
    need_pkgs "${PKGS[@]}"
    build build
    ;;
demo)
    need_pkgs "${PKGS[@]}"
    build build
    rm -rf build/demo-index
    set -x
    build/paperdex index --db build/demo-index corpus/samples/*
    build/paperdex stats --db build/demo-index
    build/paperdex search --db build/demo-index --limit 3 glacier mapping
    build/paperdex search --db build/demo-index --limit 3 --author "Løvås" --year 2015..
    build/paperdex search --db build/demo-index --limit 2 --category cs --format json '"protein folding"'
    build/paperdex show --db build/demo-index sample:047
    build/paperdex search --db build/demo-index --limit 3 --facets subject heat stress
    build/paperdex show --db build/demo-index pmid:90000001
    ;;
test)
    need_pkgs "${PKGS[@]}"
    build build
    (cd build && ctest --output-on-failure -j "$JOBS")
    # The sanitizer build also links each layer alone with --no-undefined
    # (a call upward or sideways fails to link) and inflates .gz with
    # zlib instead of ISA-L, so that the suite covers both inflaters.
    # It keeps its asserts (Debug) and is compiled with -O1, as the
    # AddressSanitizer documentation advises: its suite takes about 0.6
    # of the time it takes at -O0.
    build build-asan -DPDX_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        -DPDX_LAYER_CHECK=ON -DPDX_ISAL=OFF
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --output-on-failure -j "$JOBS")
    ;;
bench)
    need_pkgs "${PKGS[@]}" wrk  # bench/serve_load.py's load generator
    build build -DPDX_BENCH=ON
    ;;
fuzz)
    need_pkgs "${PKGS[@]}" clang libclang-rt-14-dev
    # Only the fuzz targets: the rest of a clang sanitizer build (the
    # shared library, C programs linked to it) needs runtimes that clang
    # leaves to executables; the gcc builds test those.
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -DPDX_WERROR=ON -DPDX_FUZZ=ON >/dev/null
    # one target for each seed directory (PDX_FUZZ_TARGETS in tests/CMakeLists.txt)
    targets=()
    for d in tests/fuzz/seeds/*/; do targets+=("fuzz_$(basename "$d")"); done
    cmake --build build-fuzz -j "$JOBS" --target "${targets[@]}"
    secs=${2:-60}
    for t in build-fuzz/tests/fuzz_*; do
        [ -x "$t" ] || continue
        name=$(basename "$t"); work=build-fuzz/corpus-$name
        mkdir -p "$work"
        echo "== $name for ${secs}s"
        "$t" -max_total_time="$secs" -timeout=10 "$work" "tests/fuzz/seeds/${name#fuzz_}"
    done
    ;;
*)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
