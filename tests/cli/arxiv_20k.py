#!/usr/bin/env python3
"""arxiv_20k.py PAPERDEX SHARED OUT

The index several tests read (a CTest fixture, tests/CMakeLists.txt):
20,000 records of the shared arXiv file taken evenly through it
(harness.arxiv_subset), written to OUT/arxiv-20k.jsonl, and indexed by
two workers (--jobs 2) into OUT/ix.  Built once a run instead of once a
test: under the sanitizers, indexing them takes about 45 s.  The tests
that use it only read it.  Exit 77 (skipped) without the arXiv file;
the tests then leave their arXiv part out and say so.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import arxiv_20k_paths, arxiv_subset  # noqa: E402

PDX, SHARED, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
ARXIV = os.path.join(SHARED, "data", "arxiv-101k.jsonl.gz")
shutil.rmtree(OUT, ignore_errors=True)
if not os.path.exists(ARXIV):
    print("SKIP: %s is absent (../shared beside the checkout)" % ARXIV)
    sys.exit(77)
os.makedirs(OUT)
ix, src = arxiv_20k_paths(OUT)
arxiv_subset(ARXIV, 20000, src)
p = subprocess.run([PDX, "index", "--quiet", "--jobs", "2", "--db", ix, src], capture_output=True, text=True)
if p.returncode != 0:
    print("FAIL indexing %s: exit %d\n%s" % (src, p.returncode, p.stderr[-4000:]))
    sys.exit(1)
print("indexed 20,000 arXiv records into %s" % ix)
