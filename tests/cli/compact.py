#!/usr/bin/env python3
"""compact.py -- `paperdex index --compact`: a run that changed the index
ends by putting a compacted copy in its place, under its lock.

Checked, on invented works (harness.synthetic_work), with an index
updated the same way without --compact beside it:
  * a new index and an update each end compacted, and say so in the
    summary line (MB before -> after); the update leaves the index smaller
    than the same update without --compact, and the size `paperdex
    compact` gives the latter;
  * it holds the same works, field by field, and ranks as the other does
    (ids and scores);
  * `paperdex serve`, started on the index before the update, answers
    throughout and then from the compacted index (its /stats size);
  * a re-run that changes nothing does not compact, and the index is
    writable after the swap;
  * a compacted copy that cannot be made (its work directory's name
    taken) leaves the index updated, uncompacted, with a warning, exit 0;
  * a run killed while it compacts leaves the index updated and whole;
    the next run removes the work directory it left, with a note;
  * --compact with --in-place is refused, naming both;
  * a run whose last batch brings over 10,000 new words (their spelling
    counts kept for the writer's last commit) ends with a compacted copy
    that holds them, is whole (xapian-check) and takes the next run.

usage: compact.py PAPERDEX
"""
import json
import re
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, ranked, synthetic_work, works_of  # noqa: E402

PDX = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="pdx-compact-")
N = 6000


def pdx(*args):
    return subprocess.run([PDX] + list(args), capture_output=True, text=True)


def write_source(path, edition_of, gone):
    with open(path, "w", encoding="utf-8") as f:
        for k in range(N):
            if k not in gone:
                f.write(json.dumps(synthetic_work(k, edition_of(k), title="Compact work")) + "\n")


def size(db):
    return sum(os.path.getsize(os.path.join(db, n)) for n in os.listdir(db)
               if os.path.isfile(os.path.join(db, n)))


def leftovers(db):
    base = os.path.basename(db) + ".compact-"
    return [n for n in os.listdir(os.path.dirname(db)) if n.startswith(base)]


src = os.path.join(tmp, "works.jsonl")
ix, plain = os.path.join(tmp, "ix"), os.path.join(tmp, "plain")

# A new index, compacted at the end of its first run.
write_source(src, lambda k: 0, set())
r = pdx("index", "--db", ix, "--compact", src)
m = r.returncode == 0 and re.search(r"compacted ([\d.]+) MB -> ([\d.]+) MB", r.stdout)
check("a new index ends compacted, and says so", bool(m), r.stdout + r.stderr)
if m:
    check("the compacted index is smaller than the one built", float(m.group(2)) < float(m.group(1)),
          m.group(0))
shutil.copytree(ix, plain)

# An update: a tenth of the works edited, a twentieth gone; a server
# reads the index meanwhile.
srv = subprocess.Popen([PDX, "serve", "--quiet", "--db", ix, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
base = "http://127.0.0.1:%d" % int(srv.stderr.readline().strip().rsplit(":", 1)[1])


def served(path):
    with urllib.request.urlopen(base + path, timeout=30) as resp:
        return json.loads(resp.read())


answers = []
before = served("/search?q=glacier+radar&limit=5")["total"]
gone = set(range(1, N, 20))
write_source(src, lambda k: 1 if k % 10 == 0 else 0, gone)
p = subprocess.Popen([PDX, "index", "--db", ix, "--compact", src], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
while p.poll() is None:
    answers.append(served("/search?q=glacier+radar&limit=5")["total"])
out, err = p.communicate()
r = subprocess.CompletedProcess(p.args, p.returncode, out, err)
after = served("/search?q=glacier+radar&limit=5")["total"]
# Each answer is some commit's whole index: the run commits every batch.
check("the server answered throughout the update (%d times)" % len(answers),
      len(answers) > 0 and before > 0 and all(t > 0 for t in answers), (before, after, answers[:20]))
check("an update with --compact ends compacted", r.returncode == 0 and "compacted" in r.stdout,
      r.stdout + r.stderr)
r2 = pdx("index", "--db", plain, src)
check("the same update without --compact does not compact",
      r2.returncode == 0 and "compacted" not in r2.stdout, r2.stdout + r2.stderr)
check("both updates changed the same records",
      r.stdout.split("; ")[1] == r2.stdout.split("; ")[1], (r.stdout, r2.stdout))
recompacted = os.path.join(tmp, "recompacted")
pdx("compact", "--db", plain, recompacted)
check("the compacted update is smaller than the plain one (%d < %d bytes)" % (size(ix), size(plain)),
      size(ix) < size(plain))
check("and within 2%% of `paperdex compact` of the plain one (%d, %d bytes)"
      % (size(ix), size(recompacted)), abs(size(ix) - size(recompacted)) <= 0.02 * size(recompacted))
want = works_of(PDX, plain, N + 10)
check("the same works, field by field (%d)" % len(want), works_of(PDX, ix, N + 10) == want and len(want) == N - len(gone))
stats = served("/stats")
check("the server reads the compacted index now (%s bytes)" % stats.get("bytes"),
      stats.get("works") == len(want) and stats.get("bytes", 0) < size(plain), stats)
top = [h["id"] for h in served("/search?q=glacier+radar&limit=5")["hits"]]
check("and ranks as the plain updated index does", top == [i for i, _ in ranked(PDX, plain, "glacier radar", 30)[:5]],
      (top, ranked(PDX, plain, "glacier radar", 30)[:5]))
srv.terminate()
srv.wait(timeout=10)
for q in ("glacier radar", "title:compact", "protein folding", '"neural network"'):
    a, b = ranked(PDX, ix, q, 30), ranked(PDX, plain, q, 30)
    check("the same ranking for %s" % q, a == b and len(a) > 0, (a[:3], b[:3]))
check("no work directory left", not leftovers(ix), leftovers(ix))

# Nothing changed: no compaction; the swapped-in index is writable.
r = pdx("index", "--db", ix, "--compact", src)
check("a run that changes nothing does not compact",
      r.returncode == 0 and "compacted" not in r.stdout and " 1 unchanged;" in r.stdout,
      r.stdout + r.stderr)

# The work directory's name taken: updated, not compacted, a warning.
write_source(src, lambda k: 2 if k % 7 == 0 else (1 if k % 10 == 0 else 0), gone)
p = subprocess.Popen([PDX, "index", "--db", ix, "--compact", src], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
with open("%s.compact-%d" % (ix, p.pid), "w") as f:
    f.write("in the way\n")
out, err = p.communicate()
check("a compacted copy that cannot be made: exit 0, the update kept",
      p.returncode == 0 and "compacted" not in out and " updated" in out, out + err)
check("with a warning naming the work directory and saying the index is updated",
      "compact-%d: cannot create" % p.pid in err and "updated, but not compacted" in err, err)
pdx("index", "--db", plain, src)
check("the uncompacted index holds the update", works_of(PDX, ix, N + 10) == works_of(PDX, plain, N + 10))
r = pdx("index", "--db", ix, src)
check("the next run removes what was in the way, with a note",
      r.returncode == 0 and not leftovers(ix) and "note: removed" in r.stderr, (r.stderr, leftovers(ix)))

# Killed while compacting: the index updated and whole, the next run cleans up.
write_source(src, lambda k: 3 if k % 5 == 0 else 0, gone)
killed = False
for attempt in range(5):
    p = subprocess.Popen([PDX, "index", "--db", ix, "--compact", src], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    work = "%s.compact-%d" % (ix, p.pid)
    while p.poll() is None and not os.path.isdir(work):
        time.sleep(0.002)
    if p.poll() is None:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        killed = os.path.isdir(work)
        break
    p.wait()
    # finished before it could be caught: make another change and retry
    write_source(src, lambda k, a=attempt: 4 + a if k % 5 == 0 else 0, gone)
check("a run was killed while it compacted", killed)
if killed:
    pdx("index", "--db", plain, src)
    check("the index is the updated one, whole", works_of(PDX, ix, N + 10) == works_of(PDX, plain, N + 10))
    r = pdx("index", "--db", ix, "--compact", src)
    check("the next run removes the killed run's work directory, with a note",
          r.returncode == 0 and not leftovers(ix) and "note: removed" in r.stderr,
          (r.stdout, r.stderr, leftovers(ix)))

r = pdx("index", "--db", ix, "--full", "--in-place", "--compact", src)
check("--compact with --in-place is refused, naming both",
      r.returncode == 2 and "--compact" in r.stderr and "--in-place" in r.stderr, (r.returncode, r.stderr))

# Many new words in the last batch (over 10,000): the writer keeps their
# spelling counts for its last commit.  The compacted copy holds them, and
# the index swapped in is whole (the writer's close wrote nothing into it).
rng = random.Random(11)
wsrc = os.path.join(tmp, "words.jsonl")
with open(wsrc, "w", encoding="utf-8") as f:
    for k in range(2000):
        words = ["".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(9)) for _ in range(12)]
        f.write(json.dumps({"id": "wd%d" % k, "title": "Glaciology note %d" % k,
                            "abstract": "glaciology of " + " ".join(words),
                            "authors": ["Ada Lovelace"], "year": 2020}) + "\n")
wix = os.path.join(tmp, "words-ix")
r = pdx("index", "--db", wix, "--compact", wsrc)
check("many new words: the run ends compacted", r.returncode == 0 and "compacted" in r.stdout,
      (r.returncode, r.stdout, r.stderr))
x = subprocess.run(["xapian-check", wix], capture_output=True, text=True)
check("many new words: the compacted index is whole (xapian-check)",
      x.returncode == 0 and "No errors found" in x.stdout, (x.stdout[-300:], x.stderr))
r = pdx("search", "--db", wix, "--limit", "0", "--format", "json", "glaciolgy")
check("many new words: the index searches, its spelling table in the copy",
      r.returncode in (0, 1) and r.stdout and json.loads(r.stdout).get("suggestion") == "glaciology",
      (r.returncode, r.stdout[:300], r.stderr))
r = pdx("index", "--db", wix, wsrc)
check("many new words: and takes the next run", r.returncode == 0, r.stdout + r.stderr)

shutil.rmtree(tmp)
done()
