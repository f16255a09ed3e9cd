#!/bin/sh
# man.sh PAPERDEX [VERSION] -- paperdex(1) on standard output, made from
# the program's own --help texts (the top one, then each command's), so
# that the man page and --help cannot disagree.  The build runs it
# (CMakeLists.txt) and `cmake --install` installs the result.
set -eu
pdx=${1:?usage: man.sh PAPERDEX [VERSION]}
version=${2:-$("$pdx" --version | sed 's/^paperdex //')}

# Text as roff: a backslash as \e, '-' as \- (a hyphen-minus, as typed),
# a leading '.' or "'" escaped,
# and every line kept as it is (no filling) inside .nf/.fi.
roff() {
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"
}

cat <<HEAD
.TH PAPERDEX 1 "" "paperdex $version" "User Commands"
.SH NAME
paperdex \\- full-text search for scientific papers
.SH SYNOPSIS
.B paperdex
.I command
.RB [ \\-\\-help ]
.RI [ options ]
.SH DESCRIPTION
.nf
HEAD
"$pdx" --help | roff
echo ".fi"
for c in index search show similar stats compact serve; do
    echo ".SH COMMAND: $(echo "$c" | tr a-z A-Z)"
    echo ".nf"
    "$pdx" "$c" --help | roff
    echo ".fi"
done
cat <<'TAIL'
.SH ENVIRONMENT
.TP
.B PAPERDEX_DB
the index when \-\-db is not given (every command but compact)
.TP
.B NO_COLOR
when set and not empty, no bold on a terminal
.SH SEE ALSO
.BR xapian\-tcpsrv (1),
.BR xapian\-check (1);
the query syntax, formats and operations pages in the paperdex
documentation (docs/ in the source).
TAIL
