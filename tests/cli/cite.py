#!/usr/bin/env python3
"""cite.py PAPERDEX SRC -- works exported as citations read back.

Every work of corpus/samples is exported with `search --all --format
bibtex|ris|csljson` (and one with `show`), then:

  BibTeX    indexed again by paperdex's own BibTeX reader: each work's
            title, authors (as names: the same family and given names),
            year and DOI come back;
  RIS       every record opens with TY and closes with ER, its AU lines
            are the work's authors, and TI, PY, DO and the arXiv URL are
            the work's;
  CSL-JSON  parses as JSON; each item's title, authors (family + given
            make the name), issued year and DOI are the work's.

And the same documents over HTTP (format= on /search and /works/ID), with
their media types.
"""
import json
import os
import re
import subprocess
import sys
import unicodedata
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, scratch  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
tmp = scratch("pdx-cite-")
db = os.path.join(tmp, "ix")
subprocess.run([PDX, "index", "--quiet", "--db", db, os.path.join(SRC, "corpus", "samples")], check=True)


def run(*args):
    """The command's output, as it wrote it (no newline translated: RIS
    lines end in CRLF)."""
    p = subprocess.run([PDX] + list(args), capture_output=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (args, p.stderr))
    return p.stdout.decode("utf-8")


works = [json.loads(l) for l in run("search", "--db", db, "--all", "--limit", "10000", "--format", "jsonl",
                                    "--snippet", "0").splitlines()]
check("the samples have works to export (%d)" % len(works), len(works) > 50, len(works))


def norm(s):
    """A name or title compared as a reader would: accents, case, dots,
    commas and spacing aside."""
    s = unicodedata.normalize("NFKD", s or "")
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[.,{}\\]", " ", s).split())


def name_set(names):
    return sorted(norm(n) for n in names)


SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


def as_given_family(n):
    """ "Family, Given[, Jr]" and "Family, Jr, Given" as "Given Family Jr"
    (what a reader shows)."""
    if "," not in n:
        return n
    parts = [x.strip() for x in n.split(",")]
    fam, rest = parts[0], parts[1:]
    suffix = [x for x in rest if x.lower() in SUFFIXES]
    given = [x for x in rest if x.lower() not in SUFFIXES]
    return " ".join(x for x in given + [fam] + suffix if x)


# ---- BibTeX, read back by paperdex's own reader ----------------------------
bib = run("search", "--db", db, "--all", "--limit", "10000", "--format", "bibtex")
keys = re.findall(r"^@\w+\{([^,]+),", bib, re.M)
check("BibTeX: one entry a work, keys unique", len(keys) == len(works) and len(set(keys)) == len(keys),
      (len(keys), len(set(keys)), len(works)))


def read_back(label, name, text, same):
    """Index the exported `text` (saved as `name`) with paperdex's own
    readers: no warning, and each work of the samples comes back, as
    `same(work, read_back)` compares them (the title, by norm(), finds it)."""
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    back_db = os.path.join(tmp, "back-" + name)
    p = subprocess.run([PDX, "index", "--db", back_db, path], capture_output=True, text=True)
    check("%s: paperdex reads its own export without a warning" % label,
          p.returncode == 0 and "warning" not in p.stderr, p.stderr[-400:])
    back = [json.loads(l) for l in run("search", "--db", back_db, "--all", "--limit", "10000", "--format", "jsonl",
                                       "--snippet", "0").splitlines()]
    by_title = {}
    for c in back:
        by_title.setdefault(norm(c.get("title")), []).append(c)
    bad = []
    for w in works:
        cands = by_title.get(norm(w.get("title")), [])
        if not any(same(w, c) for c in cands):
            bad.append((w["id"], w.get("title"), [(c.get("authors"), c.get("year"), c.get("doi"), c.get("pmid"))
                                                 for c in cands]))
    return back, bad


def same_name_year_doi(w, c):
    return (name_set(c.get("authors") or []) == name_set(as_given_family(a) for a in w.get("authors") or [])
            and c.get("year") == w.get("year")
            and (c.get("doi") or "").lower() == (w.get("doi") or "").lower())


back, bad = read_back("BibTeX", "export.bib", bib, same_name_year_doi)
check("BibTeX: every work's title, authors, year and DOI come back (%d works)" % len(works), not bad, bad[:3])

# ---- RIS --------------------------------------------------------------------
ris = run("search", "--db", db, "--all", "--limit", "10000", "--format", "ris")
records = [r for r in ris.split("ER  - \r\n") if r.strip()]
check("RIS: one record a work, each line CRLF", len(records) == len(works) and "\n" not in ris.replace("\r\n", ""),
      (len(records), len(works)))
bad = []
for w, r in zip(works, records):
    lines = [l for l in r.strip("\r\n").split("\r\n") if l]
    tags = {}
    for l in lines:
        tags.setdefault(l[:2], []).append(l[6:])
    ok = (lines[0].startswith("TY  - ") and tags.get("TI", [""])[0] == (w.get("title") or "")
          and name_set(as_given_family(a) for a in tags.get("AU", [])) ==
          name_set(as_given_family(a) for a in w.get("authors") or [])
          and tags.get("PY", [""])[0] == (str(w["year"]) if w.get("year") else "")
          and tags.get("DO", [""])[0] == (w.get("doi") or "")
          and (not w.get("arxiv_id") or "https://arxiv.org/abs/" + w["arxiv_id"] in tags.get("UR", [])))
    if not ok:
        bad.append((w["id"], lines[:6]))
check("RIS: each record is its work (TY first; TI, AU, PY, DO, UR)", not bad, bad[:2])
back, bad = read_back("RIS", "export.ris", ris, lambda w, c: same_name_year_doi(w, c) and all(
    c.get(k) == w.get(k) for k in ("pmid", "arxiv_id", "abstract")))
check("RIS read back: every work's title, authors, year, DOI, PMID, arXiv id and abstract (%d works)" % len(works),
      len(back) == len(works) and not bad, (len(back), bad[:3]))

# ---- CSL-JSON ---------------------------------------------------------------
items = json.loads(run("search", "--db", db, "--all", "--limit", "10000", "--format", "csljson"))
bad = []
for w, it in zip(works, items):
    names = [" ".join(x for x in (a.get("given"), a["family"], a.get("suffix")) if x) for a in it.get("author", [])]
    ok = (it["id"] == w["id"] and it.get("title") == w.get("title")
          and name_set(names) == name_set(as_given_family(a) for a in w.get("authors") or [])
          and (it.get("issued", {}).get("date-parts", [[None]])[0][0] == w.get("year") if w.get("year")
               else "issued" not in it)
          and it.get("DOI") == w.get("doi"))
    if not ok:
        bad.append((w["id"], it))
check("CSL-JSON: one item a work, each its title, authors, year, DOI", len(items) == len(works) and not bad,
      (len(items), bad[:2]))
one = json.loads(run("show", "--db", db, "--format", "csljson", "1406.10925", "sample:047"))
check("show --format csljson: the works asked for", [i["id"] for i in one] == ["1406.10925", "sample:047"],
      [i["id"] for i in one])

# ---- over HTTP --------------------------------------------------------------
srv = subprocess.Popen([PDX, "serve", "--quiet", "--db", db, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
base = "http://127.0.0.1:%d" % int(srv.stderr.readline().strip().rsplit(":", 1)[1])
try:
    for fmt, ctype in (("bibtex", "application/x-bibtex"), ("ris", "application/x-research-info-systems"),
                       ("csljson", "application/vnd.citationstyles.csl+json")):
        with urllib.request.urlopen(base + "/search?" + urllib.parse.urlencode(
                {"q": "coral reef", "limit": 5, "format": fmt})) as r:
            body, got = r.read().decode(), r.headers.get("Content-Type", "")
        want = run("search", "--db", db, "--limit", "5", "--format", fmt, "coral reef")
        check("/search?format=%s is the CLI's, as %s" % (fmt, ctype), body == want and got.startswith(ctype),
              (got, body[:120], want[:120]))
        with urllib.request.urlopen(base + "/works/1406.10925?format=" + fmt) as r:
            body = r.read().decode()
        check("/works/ID?format=%s is show's" % fmt, body == run("show", "--db", db, "--format", fmt, "1406.10925"),
              body[:200])
finally:
    srv.terminate()
    srv.wait(timeout=30)
done()
