#!/usr/bin/env python3
"""counts.py PAPERDEX SRCDIR [ARXIV_20K]

The total a search shows is true: exact up to the count limit (10,000 by
default, --count-limit N), and past it "N+ matches" with JSON's
total_relation "gte" -- never an estimate shown as a count.  Each query's
total is checked against the count of every match (--exact, one full
pass of Xapian's matcher), and must be the same on every page, with
--limit 0, in text and JSON (tests/cli/serve.py checks HTTP's).

Run on the sample corpus and, when given, the index of 20,000 records
of the shared arXiv file that arxiv_20k.py builds in ARXIV_20K (a CTest
fixture), where words, phrases, filters and filter-only lists match
thousands of works and a top-10 match alone would stop long before
counting them.

Each total is checked on six pages (the first, the second, the eighth,
the middle, the last, past the end), each with --limit 1 and 10; with
PDX_TEST_COUNT_PAGES=3 (the sanitizer build, whose processes start 5
times slower) on the first, the last and past the end, with --limit 10.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import arxiv_20k, check, done, repeat_env, scratch  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
ARXIV_20K = sys.argv[3] if len(sys.argv) > 3 else None
FEW_PAGES = os.environ.get("PDX_TEST_COUNT_PAGES") == "3"


def run(db, *args):
    r = subprocess.run([PDX, "search", "--db", db, "--snippet", "0", "--no-suggest"] + list(args),
                       capture_output=True, text=True, env=repeat_env())
    return r.returncode, r.stdout, r.stderr


def text_total(db, *args):
    """(total, '+' or '') from the first line of the text output."""
    rc, out, err = run(db, *args)
    m = re.match(r"([\d,]+)(\+?) match", out)
    return (int(m.group(1).replace(",", "")), m.group(2)) if rc == 0 and m else (None, err or out[:200])


def json_total(db, fmt, *args):
    rc, out, err = run(db, "--format", fmt, *args)
    if rc:
        return None
    d = json.loads(out)
    return d["total"], d["total_relation"], d["total_lower"], d["total_upper"]


def exact(db, *args):
    n, plus = text_total(db, "--exact", "--limit", "0", *args)
    return n if plus == "" else None


def check_query(db, label, args, limit=10000):
    """The query's total against its --exact count, on several pages."""
    truth = exact(db, *args)
    check("%s: --exact counts" % label, truth is not None, truth)
    if truth is None:
        return
    lim = ["--count-limit", str(limit)] if limit != 10000 else []
    want = (truth, "") if truth <= limit else (limit, "+")
    if FEW_PAGES:
        pages, limits = sorted({0, max(0, truth - 1), truth + 3}), ("10",)
    else:
        pages = sorted({0, 1, 7, truth // 2, max(0, truth - 1), truth + 3} if truth else {0, 5})
        limits = ("1", "10")
    for off in pages:
        for n in limits:
            got = text_total(db, "--offset", str(off), "--limit", n, *(lim + args))
            check("%s: offset %d limit %s" % (label, off, n), got == want,
                  "%s, want %s" % (got, want))
    got = text_total(db, "--limit", "0", *(lim + args))
    check("%s: --limit 0" % label, got == want, "%s, want %s" % (got, want))
    for fmt in ("json",):
        j = json_total(db, fmt, "--limit", "0", *(lim + args))
        check("%s: %s total" % (label, fmt),
              j is not None and (j[0], "" if j[1] == "eq" else "+") == got and j[2] <= truth <= j[3],
              (j, got))


# ---------------------------------------------------------------- samples
work = scratch("pdx-counts-")
db = os.path.join(work, "samples")
r = subprocess.run([PDX, "index", "--db", db, os.path.join(SRC, "corpus", "samples")],
                   capture_output=True, text=True)
check("index samples", r.returncode == 0, r.stderr)
SAMPLE_QUERIES = [
    ["glacier OR ice"], ["model data"], ["learning"], ["glacier"],
    ["\"sea level\""], ["ice AND sheet"], ["methane -peat"],
    ["--category", "physics"], ["--year", "2019..2024"],
    ["model", "--category", "cs"], ["author:Wyndmoor"],
]
for q in SAMPLE_QUERIES:
    check_query(db, "samples " + " ".join(q), q)
# A limit below the count: "N+", the same on every page within it.
for q in (["model data"], ["glacier OR ice"], ["--category", "physics"]):
    check_query(db, "samples limit 3 " + " ".join(q), q, limit=3)

# ------------------------------------------------------------ arXiv subset
built = arxiv_20k(ARXIV_20K)
if built:
    adb = built[0]
    # As people type them: phrases with capitals and hyphens, two common
    # words, one rare word beside a common one, filters alone.
    ARXIV_QUERIES = [
        ["\"Large Language Models\""], ["\"large scale\""], ["\"retrieval augmented generation\""],
        ["title:\"language models\""], ["guiding moments"], ["learning model"],
        ["diffusion models for image generation"], ["graph neural network", "--year", "2025"],
        ["\"state-of-the-art\""], ["--category", "cs.CV"], ["--year", "2024"],
        ["transformer", "--category", "cs.LG"], ["quantum AND error"],
    ]
    for q in ARXIV_QUERIES:
        check_query(db=adb, label="arXiv " + " ".join(q), args=q)
    for q in (["learning model"], ["\"large scale\""], ["--category", "cs"]):
        check_query(adb, "arXiv limit 500 " + " ".join(q), q, limit=500)
done()
