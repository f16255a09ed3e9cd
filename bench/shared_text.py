#!/usr/bin/env python3
"""shared_text.py PAPERDEX [N...] -- indexing when many works share a text.

Bibliographies hold many works with one boilerplate abstract ("No abstract
available.") or one title ("Editorial"), each with an id of its own.  The
merge rules keep them apart, but every such record used to be compared
with every earlier one: quadratic.  This prints, for each N (default 4000
and 16000), the time to index N JSON-lines works sharing one abstract and
one with distinct abstracts, and their ratio, measured in the same run.
"""
import json, os, shutil, subprocess, sys, tempfile, time

pdx = sys.argv[1]
sizes = [int(x) for x in sys.argv[2:]] or [4000, 16000]
tmp = tempfile.mkdtemp(prefix="pdx-shared-")
print("%8s %12s %12s %7s" % ("works", "shared (s)", "distinct (s)", "ratio"))
for n in sizes:
    secs = {}
    for kind in ("shared", "distinct"):
        src = os.path.join(tmp, "%s-%d.jsonl" % (kind, n))
        with open(src, "w") as f:
            for k in range(n):
                abstract = "No abstract available." if kind == "shared" else "No abstract available %d." % k
                f.write(json.dumps({"id": "w%d" % k, "title": "Distinct title number %d" % k,
                                    "abstract": abstract, "year": 2003}) + "\n")
        db = os.path.join(tmp, "ix")
        shutil.rmtree(db, ignore_errors=True)
        t0 = time.monotonic()
        subprocess.run([pdx, "index", "--db", db, src], check=True, capture_output=True)
        secs[kind] = time.monotonic() - t0
    print("%8d %12.2f %12.2f %7.1f" % (n, secs["shared"], secs["distinct"], secs["shared"] / secs["distinct"]))
shutil.rmtree(tmp)
