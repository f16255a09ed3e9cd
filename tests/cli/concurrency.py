#!/usr/bin/env python3
"""concurrency.py PAPERDEX

One writer, many readers.  While an indexer works through a few thousand
records (committing every 100), searches, shows and stats run in a loop:
every one must succeed, and each must see a whole commit -- the works of a
source appear together with its fingerprint, never half of a commit.
Meanwhile a second indexer must exit at once with status 75 and a message
naming the lock holder's pid, and a third, started with --wait, must wait
for the first to finish and then succeed.
"""
import json, os, shutil, subprocess, sys, tempfile, time

PDX = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done  # noqa: E402


tmp = tempfile.mkdtemp(prefix="pdx-conc-")
src = os.path.join(tmp, "src")
os.makedirs(src)
for i in range(10):
    with open(os.path.join(src, "part-%d.jsonl" % i), "w") as f:
        for k in range(i * 1000, i * 1000 + 600):
            f.write(json.dumps({"id": "k%d" % k, "title": "Concurrent work %d on shared networks" % k,
                                "abstract": "Networks and readers and writers, record %d of part %d." % (k, i),
                                "year": 2001 + k % 20}) + "\n")
db = os.path.join(tmp, "ix")
subprocess.run([PDX, "index", "--db", db, os.path.join(src, "part-0.jsonl")], check=True, capture_output=True)

writer = subprocess.Popen([PDX, "index", "--db", db, "--batch", "100", src],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# Wait until the writer holds the lock (it says so in paperdex-writer).
holder = os.path.join(db, "paperdex-writer")
for _ in range(600):
    try:
        with open(holder) as f:
            if ("pid %d " % writer.pid) in f.read():
                break
    except OSError:
        pass
    time.sleep(0.01)
second = subprocess.run([PDX, "index", "--db", db, src], capture_output=True, text=True)
check("a second indexer exits 75", second.returncode == 75, second.returncode)
check("and names the lock holder", ("held by pid %d" % writer.pid) in second.stderr, second.stderr)
waiter = subprocess.Popen([PDX, "index", "--db", db, "--wait", "300", src],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

# Readers of every kind: search, show (a lookup by id) and stats --sources
# (metadata), in turn.
searches = ok = reads = reads_ok = 0
counts = []
while writer.poll() is None and searches < 2000:
    kind = (searches + reads) % 3
    if kind == 0:
        s = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--exact", "--limit", "3", "networks"],
                           capture_output=True, text=True)
        searches += 1
        if s.returncode == 0:
            try:
                counts.append(json.loads(s.stdout)["total"])
                ok += 1
            except ValueError:
                pass
        else:
            print("search failed during the reindex:", s.stderr.strip())
        continue
    cmd = ([PDX, "show", "--db", db, "--format", "json", "k7"] if kind == 1
           else [PDX, "stats", "--db", db, "--format", "json", "--sources"])
    s = subprocess.run(cmd, capture_output=True, text=True)
    reads += 1
    if s.returncode == 0 and s.stdout.strip():
        reads_ok += 1
    else:
        print("%s failed during the reindex:" % cmd[1], s.stderr.strip())
writer.wait()
check("every search during the reindex succeeded (%d)" % searches, ok == searches and searches > 0, (ok, searches))
check("every show and stats during the reindex succeeded (%d)" % reads, reads_ok == reads and reads > 0,
      (reads_ok, reads))
check("every search saw whole batches of 100 (commits), growing",
      all(c % 100 == 0 for c in counts) and counts == sorted(counts), counts[:20])
check("the writer finished", writer.returncode == 0, writer.stderr)
out, err = waiter.communicate(timeout=300)
check("an indexer with --wait waited for the lock and finished", waiter.returncode == 0, err)
check("and found nothing left to do", "10 unchanged" in out, out)
final = json.loads(subprocess.run([PDX, "search", "--db", db, "--format", "json", "--exact", "--limit", "0",
                                   "networks"], capture_output=True, text=True).stdout)["total"]
check("all 6000 works are there", final == 6000, final)
shutil.rmtree(tmp)
print("%d searches and %d shows and stats ran during the reindex" % (searches, reads))
done()
