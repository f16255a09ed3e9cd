#!/usr/bin/env python3
"""resync.py -- what cron's re-run costs when one big snapshot file
changed a little, in one run on one machine.

usage: resync.py [--limit N] [--keep] CORPUS

CORPUS is a .jsonl(.gz) snapshot (the arXiv 101k).  Its first N records
(default all) are written to one plain file, indexed once from scratch
(the baseline: a fresh build, one process), and then, each step from the
previous one, as a snapshot re-published:
  * nothing changed (one stat);
  * 100 records appended;
  * 100 records edited in place, 100 deleted, 100 appended;
  * the same file with its lines shuffled;
each re-run timed with its peak RSS (GNU time) and its summary line.
Finally a fresh build of the last file is made and compared work by work
with the index the re-runs kept (every stored field; `search --all`).
Prints a Markdown table, each time also as a fraction of the fresh build.
"""
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PDX = os.path.join(HERE, "..", "build", "paperdex")


def run(args):
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + args, capture_output=True, text=True)
    dt = time.time() - t0
    if p.returncode not in (0, 3):
        raise SystemExit("resync.py: %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return dt, int(p.stderr.strip().splitlines()[-1]) / 1024.0, p.stdout.strip()


def dump(db):
    out, off = [], 0
    while True:
        r = subprocess.run([PDX, "search", "--db", db, "--all", "--limit", "10000", "--offset", str(off),
                            "--format", "jsonl"], capture_output=True, text=True, check=True)
        page = r.stdout.splitlines()
        out += [json.dumps({k: v for k, v in json.loads(l).items() if k != "rank"}, sort_keys=True)
                for l in page]
        if len(page) < 10000:
            return sorted(out)
        off += 10000


def main(argv):
    limit, keep = None, False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--limit":
            limit, argv = int(argv[1]), argv[2:]
        elif argv[0] == "--keep":
            keep, argv = True, argv[1:]
        else:
            break
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    op = gzip.open if argv[0].endswith(".gz") else open
    with op(argv[0], "rt", encoding="utf-8") as f:
        lines = [l if l.endswith("\n") else l + "\n" for l in f]
    if limit:
        lines = lines[:limit]
    spare = lines[-400:]  # the records appended later: held back from the start
    lines = lines[:-400]
    work = tempfile.mkdtemp(prefix="pdx-resync-")
    snap, db = os.path.join(work, "snapshot.jsonl"), os.path.join(work, "ix")

    def write():
        with open(snap, "w", encoding="utf-8") as f:
            f.writelines(lines)
        t = time.time() + len(rows)  # a new mtime for every step
        os.utime(snap, (t, t))

    rows = []
    write()
    dt, rss, out = run([PDX, "index", "--quiet", "--db", db, snap])
    out = subprocess.run([PDX, "stats", "--db", db, "--format", "json"], capture_output=True, text=True).stdout
    fresh_s = dt
    rows.append(("fresh build, %d records" % len(lines), dt, rss, "%d works" % json.loads(out)["works"]))
    rng = random.Random(17)

    def step(label):
        write()
        dt, rss, out = run([PDX, "index", "--db", db, snap])
        rows.append((label, dt, rss, re.sub(r"^sources: [^;]*; ", "", out)))
        sys.stderr.write("%s: %.2f s, %.0f MB: %s\n" % (label, dt, rss, out))

    dt, rss, out = run([PDX, "index", "--db", db, snap])
    rows.append(("nothing changed", dt, rss, re.sub(r"^sources: [^;]*; ", "", out)))
    lines += spare[:100]
    step("100 records appended")
    for i in rng.sample(range(len(lines)), 100):
        r = json.loads(lines[i])
        r["title"] = r["title"] + " (revised)"
        lines[i] = json.dumps(r) + "\n"
    for i in sorted(rng.sample(range(len(lines)), 100), reverse=True):
        del lines[i]
    lines += spare[100:200]
    step("100 edited in place, 100 deleted, 100 appended")
    rng.shuffle(lines)
    step("the same file, lines shuffled")
    fresh = os.path.join(work, "fresh")
    subprocess.run([PDX, "index", "--quiet", "--db", fresh, snap], check=True)
    same = dump(db) == dump(fresh)
    print("| change to the file | time | × fresh build | peak RSS | what the summary says |")
    print("|---|---|---|---|---|")
    for label, dt, rss, what in rows:
        print("| %s | %.2f s | %.3f | %.0f MB | %s |" % (label, dt, dt / fresh_s, rss, what))
    print()
    print("the index the re-runs kept %s a fresh build of the last file" %
          ("equals" if same else "DIFFERS FROM"))
    if not keep:
        shutil.rmtree(work)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
