#!/bin/sh
# oai-harvest.sh -- fetch a whole OAI-PMH list, page by page, into files
# `paperdex index` reads.  Installed as `paperdex-oai-harvest`.
#
# Why: an OAI-PMH server answers ListRecords a page at a time (arXiv:
# 1,000 records a page) and ends each page but the last with a
# resumptionToken that names the next.  One `curl` of the list's URL gets
# the first page only, so a nightly harvest of a busy day would silently
# miss the rest.  This follows the tokens to the end, one file per page,
# as the protocol asks: the next request carries the verb and the token
# alone (the token is an exclusive argument), URL-encoded by curl.
#
# Files: PREFIX.00001.xml, PREFIX.00002.xml, ... (five digits: pages sort
# in the order they were served, which is the order paperdex gives a
# versioned source's later file the last word).  Each page is written to
# a hidden file in the same directory (paperdex skips hidden names) and
# renamed when it is whole, so an index run meanwhile never reads half a
# page.  Run again with the same PREFIX, it writes the same names again.
#
# Errors: HTTP 503 with Retry-After (OAI-PMH's flow control) and other
# transient failures are retried by curl (--retries, default 8), waiting
# as the server asks.  An OAI-PMH <error>: noRecordsMatch (nothing
# changed in the range asked) is no error, exit 0 and no page; any other
# code is named with its message, exit 1.  A page that cannot be fetched
# stops the harvest: the pages before it stay, exit 75 (try again
# later, as cron reads it).
#
# Going on: a harvest stopped at page N (N > 1) saves the URL, N and the
# token that fetches page N in a hidden file beside the pages
# (.PREFIX.resume, written whole and renamed).  The same command run
# again, as cron runs it, goes on from page N instead of fetching the
# list again; if the server says the saved token has expired
# (badResumptionToken: arXiv's last a day), it fetches the list again
# from page 1.  A finished harvest removes the file; a harvest of another
# URL into the same PREFIX starts at page 1 and removes it; --restart
# ignores it.  --resume TOKEN --page N goes on from a page by hand.
# Usage errors exit 2.
set -u

usage() {
    cat <<'EOF'
usage: paperdex-oai-harvest [--retries N] [--quiet] [--restart]
                            [--resume TOKEN --page N] URL PREFIX

Fetch the OAI-PMH list that URL asks for (a ListRecords, ListIdentifiers
or ListSets request, e.g.
  'https://export.arxiv.org/oai2?verb=ListRecords&metadataPrefix=arXiv&from=2026-11-25')
following every resumptionToken to the last page, into PREFIX.00001.xml,
PREFIX.00002.xml, ... (PREFIX is a path: its directory must exist).

  --retries N   retries of a failed request (HTTP 503 Retry-After, 5xx,
                timeouts), waiting as the server asks; default 8
  --quiet       no summary line on success
  --restart     fetch the list from page 1 even where a harvest of the
                same URL into PREFIX stopped midway (below)
  --resume TOKEN --page N
                go on from page N, fetched with resumptionToken TOKEN, as
                the message of a harvest stopped at page N says (tokens
                expire: arXiv's within a day)
  -h, --help    this text

A harvest stopped at page N (a page that could not be fetched) saves
where it stopped in .PREFIX.resume, beside the pages.  The same command
run again goes on from page N; if the server answers that the saved token
has expired (badResumptionToken), the list is fetched again from page 1.

Exit: 0 done (also when the server has no records in the range asked:
noRecordsMatch), 1 an OAI-PMH error other than noRecordsMatch, 2 usage,
75 a page could not be fetched (the pages before it are kept).
EOF
}

retries=8
quiet=0
resume=
first=1
restart=0
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --quiet) quiet=1; shift ;;
    --restart) restart=1; shift ;;
    --resume)
        [ $# -ge 2 ] && [ -n "$2" ] || { echo "paperdex-oai-harvest: --resume needs a token" >&2; exit 2; }
        resume=$2; shift 2 ;;
    --page)
        [ $# -ge 2 ] || { echo "paperdex-oai-harvest: --page needs a number" >&2; exit 2; }
        case "$2" in '' | *[!0-9]* | 0 | 0*)
            echo "paperdex-oai-harvest: --page takes a number from 1, not '$2'" >&2; exit 2 ;;
        esac
        first=$2; shift 2 ;;
    --retries)
        [ $# -ge 2 ] || { echo "paperdex-oai-harvest: --retries needs a number" >&2; exit 2; }
        case "$2" in '' | *[!0-9]*)
            echo "paperdex-oai-harvest: --retries takes a number, not '$2'" >&2; exit 2 ;;
        esac
        retries=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "paperdex-oai-harvest: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -ne 2 ]; then
    usage >&2
    exit 2
fi
if { [ -n "$resume" ] && [ "$first" -lt 2 ]; } || { [ -z "$resume" ] && [ "$first" -ne 1 ]; }; then
    echo "paperdex-oai-harvest: --resume TOKEN goes with --page N (2 or more), each with the other" >&2
    exit 2
fi
url=$1
prefix=$2
case "$url" in
http://*\?*verb=* | https://*\?*verb=*) ;;
*) echo "paperdex-oai-harvest: '$url' is not an OAI-PMH request (http(s)://...?verb=...)" >&2; exit 2 ;;
esac
dir=$(dirname -- "$prefix")
if [ ! -d "$dir" ]; then
    echo "paperdex-oai-harvest: $dir: no such directory" >&2
    exit 2
fi
command -v curl >/dev/null 2>&1 || {
    echo "paperdex-oai-harvest: needs curl (apt-get install curl)" >&2; exit 2; }

base=${url%%\?*}
verb=$(printf '%s\n' "${url#*\?}" | tr '&' '\n' | sed -n 's/^verb=//p' | head -n 1)
hidden="$dir/.$(basename -- "$prefix")" # paperdex skips hidden names
tmp="$hidden.part.$$"
state="$hidden.resume"
trap 'rm -f "$tmp" "$tmp.resume"' EXIT
trap 'exit 130' INT TERM

# The text of the element named $2 in file $1 (the last one, lines
# joined, XML's own entities undone), or nothing.
element() {
    tr '\n\r' '  ' <"$1" |
        sed -n "s/.*<\\([A-Za-z0-9_]*:\\)\\{0,1\\}$2\\( [^>]*[^/]\\)\\{0,1\\}>\\([^<]*\\)<\\/\\([A-Za-z0-9_]*:\\)\\{0,1\\}$2>.*/\\3/p" |
        sed 's/^ *//; s/ *$//; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&amp;/\&/g'
}
# The code attribute of an <error> element of file $1, or nothing.
error_code() {
    tr '\n\r' '  ' <"$1" |
        sed -n 's/.*<\([A-Za-z0-9_]*:\)\{0,1\}error [^>]*code="\([^"]*\)".*/\2/p'
}

say() { [ "$quiet" = 1 ] || echo "paperdex-oai-harvest: $*"; }

# Where a harvest of this URL into this PREFIX stopped: the state file's
# three lines are the URL, the page and the token that fetches it.
saved=0
if [ -z "$resume" ] && [ -f "$state" ]; then
    s_url='' s_page='' s_token=''
    { IFS= read -r s_url; IFS= read -r s_page; IFS= read -r s_token; } <"$state"
    case "$s_page" in '' | *[!0-9]* | 0*) s_page= ;; esac
    if [ "$restart" = 1 ]; then
        say "--restart: from page 1 (a harvest into $prefix had stopped at page ${s_page:-?})"
    elif [ "$s_url" != "$url" ]; then
        say "$state was saved by a harvest of another URL ($s_url); starting at page 1"
    elif [ -n "$s_page" ] && [ "$s_page" -ge 2 ] && [ -n "$s_token" ]; then
        resume=$s_token
        first=$s_page
        saved=1
        say "going on from page $first, where the last harvest of $url stopped ($state)"
    else
        echo "paperdex-oai-harvest: $state: not a saved harvest (3 lines: URL, page from 2," \
            "token); starting at page 1" >&2
    fi
    [ "$saved" = 1 ] || rm -f "$state"
fi

# Save where this harvest stopped: page $1, fetched with token $2.
save_state() {
    if printf '%s\n%s\n%s\n' "$url" "$1" "$2" >"$tmp.resume" && mv -f "$tmp.resume" "$state"; then
        return 0
    fi
    rm -f "$tmp.resume"
    return 1
}

page=$((first - 1))
token=$resume
records=0
while :; do
    page=$((page + 1))
    n=$(printf '%05d' "$page")
    if [ -z "$token" ]; then
        set -- "$url"
    else
        set -- -G "$base" --data-urlencode "verb=$verb" --data-urlencode "resumptionToken=$token"
    fi
    if ! curl --silent --show-error --fail --location --retry "$retries" \
        --connect-timeout 30 --max-time 600 -o "$tmp" "$@"; then
        echo "paperdex-oai-harvest: page $page of $url could not be fetched;" \
            "$((page - first)) page(s) fetched, kept in $prefix.*.xml" >&2
        if [ -n "$token" ]; then
            if save_state "$page" "$token"; then
                echo "paperdex-oai-harvest: the same command run again goes on from page $page" \
                    "(saved in $state)" >&2
            else
                echo "paperdex-oai-harvest: $state: could not be written" >&2
            fi
            q=$(printf '%s' "$token" | sed "s/'/'\\\\''/g")
            echo "paperdex-oai-harvest: to go on from there: paperdex-oai-harvest" \
                "--resume '$q' --page $page '$url' '$prefix'" >&2
        fi
        exit 75
    fi
    code=$(error_code "$tmp")
    if [ -n "$code" ]; then
        if [ "$code" = badResumptionToken ] && [ "$saved" = 1 ] && [ "$page" = "$first" ]; then
            # The token a stopped harvest saved has expired: only the
            # list itself, from page 1, can be fetched now.
            say "page $page of $url: the saved token has expired ($(element "$tmp" error));" \
                "fetching the list again from page 1"
            rm -f "$state"
            saved=0
            first=1
            page=0
            token=
            continue
        fi
        if [ "$code" = noRecordsMatch ] && [ -z "$token" ]; then
            [ "$quiet" = 1 ] || echo "paperdex-oai-harvest: $url: no records (noRecordsMatch)"
            exit 0
        fi
        echo "paperdex-oai-harvest: page $page of $url: OAI-PMH error $code:" \
            "$(element "$tmp" error)" >&2
        # A token that drew an error answer leads nowhere: the next run
        # starts at page 1.
        rm -f "$state"
        exit 1
    fi
    if ! grep -q '<\([A-Za-z0-9_]*:\)\{0,1\}OAI-PMH[ >]' "$tmp"; then
        echo "paperdex-oai-harvest: page $page of $url is not an OAI-PMH answer" \
            "(it begins: $(head -c 80 "$tmp" | tr '\n\r' '  '))" >&2
        exit 1
    fi
    records=$((records + $(grep -o '<\([A-Za-z0-9_]*:\)\{0,1\}header[ >]' "$tmp" | wc -l)))
    mv -f "$tmp" "$prefix.$n.xml" || exit 1
    last=$token
    token=$(element "$prefix.$n.xml" resumptionToken)
    [ -n "$token" ] || break
    if [ "$token" = "$last" ]; then # a server looping would loop us
        echo "paperdex-oai-harvest: page $page of $url names itself as the next" \
            "(resumptionToken '$token' again); stopped, $((page - first + 1)) page(s) kept" >&2
        exit 1
    fi
done
rm -f "$state"
[ "$quiet" = 1 ] || echo "paperdex-oai-harvest: $((page - first + 1)) page(s), $records record(s):" \
    "$prefix.$(printf '%05d' "$first").xml to $prefix.$n.xml"
exit 0
