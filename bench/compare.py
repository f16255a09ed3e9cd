#!/usr/bin/env python3
"""compare.py -- paperdex against SQLite FTS5 on the same records and the
same queries, in one run on one machine.

usage: compare.py [--work DIR] [--index-rounds R] [--query-rounds Q]
                  [--skip-single] [--no-remote] [--no-fts5-queries]
                  [--no-queries] [--count N] CORPUS LABEL

CORPUS is a .jsonl(.gz) file (the arXiv snapshot, or bench/gen_corpus.py
output).  Measured, each engine in turn:
  * indexing: wall time, works/s, MB/s of input, peak RSS (the process and
    its workers, from wait4), size on disk before and after compaction
    (`paperdex compact`; FTS5 'optimize' + VACUUM).  paperdex runs with
    one process and with --jobs 2 (--skip-single: --jobs 2 only);
    --index-rounds R (default 1) builds with every engine R times, the
    engines taking turns within each round, and reports each engine's
    median time (its works/s from that), every round's time, and the
    ratios of paperdex --jobs 2 to each peer within each round and their
    median: this machine's speed drifts by a tenth between minutes, and a
    ratio of two builds made a minute apart drifts less than either;
  * single-thread query latency (p50, p95, p99, mean) and queries/s for
    top 10, over a query mix drawn from the corpus's titles with a fixed
    seed: 100 one-word, 100 two-word and 100 four-word queries, 50
    two-word phrases and 50 two-word queries with a year or category
    filter; one warm-up pass, then 3 timed passes, in one process with
    one open handle (bench/pdx_qbench.c, bench/fts5_bench.c);
  * throughput with 2 processes running the same passes at once;
  * whole-title queries: 1,000 random records' full titles, their words
    OR-ed, for each engine, and for paperdex again with the CLI's 200-byte
    snippets (PDX_QBENCH_SNIPPET), which says what a page of snippets costs;
  * whole titles as typed: 1,000 titles as a person pastes them, with
    their capitals, hyphens and colons, each engine reading them its own
    way (paperdex's query language, FTS5's quoted words, Lucene's
    analyzer);
  * --query-rounds Q (default 1): the latency passes of every engine
    (top-10 and whole titles) Q times, the engines taking turns within
    each round; the tables show the first round, and the ratios of
    paperdex's p50 and p99 to each peer's are given round by round with
    their median (a p99 of 1,000 queries moves by a third between runs);
  * paperdex through xapian-tcpsrv on 127.0.0.1 (the remote hop, an
    index built with --xapian-positions as a shard for xapian-tcpsrv must
    be), unless --no-remote;
  * --no-fts5-queries: FTS5 indexes, but its query passes are left out
    (at a million works they take over an hour: 0.2 s a top-10 query,
    over a second a whole title);
  * --no-queries: indexing only, every engine (for sizes where the query
    passes would take longer than the builds);
  * --count N (default 10000): every engine's top-10 query counts its
    matches exactly up to N (paperdex's count limit, PDX_QBENCH_COUNT;
    Lucene's totalHitsThreshold, which Elasticsearch's track_total_hits
    sets, 10,000 by default, where IndexSearcher.search alone counts
    1,000); FTS5 finds every match;
  * Lucene 8 too, when Debian's liblucene8-java and a JDK are installed
    (bench/LuceneBench.java: EnglishAnalyzer, BM25Similarity(1.2, 0.75),
    title boost 2; its input is converted to TSV first, untimed; its RSS
    includes the JVM, run with -Xmx1g).
Prints a Markdown table and writes every figure to WORK/LABEL.json.
"""
import glob
import gzip
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build")
PDX = os.path.join(BUILD, "paperdex")
QB = os.path.join(BUILD, "pdx_qbench")
FTS = os.path.join(BUILD, "fts5_bench")
LUCENE_JARS = sorted(glob.glob("/usr/share/java/lucene-core-8*.jar") +
                     glob.glob("/usr/share/java/lucene-analyzers-common-8*.jar"))
STOP = set("a an the of for and or in on to with by from via is are we our this that "
           "as at be its it their using based".split())


def timed(args, **kw):
    """(seconds, stdout)."""
    t0 = time.time()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    out, err = p.communicate()
    dt = time.time() - t0
    if p.returncode not in (0, 3):
        sys.stderr.write(err.decode())
        raise SystemExit("compare.py: %s exited %d" % (" ".join(args), p.returncode))
    return dt, out.decode()


def timed_rss(args):
    """Run under GNU time -f %M: (seconds, peak RSS MB, stdout).  The
    figure is the largest of the process and the children it waited for
    (wait4), so --jobs workers count."""
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + args, capture_output=True, text=True)
    dt = time.time() - t0
    if p.returncode not in (0, 3):
        sys.stderr.write(p.stderr)
        raise SystemExit("compare.py: %s exited %d" % (" ".join(args), p.returncode))
    rss_kb = int(p.stderr.strip().splitlines()[-1])
    return dt, rss_kb / 1024.0, p.stdout


def du(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def pdx_build(pdx, db, extra, corpus):
    """`pdx index` CORPUS into db (made afresh) with the options in extra,
    then `pdx compact` it into db-compact: seconds, peak RSS MB, works
    (from `pdx stats`), the index's bytes, the compacted copy's path and
    the compaction's seconds."""
    cdb = db + "-compact"
    for d in (db, cdb):
        shutil.rmtree(d, ignore_errors=True)
    dt, rss, _ = timed_rss([pdx, "index", "--quiet", "--db", db] + extra + [corpus])
    st = json.loads(subprocess.run([pdx, "stats", "--db", db, "--format", "json"],
                                   capture_output=True, text=True, check=True).stdout)
    ct, _ = timed([pdx, "compact", "--db", db, cdb])
    return {"seconds": dt, "peak_rss_mb": rss, "works": st["works"], "bytes": du(db),
            "compacted": cdb, "compact_seconds": ct}


def figures(seconds, works, in_bytes, rss, size, compacted, compact_seconds):
    """One engine's indexing figures, as the table and the JSON show them."""
    return {"seconds": seconds, "works": works, "works_per_s": works / seconds,
            "mb_per_s": in_bytes / 1e6 / seconds, "peak_rss_mb": rss,
            "bytes": size, "bytes_compacted": compacted, "compact_seconds": compact_seconds}


def figures_of(d, in_bytes, rss):
    """figures() from the JSON line fts5_bench and LuceneBench print."""
    return figures(d["seconds"], d["records"], in_bytes, rss, d["bytes"],
                   d["bytes_optimized"], d["optimize_seconds"])


def read_records(corpus, limit):
    op = gzip.open if corpus.endswith(".gz") else open
    recs = []
    with op(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            try:
                recs.append(json.loads(line))
            except ValueError:
                continue
            if len(recs) >= limit:
                break
    return recs


def query_mix(recs, seed=42):
    rng = random.Random(seed)
    titles = []
    for r in recs:
        ws = [w.lower() for w in re.findall(r"[A-Za-z]{3,}", r.get("title") or "")]
        ws = [w for w in ws if w not in STOP]
        if len(ws) >= 4:
            year = r.get("year") or int((r.get("update_date") or "0")[:4] or 0)
            cats = r.get("categories")
            cats = cats.split() if isinstance(cats, str) else (cats or [])
            titles.append((ws, year, cats))
    qs = []
    for n, k in ((1, 100), (2, 100), (4, 100)):
        for _ in range(k):
            ws = rng.choice(titles)[0]
            qs.append(("w%d" % n, " ".join(rng.sample(ws, n)), ""))
    for _ in range(50):
        ws = rng.choice(titles)[0]
        i = rng.randrange(len(ws) - 1)
        qs.append(("phrase", ws[i] + " " + ws[i + 1], ""))
    for i in range(50):
        ws, year, cats = rng.choice(titles)
        f = ("year=%d" % year) if (i % 2 == 0 and year) else ("cat=%s" % cats[0] if cats else "")
        qs.append(("filter", " ".join(rng.sample(ws, 2)), f))
    return qs


def title_queries(recs, n=1000, seed=7):
    """Whole-title queries: a random record's full title, its words
    (letters and digits, lower case) OR-ed: what a person pasting a title
    into the search box asks."""
    rng = random.Random(seed)
    titles = [t for t in (" ".join(re.findall(r"[A-Za-z0-9]+", (r.get("title") or "").lower()))
                          for r in recs) if t.count(" ") >= 1]
    return [("title", rng.choice(titles), "") for _ in range(n)]


def typed_title_queries(recs, n=1000, seed=7):
    """Whole titles as typed: 1,000 random records' titles as a person
    pastes them, capitals, hyphens, colons and all (white space folded;
    a double quote, which FTS5's syntax cannot hold inside its quoted
    words, becomes a space)."""
    rng = random.Random(seed)
    titles = [t for t in (" ".join((r.get("title") or "").replace('"', " ").split())
                          for r in recs) if t.count(" ") >= 1]
    return [("title", rng.choice(titles), "") for _ in range(n)]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def latency(cmd):
    """Warm-up pass, then 3 timed passes: the latency figures."""
    subprocess.run(cmd(1), capture_output=True, check=True)
    r = subprocess.run(cmd(3), capture_output=True, text=True, check=True)
    d = json.loads(r.stdout)
    lat = [x / 1000.0 for x in d["latency_us"]]
    return {"p50_ms": pct(lat, 50), "p95_ms": pct(lat, 95), "p99_ms": pct(lat, 99),
            "mean_ms": sum(lat) / len(lat), "qps": len(lat) / d["seconds"],
            "queries": len(lat), "hits": d["hits"]}


def throughput(cmd, procs=2):
    t0 = time.time()
    ps = [subprocess.Popen(cmd(3), stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(procs)]
    n = 0
    for p in ps:
        out, err = p.communicate()
        if p.returncode != 0:
            sys.exit("compare.py: %s failed (%d): %s" % (" ".join(cmd(3)), p.returncode, err.decode()[-500:]))
        n += len(json.loads(out)["latency_us"])
    return n / (time.time() - t0)


def serve(db):
    """xapian-tcpsrv for db on 127.0.0.1, on a free port, once it accepts
    connections: (process, tcp:// address)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = subprocess.Popen(["xapian-tcpsrv", "--interface", "127.0.0.1", "--port", str(port), db],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return p, "tcp://127.0.0.1:%d" % port


def write_tsv(corpus, tsv):
    """CORPUS as LuceneBench's (and xapian_floor's) input: id, title,
    abstract, authors, year, categories, one record a line."""
    op = gzip.open if corpus.endswith(".gz") else open
    clean = lambda x: re.sub(r"[\t\r\n]+", " ", x or "")  # noqa: E731
    with op(corpus, "rt", encoding="utf-8") as fi, open(tsv, "w", encoding="utf-8") as fo:
        for line in fi:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            au = r.get("authors")
            au = ", ".join(au) if isinstance(au, list) else (au or "")
            ca = r.get("categories")
            ca = " ".join(ca) if isinstance(ca, list) else (ca or "")
            year = r.get("year") or (r.get("update_date") or "")[:4]
            fo.write("\t".join([clean(r.get("id")), clean(r.get("title")),
                                 clean(r.get("abstract")), clean(au), str(year or ""),
                                 clean(ca)]) + "\n")


def lucene_prepare(work, corpus):
    """Compile LuceneBench and convert CORPUS to its TSV (untimed): (java
    command, index dir, TSV path), or None without Debian's liblucene8-java
    and a JDK."""
    if not (len(LUCENE_JARS) == 2 and shutil.which("javac")):
        sys.stderr.write("lucene: not run: it needs Debian's liblucene8-java (lucene-core-8 and "
                         "lucene-analyzers-common-8 in /usr/share/java) and javac\n")
        return None
    cp = ":".join(LUCENE_JARS + [work])
    subprocess.run(["javac", "-cp", cp, "-d", work,
                    os.path.join(HERE, "LuceneBench.java")], check=True)
    tsv = os.path.join(work, "records.tsv")
    write_tsv(corpus, tsv)
    java = ["java", "-Xmx1g", "-cp", cp, "LuceneBench"]
    return java, os.path.join(work, "lucene"), tsv


def query_rounds(res, cmds, rounds):
    """Rounds 2..rounds of the latency passes of cmds (name: command, as
    latency() takes it; round 1 is run_queries'), each engine in turn;
    every round's p50 and p99 kept in res[name]["rounds"], and paperdex's
    ratios to each peer round by round in res["ratios by round"] with
    their medians."""
    for name in cmds:
        res[name]["rounds"] = [[res[name]["p50_ms"], res[name]["p99_ms"]]]
    for rnd in range(1, rounds):
        for name, cmd in cmds.items():
            d = latency(cmd)
            res[name]["rounds"].append([d["p50_ms"], d["p99_ms"]])
        sys.stderr.write("query round %d of %d done\n" % (rnd + 1, rounds))
    ratios = {}
    for kind in ("query", "titles", "typed"):
        for peer in ("sqlite fts5", "lucene"):
            o = "%s %s" % (kind, peer)
            if o not in cmds:
                continue
            p = res["%s paperdex" % kind]["rounds"]
            q = res[o]["rounds"]
            r50 = [p[k][0] / q[k][0] for k in range(rounds)]
            r99 = [p[k][1] / q[k][1] for k in range(rounds)]
            ratios["%s / %s" % (kind, peer)] = {
                "p50": r50, "p99": r99, "p50_median": statistics.median(r50),
                "p99_median": statistics.median(r99)}
    res["ratios by round"] = ratios


def run_queries(res, work, corpus, fdb, lucene, fts5_queries, remote, rounds=1):
    """The query passes of every engine, into res."""
    recs = read_records(corpus, 20000)
    qfile = os.path.join(work, "queries.tsv")
    tfile = os.path.join(work, "titles.tsv")  # whole titles, OR-ed
    yfile = os.path.join(work, "typed.tsv")  # whole titles as typed
    for path, qs in ((qfile, query_mix(recs)), (tfile, title_queries(recs)),
                     (yfile, typed_title_queries(recs))):
        with open(path, "w") as fq:
            for q in qs:
                fq.write("\t".join(q) + "\n")
    # Each engine's latency passes, top-10 mix and titles: name -> command.
    pdb = res["pdx_db"]
    cmds = {}
    for kind, f in (("query", qfile), ("titles", tfile), ("typed", yfile)):
        cmds[kind + " paperdex"] = lambda r, f=f: [QB, f, str(r), pdb]
        if fts5_queries:
            cmds[kind + " sqlite fts5"] = lambda r, f=f: [FTS, "query", fdb, f, str(r)]
        if lucene:
            java, ldir, _ = lucene
            cmds[kind + " lucene"] = lambda r, f=f: java + ["query", ldir, f, str(r)]
    for name in [n for n in cmds if n.startswith("query ")]:
        res[name] = latency(cmds[name])
        res[name]["qps_2proc"] = throughput(cmds[name])
    # Whole titles; paperdex also with the CLI's 200-byte snippets.
    res["titles paperdex"] = latency(cmds["titles paperdex"])
    os.environ["PDX_QBENCH_SNIPPET"] = "200"
    res["titles paperdex, 200-byte snippets"] = latency(cmds["titles paperdex"])
    del os.environ["PDX_QBENCH_SNIPPET"]
    for name in [n for n in cmds if n.startswith("titles ") and n != "titles paperdex"]:
        res[name] = latency(cmds[name])
    for name in [n for n in cmds if n.startswith("typed ")]:
        res[name] = latency(cmds[name])
    if rounds > 1:
        query_rounds(res, cmds, rounds)
    if remote:
        # A shard for xapian-tcpsrv keeps Xapian's own positions (layout
        # 7: the remote backend cannot read paperdex's), as the README
        # says to build one; built apart, not timed.
        rdb = os.path.join(work, "pdx-remote")
        shutil.rmtree(rdb, ignore_errors=True)
        subprocess.run([PDX, "index", "--quiet", "--xapian-positions", "--jobs", "2", "--db", rdb, corpus],
                       check=True)
        srv, addr = serve(rdb)
        rcmd = lambda r: [QB, qfile, str(r), addr]  # noqa: E731
        res["query paperdex remote"] = latency(rcmd)
        srv.terminate()
        srv.wait()


def main(argv):
    work, skip_single, remote, fts5_queries, rounds = None, False, True, True, 1
    queries, qrounds = True, 1
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--work":
            work = argv[i + 1]; i += 1
        elif argv[i] == "--index-rounds":
            rounds = int(argv[i + 1]); i += 1
            if rounds < 1:
                sys.stderr.write("compare.py: --index-rounds takes 1 or more\n"); return 2
        elif argv[i] == "--query-rounds":
            qrounds = int(argv[i + 1]); i += 1
            if qrounds < 1:
                sys.stderr.write("compare.py: --query-rounds takes 1 or more\n"); return 2
        elif argv[i] == "--skip-single":
            skip_single = True
        elif argv[i] == "--no-remote":
            remote = False
        elif argv[i] == "--no-fts5-queries":
            fts5_queries = False
        elif argv[i] == "--no-queries":
            queries = remote = False
        elif argv[i] == "--count":
            os.environ["PDX_QBENCH_COUNT"] = str(int(argv[i + 1])); i += 1
        elif argv[i] in ("-h", "--help"):
            print(__doc__); return 0
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 2:
        sys.stderr.write(__doc__); return 2
    os.environ.setdefault("PDX_QBENCH_COUNT", "10000")
    corpus, label = args
    work = work or tempfile.mkdtemp(prefix="pdx-compare-")
    os.makedirs(work, exist_ok=True)
    in_bytes = os.path.getsize(corpus)
    res = {"label": label, "corpus": corpus, "input_bytes": in_bytes,
           "machine": "%d cores, %s" % (os.cpu_count(), os.uname().release)}
    res["count_limit"] = int(os.environ["PDX_QBENCH_COUNT"])
    sys.stderr.write("compare.py: working in %s\n" % work)

    # ---- indexing -------------------------------------------------------
    # Each round builds with every engine in turn; the figures kept are the
    # median round's, and every round's seconds are kept beside them.
    runs = [("paperdex --jobs 2", ["--jobs", "2"])]
    if not skip_single:
        runs.insert(0, ("paperdex", []))
    fdb = os.path.join(work, "fts5.sqlite")
    lucene = lucene_prepare(work, corpus)
    built = {}  # engine: [(seconds, figures)], one a round

    def keep(rnd, name, seconds, figs):
        built.setdefault(name, []).append((seconds, figs))
        sys.stderr.write("round %d, %s: %.1f s\n" % (rnd + 1, name, seconds))

    for rnd in range(rounds):
        for name, extra in runs:
            b = pdx_build(PDX, os.path.join(work, "pdx" + ("-j2" if extra else "")), extra, corpus)
            keep(rnd, name, b["seconds"],
                 figures(b["seconds"], b["works"], in_bytes, b["peak_rss_mb"], b["bytes"],
                         du(b["compacted"]), b["compact_seconds"]))
            res["pdx_db"] = b["compacted"]
        for f in (fdb, fdb + "-wal", fdb + "-shm"):
            if os.path.exists(f):
                os.remove(f)
        dt, rss, out = timed_rss([FTS, "index", fdb, corpus])
        f = figures_of(json.loads(out), in_bytes, rss)
        keep(rnd, "sqlite fts5", f["seconds"], f)
        if lucene:
            java, ldir, tsv = lucene
            shutil.rmtree(ldir, ignore_errors=True)
            dt, rss, out = timed_rss(java + ["index", ldir, tsv])
            f = figures_of(json.loads(out), in_bytes, rss)
            keep(rnd, "lucene", f["seconds"], f)
    for name, rs in built.items():
        med = sorted(rs, key=lambda x: x[0])[(len(rs) - 1) // 2][1]  # odd R: the median
        res[name] = dict(med, rounds=[sec for sec, _ in rs])
    j2 = res["paperdex --jobs 2"]["rounds"]
    for peer in ("sqlite fts5", "lucene"):
        if peer in res:
            # works/s ratio = the peer's seconds over paperdex's, same works
            rr = [res[peer]["rounds"][k] / j2[k] * res["paperdex --jobs 2"]["works"] / res[peer]["works"]
                  for k in range(rounds)]
            res["paperdex --jobs 2"]["ratio_rounds " + peer] = rr
            res["paperdex --jobs 2"]["ratio_median " + peer] = statistics.median(rr)

    # ---- queries --------------------------------------------------------
    if queries:
        run_queries(res, work, corpus, fdb, lucene, fts5_queries, remote, qrounds)

    out = os.path.join(work, label + ".json")
    with open(out, "w") as fo:
        json.dump(res, fo, indent=1)

    # ---- the table --------------------------------------------------------
    print("### %s (%s, %.0f MB input)\n" % (label, corpus, in_bytes / 1e6))
    print("| indexing | time | works/s | MB/s | peak RSS | size | compacted |")
    print("|---|---|---|---|---|---|---|")
    for name in [n for n, _ in runs] + ["sqlite fts5"] + (["lucene"] if lucene else []):
        r = res[name]
        print("| %s | %.1f s | %.0f | %.2f | %.0f MB | %.0f MB | %.0f MB |" % (
            name, r["seconds"], r["works_per_s"], r["mb_per_s"], r["peak_rss_mb"],
            r["bytes"] / 1e6, r["bytes_compacted"] / 1e6))
    if rounds > 1:
        print("\nIndexing, %d rounds, the engines in turn within each (the table: the median "
              "round's figures)." % rounds)
        for name in [n for n, _ in runs] + ["sqlite fts5"] + (["lucene"] if lucene else []):
            print("- %s: %s s" % (name, ", ".join("%.1f" % x for x in res[name]["rounds"])))
        for peer in ("sqlite fts5", "lucene"):
            k = "ratio_rounds " + peer
            if k in res["paperdex --jobs 2"]:
                print("- works/s of --jobs 2 over %s's, round by round: %s; median %.3f" % (
                    peer, ", ".join("%.3f" % x for x in res["paperdex --jobs 2"][k]),
                    res["paperdex --jobs 2"]["ratio_median " + peer]))
    if queries:
        print("\n| top-10 queries (%d, 1 process) | p50 | p95 | p99 | mean | q/s | q/s, 2 processes |"
              % res["query paperdex"]["queries"])
        print("|---|---|---|---|---|---|---|")
        for name in ("query paperdex", "query sqlite fts5", "query lucene",
                     "query paperdex remote"):
            if name not in res:
                continue
            r = res[name]
            print("| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.0f | %s |" % (
                name[6:], r["p50_ms"], r["p95_ms"], r["p99_ms"], r["mean_ms"], r["qps"],
                "%.0f" % r["qps_2proc"] if "qps_2proc" in r else "-"))
        print("\n| whole-title queries (%d, OR-ed words, 1 process) | p50 | p95 | p99 | mean | q/s |"
              % res["titles paperdex"]["queries"])
        print("|---|---|---|---|---|---|")
        for name in ("titles paperdex", "titles paperdex, 200-byte snippets",
                     "titles sqlite fts5", "titles lucene"):
            if name in res:
                r = res[name]
                print("| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.0f |" % (
                    name[7:], r["p50_ms"], r["p95_ms"], r["p99_ms"], r["mean_ms"], r["qps"]))
        print("\n| whole titles as typed (%d: capitals, hyphens, colons) | p50 | p95 | p99 | mean | q/s |"
              % res["typed paperdex"]["queries"])
        print("|---|---|---|---|---|---|")
        for name in ("typed paperdex", "typed sqlite fts5", "typed lucene"):
            if name in res:
                r = res[name]
                print("| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.0f |" % (
                    name[6:], r["p50_ms"], r["p95_ms"], r["p99_ms"], r["mean_ms"], r["qps"]))
        t, ts = res["titles paperdex"], res["titles paperdex, 200-byte snippets"]
        print("\nSnippets cost: p50 with / without %.2f" % (ts["p50_ms"] / t["p50_ms"]))
        if lucene:
            tl = res["titles lucene"]
            print("Whole titles (paperdex / Lucene): p50 %.2f, p99 %.2f" % (
                t["p50_ms"] / tl["p50_ms"], t["p99_ms"] / tl["p99_ms"]))
            ty, tyl = res["typed paperdex"], res["typed lucene"]
            print("Whole titles as typed (paperdex / Lucene): p50 %.2f, p99 %.2f" % (
                ty["p50_ms"] / tyl["p50_ms"], ty["p99_ms"] / tyl["p99_ms"]))
        if qrounds > 1:
            print("\nQuery latency, %d rounds, the engines in turn within each (the tables: "
                  "round 1); paperdex's over each peer's, round by round:" % qrounds)
            for k, v in res["ratios by round"].items():
                print("- %s: p50 %s (median %.2f); p99 %s (median %.2f)" % (
                    k, ", ".join("%.2f" % x for x in v["p50"]), v["p50_median"],
                    ", ".join("%.2f" % x for x in v["p99"]), v["p99_median"]))
    def ratios(peer, query_key, index_key):
        j2 = res["paperdex --jobs 2"].get("ratio_median " + index_key,
                                          res["paperdex --jobs 2"]["works_per_s"] /
                                          res[index_key]["works_per_s"])
        if query_key not in res:
            print("Ratio (paperdex / %s): indexing works/s with --jobs 2: %.2f "
                  "(%s queries not run)" % (peer, j2, peer))
            return
        p, o = res["query paperdex"], res[query_key]
        print("Ratios (paperdex / %s): p50 %.2f, p99 %.2f; indexing works/s with "
              "--jobs 2: %.2f" % (peer, p["p50_ms"] / o["p50_ms"],
                                  p["p99_ms"] / o["p99_ms"], j2))
    print()
    ratios("FTS5", "query sqlite fts5", "sqlite fts5")
    if lucene:
        ratios("Lucene", "query lucene", "lucene")
    print("Figures in %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
