#!/usr/bin/env python3
"""embed.py EMBED PAPERDEX SRC -- docs/embed.c, the long-running embedder:
its sync thread (pdx_sync every 0.2 s) follows a directory as files are
added, changed and removed, its search thread sees each change without
reopening anything, the syncs report what they did, and the index it
keeps equals a fresh build of the directory by `paperdex index`."""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

EMBED, PDX, SRC = sys.argv[1:4]
passed = failed = 0


def check(label, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok  ", label)
    else:
        failed += 1
        print("FAIL", label, detail)


tmp = tempfile.mkdtemp(prefix="pdx-embed-")
src = os.path.join(tmp, "src")
os.makedirs(src)
shutil.copy(os.path.join(SRC, "corpus", "samples", "papers.jsonl"), src)
db = os.path.join(tmp, "ix")
p = subprocess.Popen([EMBED, db, src, "0.2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True, bufsize=1)
lines = queue.Queue()
syncs = []


def pump():
    for line in p.stdout:
        line = line.rstrip("\n")
        if line.startswith("sync\t"):
            syncs.append(line)
        else:
            lines.put(line)


threading.Thread(target=pump, daemon=True).start()


def ask(q):
    p.stdin.write(q + "\n")
    p.stdin.flush()
    return lines.get(timeout=30).split("\t")


def until(q, want, limit=30):
    """Ask q until want(answer) holds; the last answer."""
    t0 = time.time()
    while True:
        a = ask(q)
        if want(a) or time.time() - t0 > limit:
            return a
        time.sleep(0.1)


a = ask("glacier")
check("the first search runs on the first sync's index", a[0] == "hits" and int(a[1]) >= 1, a)
work = {"id": "embed-1", "title": "Zebrafish telemetry with acoustic tags",
        "abstract": "We follow zebrafish in a tank with acoustic telemetry tags.", "year": 2024}
with open(os.path.join(src, "new.jsonl"), "w") as f:
    f.write(json.dumps(work) + "\n")
a = until("zebrafish telemetry", lambda a: a[1] != "0")
check("a file added to the directory is found, by the same read handle", a[1:3] == ["1", "embed-1"], a)
time.sleep(0.05)
work["title"] = "Axolotl telemetry with acoustic tags"
work["abstract"] = "We follow axolotls in a tank with acoustic telemetry tags."
with open(os.path.join(src, "new.jsonl"), "w") as f:
    f.write(json.dumps(work) + "\n")
a = until("axolotl", lambda a: a[1] != "0")
check("a changed file is read again", a[1:3] == ["1", "embed-1"], a)
a = until("zebrafish", lambda a: a[1] == "0")
check("and its old record is gone", a[1] == "0", a)
os.remove(os.path.join(src, "new.jsonl"))
a = until("axolotl", lambda a: a[1] == "0")
check("a removed file's work goes", a[1] == "0", a)
a = ask("title:(")
check("a bad query is answered with its error, and the program goes on",
      a[0] == "error" and "position" in a[1], a)
time.sleep(0.5)
p.stdin.write("quit\n")
p.stdin.flush()
rc = p.wait(timeout=30)
err = p.stderr.read()
check("it stops on quit, exit 0, no sync error", rc == 0 and "error" not in err, (rc, err))
check("the syncs reported an add, an update and a removal",
      any("1 added" in s for s in syncs) and any("1 updated" in s for s in syncs)
      and any("1 removed" in s for s in syncs), syncs)


def dump(path):
    out = subprocess.run([PDX, "search", "--db", path, "--all", "--limit", "10000", "--format", "jsonl"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return sorted(json.dumps({k: v for k, v in json.loads(l).items() if k != "rank"}, sort_keys=True)
                  for l in out)


fresh = os.path.join(tmp, "fresh")
subprocess.run([PDX, "index", "--quiet", "--db", fresh, src], check=True)
check("the index it kept equals a fresh build of the directory", dump(db) == dump(fresh))
shutil.rmtree(tmp)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
