#!/usr/bin/env python3
"""floor.py -- paperdex beside Xapian 1.4 alone (bench/xapian_floor.cc),
in one run on one machine: how far is paperdex from what its backend
allows, and do the speed and size goals lie above or below that floor?

usage: floor.py [--rounds N] [--work DIR] [--skip-single] [--no-variants] CORPUS

CORPUS is a .jsonl(.gz) file.  It is converted to compare.py's TSV first
(untimed: the floor programs do no JSON parsing, paperdex does).  Then,
N rounds (default 2), each builder in turn so that a machine slowing down
hurts all alike, the best round of each kept:
  * paperdex, one process, and paperdex --jobs 2: `paperdex index` on
    CORPUS, then `paperdex compact`;
  * xapian_floor one: title, abstract and authors as one stream of stems
    with positions, the id term and the three texts as document data:
    the least an index with phrase search can hold;
  * the same in two processes, every other record each, at once, merged
    by xapian-compact: the floor under `--jobs 2`;
  * xapian_floor lucene: LuceneBench's document (three prefixed streams
    with positions, category terms, the year in a value);
  * xapian_floor nopos: `one` without positions (no phrase search).
--skip-single leaves out paperdex's one-process build and --no-variants
the floor's `lucene` and `nopos` builds (at a million works each costs
minutes).  All commit every 1,000 works; the floor with DB_NO_SYNC.  Sizes are
after compaction (`paperdex compact`; xapian-compact for the floor,
which also merges the two processes' parts, inside their time).  Prints a
Markdown table (works/s, compacted size by table) and the ratios to
the goals, and writes every figure to WORK/floor.json.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

FLOOR = os.path.join(compare.BUILD, "xapian_floor")
GOAL_SINGLE, GOAL_JOBS2, GOAL_MB = 1700, 3300, 330
ARXIV_101K = 101193


def tables(db):
    """MB per glass table of db."""
    out = {}
    for f in sorted(os.listdir(db)):
        if f.endswith(".glass"):
            out[f[:-6]] = os.path.getsize(os.path.join(db, f)) / 1e6
    return out


def pdx_build(work, corpus, jobs):
    db = os.path.join(work, "pdx-j%d" % jobs)
    b = compare.pdx_build(compare.PDX, db, ["--jobs", str(jobs)] if jobs > 1 else [], corpus)
    r = {"seconds": b["seconds"], "works": b["works"], "works_per_s": b["works"] / b["seconds"],
         "peak_rss_mb": b["peak_rss_mb"], "compacted_mb": compare.du(b["compacted"]) / 1e6,
         "tables": tables(b["compacted"])}
    shutil.rmtree(db)
    shutil.rmtree(b["compacted"])
    return r


def floor_build(work, tsv, mode, parts):
    """xapian_floor MODE in `parts` processes at once (each every
    parts-th record), then xapian-compact of the parts into one compacted
    index: seconds (the slowest part's build, plus with several parts
    their merge, as `paperdex index --jobs` merges its shards; a lone part
    is timed without its compaction, as paperdex without `compact`),
    works/s, size by table."""
    dbs = [os.path.join(work, "floor-%s-%d" % (mode, k)) for k in range(parts)]
    cdb = os.path.join(work, "floor-%s-compact" % mode)
    for d in dbs + [cdb]:
        shutil.rmtree(d, ignore_errors=True)
    t0 = time.time()
    ps = [subprocess.Popen(["/usr/bin/time", "-f", "%M", FLOOR, mode, d, tsv, str(k), str(parts)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
          for k, d in enumerate(dbs)]
    built, rss = [], 0
    for p in ps:
        out, err = p.communicate()
        if p.returncode:
            raise SystemExit("floor.py: xapian_floor failed: " + err)
        built.append(json.loads(out))
        rss = max(rss, int(err.strip().splitlines()[-1]) / 1024)
    wall = time.time() - t0
    t1 = time.time()
    subprocess.run(["xapian-compact", "--multipass", "--no-full"] + dbs + [cdb],
                   check=True, capture_output=True)
    compact = time.time() - t1
    works = sum(h["records"] for h in built)
    seconds = max(h["seconds"] for h in built) + (compact if parts > 1 else 0)
    r = {"seconds": seconds, "wall_seconds": wall + compact, "compact_seconds": compact,
         "works": works, "works_per_s": works / seconds, "peak_rss_mb": rss,
         "compacted_mb": compare.du(cdb) / 1e6, "tables": tables(cdb)}
    for d in dbs + [cdb]:
        shutil.rmtree(d)
    return r


def main(argv):
    rounds, work, args = 2, None, []
    skip_single = no_variants = False
    i = 0
    while i < len(argv):
        if argv[i] == "--rounds":
            rounds = int(argv[i + 1]); i += 1
        elif argv[i] == "--work":
            work = argv[i + 1]; i += 1
        elif argv[i] == "--skip-single":
            skip_single = True
        elif argv[i] == "--no-variants":
            no_variants = True
        elif argv[i] in ("-h", "--help"):
            print(__doc__); return 0
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 1 or rounds < 1:
        sys.stderr.write(__doc__); return 2
    corpus = args[0]
    if not os.access(FLOOR, os.X_OK):
        raise SystemExit("floor.py: %s is not built" % FLOOR)
    work = work or tempfile.mkdtemp(prefix="pdx-floor-")
    os.makedirs(work, exist_ok=True)
    sys.stderr.write("floor.py: working in %s\n" % work)
    tsv = os.path.join(work, "records.tsv")
    compare.write_tsv(corpus, tsv)
    runs = [("paperdex, one process", lambda: pdx_build(work, corpus, 1)),
            ("paperdex --jobs 2", lambda: pdx_build(work, corpus, 2)),
            ("Xapian: one positional stream", lambda: floor_build(work, tsv, "one", 1)),
            ("Xapian: one positional stream, 2 processes",
             lambda: floor_build(work, tsv, "one", 2)),
            ("Xapian: Lucene's document", lambda: floor_build(work, tsv, "lucene", 1)),
            ("Xapian: no positions", lambda: floor_build(work, tsv, "nopos", 1))]
    runs = [(n, f) for n, f in runs
            if not (skip_single and n == "paperdex, one process") and
            not (no_variants and n in ("Xapian: Lucene's document", "Xapian: no positions"))]
    best = {}
    for rnd in range(rounds):
        for name, fn in runs:
            r = fn()
            sys.stderr.write("round %d, %s: %s\n" % (rnd + 1, name, json.dumps(r)))
            if name not in best or r["seconds"] < best[name]["seconds"]:
                best[name] = r
    res = {"corpus": corpus, "rounds": rounds,
           "machine": "%d cores, %s" % (os.cpu_count(), os.uname().release), "runs": best}
    with open(os.path.join(work, "floor.json"), "w") as f:
        json.dump(res, f, indent=1)

    print("| builder | seconds | works/s | compacted MB | position | postlist | termlist "
          "| docdata |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _ in runs:
        r = best[name]
        t = r.get("tables", {})
        cells = ["%.1f" % t[k] if k in t else "" for k in
                 ("position", "postlist", "termlist", "docdata")]
        print("| %s | %.1f | %.0f | %.1f | %s |" % (name, r["seconds"], r["works_per_s"],
                                                   r["compacted_mb"], " | ".join(cells)))
    p1, p2 = best.get("paperdex, one process"), best["paperdex --jobs 2"]
    f1 = best["Xapian: one positional stream"]
    f2 = best["Xapian: one positional stream, 2 processes"]
    print()
    if p1:
        print("paperdex / floor, one process: works/s %.2f, compacted size %.2f" %
              (p1["works_per_s"] / f1["works_per_s"], p1["compacted_mb"] / f1["compacted_mb"]))
    print("paperdex / floor, --jobs 2: works/s %.2f, compacted size %.2f" %
          (p2["works_per_s"] / f2["works_per_s"], p2["compacted_mb"] / f1["compacted_mb"]))
    print("the goals against the floor: one process %d works/s = %.2f of the floor's "
          "%.0f; --jobs 2 %d = %.2f of the floor's %.0f" %
          (GOAL_SINGLE, GOAL_SINGLE / f1["works_per_s"], f1["works_per_s"],
           GOAL_JOBS2, GOAL_JOBS2 / f2["works_per_s"], f2["works_per_s"]))
    if p2["works"] == ARXIV_101K:  # the size goal is the arXiv 101k's
        print("size goal on the arXiv 101k: %d MB = %.2f of the floor's %.1f MB "
              "(%.1f MB without the document data)" %
              (GOAL_MB, GOAL_MB / f1["compacted_mb"], f1["compacted_mb"],
               f1["compacted_mb"] - f1["tables"].get("docdata", 0)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
