#!/usr/bin/env python3
"""near.py PAPERDEX SRCDIR

Proximity as people write it -- Xapian's `a NEAR/n b` and `a ADJ/n b`,
Lucene's `"a b"~n` -- checked against a brute force over the positions
Xapian itself stored.

The sample corpus is indexed twice: as paperdex indexes by default (its
positions in a value of each work, read by paperdex's own phrase
matcher) and with --xapian-positions (Xapian's position table).  From
the second, xapian-delve lists every work's positions of a pair of words
in each field (title S, abstract: the plain stems, author names A), and
this script decides which works hold the pair within the window:

    NEAR/n   the two words at most n positions apart, in either order
    ADJ/n    the second 1 to n positions after the first
    "a b"~n  at most n + 1 apart, in either order (n >= 1); ~0 is the
             phrase: the second right after the first

The works paperdex returns, from both indexes, must be those.  The pairs
are stems, and `"a b"~0` is a quoted phrase, which an index with word
forms reads as written (forms.py checks that): the two indexes here have
their word forms switched off, as an older paperdex built them.  The pairs
are drawn from the works' own abstracts and titles: words 1 to 6
positions apart, so that every window cuts some works out.
"""
import functools
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, repeat_env, scratch  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
work = scratch("pdx-near-")
db = os.path.join(work, "default")
xdb = os.path.join(work, "xapian")
for d, extra in ((db, []), (xdb, ["--xapian-positions"])):
    r = subprocess.run([PDX, "index", "--quiet", "--db", d] + extra +
                       [os.path.join(SRC, "corpus", "samples")], capture_output=True, text=True)
    check("index " + os.path.basename(d), r.returncode == 0, r.stderr)
    # The pairs are stems, and "a b"~0 is a quoted phrase, which an index
    # with word forms reads as written (forms.py checks that): here the
    # forms are off, as in an index an older paperdex built.
    r = subprocess.run(["xapian-metadata", "set", d, "paperdex.forms", ""],
                       capture_output=True, text=True)
    check("forms off " + os.path.basename(d), r.returncode == 0, r.stderr)


@functools.lru_cache(maxsize=None)  # the index does not change: each listing read once
def delve(*args):
    return subprocess.run(["xapian-delve"] + list(args) + [xdb], capture_output=True,
                          text=True).stdout


def postings(term):
    out = delve("-1", "-t", term)
    return [int(x) for x in out.split()[1:] if x.isdigit()] if "Posting List" in out else []


def positions(term, doc):
    out = delve("-t", term, "-r", str(doc))
    m = re.search(r"record #\d+: ?(.*)$", out.strip())
    return [int(x) for x in m.group(1).split()] if m else []


ids = {}


def work_id(doc):
    if doc not in ids:
        terms = delve("-r", str(doc)).split()
        ids[doc] = next(t[1:] for t in terms if t.startswith("Q"))
    return ids[doc]


def holds(pa, pb, kind, n):
    for a in pa:
        for b in pb:
            if kind == "NEAR" and abs(a - b) <= n:
                return True
            if kind == "ADJ" and 1 <= b - a <= n:
                return True
            if kind == "slop" and (abs(a - b) <= n + 1 if n else b - a == 1):
                return True
    return False


def expected(a, b, kind, n):
    """The works holding stems a and b within the window, in one field."""
    got = set()
    for prefix in ("S", "", "A"):
        both = set(postings(prefix + a)) & set(postings(prefix + b))
        for doc in both:
            if holds(positions(prefix + a, doc), positions(prefix + b, doc), kind, n):
                got.add(work_id(doc))
    return got


def found(database, query):
    r = subprocess.run([PDX, "search", "--db", database, "--format", "jsonl", "--limit", "1000",
                        "--snippet", "0", "--no-suggest", "--syntax", "query", query],
                       capture_output=True, text=True, env=repeat_env())
    if r.returncode:
        return None
    return {json.loads(line)["id"] for line in r.stdout.splitlines()}


def stems_that_stem_to_themselves(doc):
    """Plain stems of a work with abstract positions, which paperdex's
    parser reads back as the same stem (it stems a query's words): a
    one-word search finds exactly the works holding the stem."""
    terms = [t for t in delve("-r", str(doc)).split()[5:] if re.fullmatch(r"[a-z]{4,}", t)]
    out = []
    for t in terms:
        if positions(t, doc):
            out.append(t)
    return out


# Pairs of words near each other in the works' abstracts.
random.seed(20261128)
pairs = []
docs = postings("XL") or list(range(1, 106))
for doc in random.sample(sorted(set(docs)), 12):
    words = stems_that_stem_to_themselves(doc)
    located = sorted((p, w) for w in words for p in positions(w, doc))
    for i in range(len(located)):
        for j in range(i + 1, min(i + 7, len(located))):
            if located[j][1] != located[i][1]:
                pairs.append((located[i][1], located[j][1]))
random.shuffle(pairs)
checked_pairs = []
for a, b in pairs:
    if len(checked_pairs) == 10:
        break
    # The parser must read each stem back as itself.
    tot = []
    for w in (a, b):
        r = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--limit", "0",
                            "--exact", w], capture_output=True, text=True)
        tot.append(json.loads(r.stdout)["total"] if r.returncode == 0 else -1)
    if tot == [len(postings(a)), len(postings(b))]:
        checked_pairs.append((a, b))
check("word pairs drawn", len(checked_pairs) >= 6, checked_pairs)

narrowed = 0
for a, b in checked_pairs:
    for n in (1, 2, 3, 5):
        for kind, q in (("NEAR", "%s NEAR/%d %s" % (a, n, b)), ("ADJ", "%s ADJ/%d %s" % (a, n, b)),
                        ("ADJ", "%s ADJ/%d %s" % (b, n, a)),
                        ("slop", '"%s %s"~%d' % (a, b, n)), ("slop", '"%s %s"~0' % (b, a))):
            x, y = (b, a) if q.startswith(b + " ADJ") or q.startswith('"%s %s"~0' % (b, a)) else (a, b)
            nn = 0 if q.endswith("~0") else n
            want = expected(x, y, kind, nn)
            narrowed += len(want) < len(set(postings(a)) & set(postings(b)))
            for database in (db, xdb):
                got = found(database, q)
                check("%s on %s" % (q, os.path.basename(database)), got == want,
                      "got %s, want %s" % (sorted(got) if got is not None else None, sorted(want)))
# The windows must cut: some queries match fewer works than hold both words.
check("windows leave works out (%d queries)" % narrowed, narrowed >= 20, narrowed)
done()
