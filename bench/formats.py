#!/usr/bin/env python3
"""formats.py -- indexing throughput per input format, in one run.

usage: formats.py [--n N] [--jobs J] [--keep DIR] PAPERDEX

The same N synthetic works (bench/gen_corpus.py, learned from the arXiv
101k) are written as paperdex's JSON lines, MEDLINE/PubMed XML (today's
PubmedArticleSet and NLM's MedlineCitationSet of 2016 and before), an
OAI-PMH answers in oai_dc and in arXiv's format, OpenAlex works,
BibTeX, PubMed's MEDLINE text (.nbib) and RIS, each gzipped; each file is indexed from scratch by
`paperdex index` (J workers), beside the real arXiv 101k snapshot
(../shared/data/arxiv-101k.jsonl.gz).  Printed per format: file size,
records, seconds, works per second, peak RSS (GNU time), the ratio to
the synthetic JSON lines, which hold exactly the same text, and the
records per second of the reader alone (bench/pdx_readbench, built beside
PAPERDEX: decoding, no index), which tells the reader's share of the
time from Xapian's.  Every
format must index the same number of works and rank one query alike;
the script says so when they do not.  Last, one PubMed file whose
record holds a 50 MB attribute is timed beside the same bytes as an
element's text: a reader that scans a long token again with each buffer
shows as a large ratio.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared")


def long_token(pdx, work, mb=50):
    """A PubMed file with one attribute of `mb` MB against the same file
    with the same bytes as an element's text (expat reads text in pieces,
    a token whole): their times, and the ratio."""
    rec = ("<PubmedArticle%s><MedlineCitation><PMID>%d</PMID><Article><ArticleTitle>Long token %d"
           "</ArticleTitle></Article></MedlineCitation></PubmedArticle>\n")
    pad = "x" * (mb << 20)
    files = {"attribute": rec % (' Junk="%s"' % pad, 1, 1),
             "element text": (rec % ("", 1, 1)).replace("<Article>", "<Article><Note>%s</Note>" % pad)}
    times = {}
    for name, first in files.items():
        path = os.path.join(work, "long-%s.xml" % name.split()[0])
        with open(path, "w") as f:
            f.write("<PubmedArticleSet>\n" + first + rec % ("", 2, 2) + "</PubmedArticleSet>\n")
        db = os.path.join(work, "ix-long")
        shutil.rmtree(db, ignore_errors=True)
        t0 = time.time()
        subprocess.run([pdx, "index", "--quiet", "--db", db, path], check=False)
        times[name] = time.time() - t0
        shutil.rmtree(db, ignore_errors=True)
        os.remove(path)
    print("\na %d MB XML attribute: %.2f s; the same bytes as element text: %.2f s; ratio %.2f"
          % (mb, times["attribute"], times["element text"], times["attribute"] / times["element text"]))


def main(argv):
    n, jobs, keep = 100000, 1, None
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--n":
            n = int(argv[i + 1]); i += 1
        elif argv[i] == "--jobs":
            jobs = int(argv[i + 1]); i += 1
        elif argv[i] == "--keep":
            keep = argv[i + 1]; i += 1
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    pdx = os.path.abspath(args[0])
    arxiv = os.path.join(SHARED, "data", "arxiv-101k.jsonl.gz")
    if not os.path.exists(arxiv):
        print("SKIP: needs %s" % arxiv)
        return 0
    work = keep or tempfile.mkdtemp(prefix="pdx-formats-")
    os.makedirs(work, exist_ok=True)
    gnu_time = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    rows = []
    files = [("arxiv (real 101k)", arxiv)]
    for fmt in ("jsonl", "medline", "medline2016", "oaidc", "oaiarxiv", "openalex", "bibtex", "nbib", "ris"):
        path = os.path.join(work, "syn-%d.%s.gz" % (n, fmt))
        if not os.path.exists(path):
            t0 = time.time()
            subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), "--format", fmt, str(n), path],
                           check=True)
            print("generated %s in %.0f s" % (path, time.time() - t0), flush=True)
        files.append((fmt, path))
    print("\npaperdex index, %d worker(s), each file into a new index, one run:\n" % jobs)
    readbench = os.path.join(os.path.dirname(pdx), "pdx_readbench")
    print("%-18s %10s %9s %8s %10s %9s %8s %12s" % ("format", "file MB", "works", "s", "works/s", "RSS MB",
                                                    "vs jsonl", "read only/s"))
    base = None
    firsts = {}
    for name, path in files:
        db = os.path.join(work, "ix-" + name.split()[0])
        shutil.rmtree(db, ignore_errors=True)
        cmd = [pdx, "index", "--quiet", "--db", db, "--jobs", str(jobs), path]
        rss = None
        t0 = time.time()
        if gnu_time:
            p = subprocess.run([gnu_time, "-f", "%M"] + cmd, capture_output=True, text=True)
            try:
                rss = int(p.stderr.strip().splitlines()[-1]) / 1024
            except (ValueError, IndexError):
                rss = None
        else:
            p = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.time() - t0
        if p.returncode not in (0, 3):
            print("%s: paperdex index failed (%d): %s" % (name, p.returncode, p.stderr[-300:]))
            continue
        st = subprocess.run([pdx, "stats", "--db", db, "--format", "json"], capture_output=True, text=True)
        works = json.loads(st.stdout)["works"]
        q = subprocess.run([pdx, "search", "--db", db, "--format", "jsonl", "--snippet", "0", "--limit", "5",
                            "learning models"], capture_output=True, text=True)
        firsts[name] = [json.loads(l)["title"] for l in q.stdout.splitlines() if l.strip()]
        rate = works / secs
        if name == "jsonl":
            base = rate
        rows.append((name, os.path.getsize(path) / 1e6, works, secs, rate, rss))
        ratio = "%.2f" % (rate / base) if base and name != "arxiv (real 101k)" else "-"
        read_rate = "?"
        if os.path.exists(readbench):
            rb = subprocess.run([readbench, path], capture_output=True, text=True)
            try:
                recs, _, rsecs = rb.stdout.split()
                read_rate = "%.0f" % (int(recs) / float(rsecs))
            except ValueError:
                pass
        print("%-18s %10.1f %9d %8.1f %10.0f %9s %8s %12s" % (name, os.path.getsize(path) / 1e6, works, secs, rate,
                                                             "%.0f" % rss if rss else "?", ratio, read_rate),
              flush=True)
        if not keep:
            shutil.rmtree(db, ignore_errors=True)
    long_token(pdx, work)
    syn = [r for r in rows if not r[0].startswith("arxiv")]
    same_works = len(set(r[2] for r in syn)) == 1
    same_rank = len(set(tuple(firsts[r[0]]) for r in syn)) == 1
    print("\nsynthetic formats: %s works each, and %s top 5 for 'learning models'"
          % ("the same number of" if same_works else "DIFFERENT numbers of",
             "the same" if same_rank else "DIFFERENT"))
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same_works and same_rank else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
