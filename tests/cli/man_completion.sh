#!/bin/bash
# man_completion.sh PAPERDEX SRC BUILD -- paperdex(1) is the program's own
# --help texts (every line of each, in order), and renders with man when
# man is installed; the bash completion offers the commands, each
# command's options from its --help, and directories after --db.
set -u
PDX=$1 SRC=$(cd "$2" && pwd) BUILD=$(cd "$3" && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
MAN=$BUILD/paperdex.1
[ -s "$MAN" ] && ok "paperdex.1 built" || bad "no $MAN"
# The page's text: roff escapes undone, lines between .nf and .fi.
page=$(sed -e 's/\\e/\\/g' -e 's/\\-/-/g' -e 's/^\\&//' "$MAN")
for c in "" index search show similar stats compact serve; do
    help=$("$PDX" $c --help)
    if [[ "$page" == *"$help"* ]]; then
        ok "the man page holds 'paperdex $c --help' whole"
    else
        bad "the man page lacks 'paperdex $c --help' as the program prints it"
    fi
done
if command -v man >/dev/null && command -v groff >/dev/null; then
    warn=$(MANWIDTH=100 man -l "$MAN" 2>&1 >/dev/null)
    text=$(MANWIDTH=100 man -l "$MAN" 2>/dev/null | col -b)
    if [ -z "$warn" ] && grep -q 'usage: paperdex search' <<<"$text" &&
        grep -q -- '--dry-run' <<<"$text"; then
        ok "man -l renders it, no warnings"
    else
        bad "man -l: $warn"
    fi
fi

# bash completion, as bash calls it.
complete_at() { # words...: COMPREPLY for the last word
    bash -c '
        complete() { :; }
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _paperdex
        printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/docs/completion/paperdex.bash" "$@"
}
got=$(complete_at "$PDX" se)
grep -qx search <<<"$got" && grep -qx serve <<<"$got" && ! grep -qx index <<<"$got" &&
    ok "commands complete (se: search serve)" || bad "commands: $got"
got=$(complete_at "$PDX" search --li)
[ "$got" = "--limit" ] && ok "search --li completes to --limit (from --help)" || bad "search --li: $got"
got=$(complete_at "$PDX" index --dry)
[ "$got" = "--dry-run" ] && ok "index --dry completes to --dry-run" || bad "index --dry: $got"
mkdir -p "$BUILD/completion-probe-dir"
got=$(cd "$BUILD" && complete_at "$PDX" search --db completion-probe)
[ "$got" = "completion-probe-dir" ] && ok "--db completes directories" || bad "--db: $got"
got=$(complete_at "$PDX" show --format j)
[ "$(echo $got)" = "json jsonl" ] && ok "show --format j: json jsonl" || bad "show --format j: $got"
if command -v zsh >/dev/null; then
    zsh -n "$SRC/docs/completion/_paperdex" && ok "zsh completion parses" || bad "zsh completion does not parse"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
