#!/usr/bin/env python3
"""remote_shards.py -- does splitting an index over xapian-tcpsrv shards
cut query latency?  One run, one machine, the same queries.

usage: remote_shards.py [--work DIR] [--whole DB] CORPUS

Xapian 1.4's matcher reads every posting of every query term (see
RESULTS.md), so its latency grows with the corpus.  A search over
`tcp://` shards sends the query to every server before it reads any
answer, so the servers match their halves at the same time, each on its
own core (or machine); local `--db A --db B` shards are matched one after
the other in the calling process.  This measures, on CORPUS split into
two halves by record parity (even records to one shard, odd to the
other), top-10 latency of:

  * the whole index, local (WORK/whole, or --whole DB if given: an
    index of the same CORPUS, built the same way);
  * the two halves as local shards (`--db A --db B`);
  * the whole index through one xapian-tcpsrv;
  * the two halves through two xapian-tcpsrv on 127.0.0.1 (on this
    2-core machine, one core each: two machines in miniature, without a
    network between them);
  * Lucene 8 on CORPUS, when Debian's liblucene8-java is installed.

Every index is built with `paperdex index --jobs 2` (so compacted by its
merge).  Queries: compare.py's mix (1-, 2- and 4-word, phrase, filtered)
drawn from CORPUS with its seed, one warm-up pass and 3 timed passes,
bench/pdx_qbench.c with one open handle.  Prints a table; writes
WORK/remote_shards.json.
"""
import argparse
import gzip
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

PDX, QB = compare.PDX, compare.QB


def build(db, corpus):
    """An index as a shard for xapian-tcpsrv is built: with Xapian's own
    positions (layout 7), so that its phrases are searched remotely."""
    shutil.rmtree(db, ignore_errors=True)
    dt, _ = compare.timed([PDX, "index", "--quiet", "--xapian-positions", "--jobs", "2", "--db", db, corpus])
    sys.stderr.write("built %s in %.0f s\n" % (db, dt))


def main(argv):
    ap = argparse.ArgumentParser(prog="remote_shards.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work")
    ap.add_argument("--whole")
    ap.add_argument("corpus")
    a = ap.parse_args(argv)
    corpus, whole = a.corpus, a.whole
    work = a.work or tempfile.mkdtemp(prefix="pdx-remote-")
    os.makedirs(work, exist_ok=True)
    sys.stderr.write("remote_shards.py: working in %s\n" % work)

    halves = [os.path.join(work, "half-%d.jsonl.gz" % k) for k in (0, 1)]
    op = gzip.open if corpus.endswith(".gz") else open
    with op(corpus, "rt", encoding="utf-8") as fi, \
            gzip.open(halves[0], "wt", encoding="utf-8", compresslevel=1) as f0, \
            gzip.open(halves[1], "wt", encoding="utf-8", compresslevel=1) as f1:
        for n, line in enumerate(fi):
            (f0, f1)[n % 2].write(line)
    shards = [os.path.join(work, "shard-%d" % k) for k in (0, 1)]
    for h, db in zip(halves, shards):
        build(db, h)
    if not whole:
        whole = os.path.join(work, "whole")
        build(whole, corpus)

    qs = compare.query_mix(compare.read_records(corpus, 20000))
    qfile = os.path.join(work, "queries.tsv")
    with open(qfile, "w") as fq:
        for q in qs:
            fq.write("\t".join(q) + "\n")

    def qb(*dbs):
        return lambda r: [QB, qfile, str(r)] + list(dbs)

    res = {"corpus": corpus, "machine": "%d cores, %s" % (os.cpu_count(), os.uname().release)}
    rows = [("whole, local", qb(whole)), ("2 shards, local", qb(*shards))]
    servers = []
    try:
        p, addr = compare.serve(whole)
        servers.append(p)
        rows.append(("whole, 1 xapian-tcpsrv", qb(addr)))
        addrs = []
        for db in shards:
            p, addr = compare.serve(db)
            servers.append(p)
            addrs.append(addr)
        rows.append(("2 shards, 2 xapian-tcpsrv", qb(*addrs)))
        for name, cmd in rows:
            res[name] = compare.latency(cmd)
            sys.stderr.write("%s: %s\n" % (name, res[name]))
    finally:
        for p in servers:
            p.terminate()
            p.wait()
    hits = {name: res[name]["hits"] for name, _ in rows}
    lucene = compare.lucene_prepare(work, corpus)
    if lucene:
        java, ldir, tsv = lucene
        shutil.rmtree(ldir, ignore_errors=True)
        compare.timed(java + ["index", ldir, tsv])
        res["lucene"] = compare.latency(lambda r: java + ["query", ldir, qfile, str(r)])
        rows.append(("lucene", None))

    with open(os.path.join(work, "remote_shards.json"), "w") as fo:
        json.dump(res, fo, indent=1)
    print("### %s: top-10 latency, %d queries x 3 passes, one process\n"
          % (corpus, res["whole, local"]["queries"]))
    print("| index | p50 | p95 | p99 | q/s | p50 / whole local |")
    print("|---|---|---|---|---|---|")
    base = res["whole, local"]["p50_ms"]
    for name, _ in rows:
        r = res[name]
        print("| %s | %.2f ms | %.2f ms | %.2f ms | %.0f | %.2f |" % (
            name, r["p50_ms"], r["p95_ms"], r["p99_ms"], r["qps"], r["p50_ms"] / base))
    same = len(set(json.dumps(h) for h in hits.values())) == 1
    print("\nhits per query equal in every paperdex configuration: %s" % ("yes" if same else "NO"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
