#!/usr/bin/env python3
"""serve_load.py -- `paperdex serve` under load, loopback only, bounded
in time: requests per second, latency and errors at 1, 8, 64 and 256
connections for two mixes, each run during a cron reindex, the server's
peak memory, and the library's own latency for the same queries beside
it, so the HTTP overhead is a number.

usage: serve_load.py [--seconds S] [--threads N] CORPUS

CORPUS is a .jsonl(.gz) file (the arXiv 101k).  Its records are indexed
with `--jobs 2` (all but the last 3,000); after a run of each mix at one
connection on the quiet index, each of the 8 runs starts a reindex that
adds 375 more of them (a file of their own, as cron would
find a new export) while the server is loaded.  The queries are
bench/compare.py's mix (one-, two- and four-word queries, phrases, year
and category filters: 400 queries), sent in random order by `wrk`
(Debian's wrk package) with a Lua script, two ways:

  api   GET /search?q=...&limit=10&snippet=0, as a program asks;
  page  what the search page asks for each search: limit=10, snippets,
        every facet (year, category, subject, author) with facet_limit=20.

Each run lasts S seconds (default 10).  Errors counted: non-2xx answers
and socket errors.  Then each kind of request (no facets, without and
with snippets; year, category and subject; every facet at facet_limit
20 and 10, with snippets as the page asks) is timed one after another
over 200 queries of the mix, on the quiet server.  The server's peak RSS is its VmHWM at the end.  The
library figure is bench/pdx_qbench.c over the same queries (one thread,
one handle, no facets).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def wrk(url, conns, seconds, script):
    threads = min(conns, 2)
    p = subprocess.run(["wrk", "-t%d" % threads, "-c%d" % conns, "-d%ds" % seconds, "--latency",
                        "--timeout", "10s", "-s", script, url], capture_output=True, text=True, check=True)
    out = p.stdout

    def ms(label):
        m = re.search(r"^\s+%s\s+([\d.]+)(us|ms|s)\s*$" % re.escape(label), out, re.M)
        if not m:
            return None
        v = float(m.group(1))
        return v / 1000 if m.group(2) == "us" else v * 1000 if m.group(2) == "s" else v

    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    total = re.search(r"(\d+) requests in", out)
    return {"qps": float(m.group(1)), "p50_ms": ms("50%"), "p99_ms": ms("99%"),
            "requests": int(total.group(1)),
            "errors": (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, sock.groups())) if sock else 0),
            "raw": out}


COST_QUERIES = 200


def request_costs(url, qs):
    """Each request kind over the first COST_QUERIES queries, one after
    another: (label, (mean, p50, p90) in ms), the API's first."""
    import statistics
    import urllib.request
    kinds = [("api (no facets)", {"snippet": "0"}),
             ("api with snippets (no facets)", {}),
             ("year, category and subject facets", {"facets": "year,category,subject", "facet_limit": "20"}),
             ("the page's (every facet, facet_limit=20)",
              {"facets": "year,category,subject,author", "facet_limit": "20"}),
             ("every facet, facet_limit=10", {"facets": "year,category,subject,author", "facet_limit": "10"})]
    out = []
    # one request first: the handles reopen the index the reindex changed
    urllib.request.urlopen(url + "/search?q=warm", timeout=60).read()
    for label, extra in kinds:
        ts = []
        for kind, words, filt in qs[:COST_QUERIES]:
            p = {"q": '"%s"' % words if kind == "phrase" else words, "limit": "10"}
            p.update(extra)
            if filt.startswith("year="):
                p["year"] = filt[5:]
            elif filt.startswith("cat="):
                p["category"] = filt[4:]
            t = time.time()
            urllib.request.urlopen(url + "/search?" + urllib.parse.urlencode(p), timeout=60).read()
            ts.append(1000 * (time.time() - t))
        ts.sort()
        out.append((label, (statistics.mean(ts), ts[len(ts) // 2], ts[int(len(ts) * 0.9)])))
    return out


def rss_mb(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv):
    seconds, threads = 10, 4
    while argv and argv[0].startswith("--"):
        if argv[0] == "--seconds":
            seconds, argv = int(argv[1]), argv[2:]
        elif argv[0] == "--threads":
            threads, argv = int(argv[1]), argv[2:]
        else:
            break
    if len(argv) != 1 or not shutil.which("wrk"):
        sys.stderr.write(__doc__ + ("\n(wrk is not installed: apt-get install wrk)\n"
                                    if not shutil.which("wrk") else ""))
        return 2
    work = tempfile.mkdtemp(prefix="pdx-load-")
    recs = compare.read_records(argv[0], 10 ** 9)
    base = os.path.join(work, "base.jsonl")
    with open(base, "w") as f:
        for r in recs[:-3000]:
            f.write(json.dumps(r) + "\n")
    late = []  # 8 slices of the last 3,000: one for each run's reindex
    for k in range(8):
        late.append(os.path.join(work, "late-%d.jsonl" % k))
        with open(late[-1], "w") as f:
            for r in recs[-3000 + 375 * k: len(recs) - 3000 + 375 * (k + 1)]:
                f.write(json.dumps(r) + "\n")
    db = os.path.join(work, "ix")
    subprocess.run([compare.PDX, "index", "--quiet", "--jobs", "2", "--db", db, base], check=True)

    qs = compare.query_mix(recs[:20000])
    qfile = os.path.join(work, "queries.tsv")
    with open(qfile, "w") as fq:
        for q in qs:
            fq.write("\t".join(q) + "\n")
    scripts = {}
    for mix in ("api", "page"):
        paths = []
        for kind, words, filt in qs:
            text = '"%s"' % words if kind == "phrase" else words
            p = {"q": text, "limit": "10"}
            if mix == "api":
                p["snippet"] = "0"
            else:
                p.update({"facets": "year,category,subject,author", "facet_limit": "20"})
            if filt.startswith("year="):
                p["year"] = filt[5:]
            elif filt.startswith("cat="):
                p["category"] = filt[4:]
            paths.append("/search?" + urllib.parse.urlencode(p))
        scripts[mix] = os.path.join(work, mix + ".lua")
        with open(scripts[mix], "w") as f:
            f.write("paths = {\n" + ",\n".join(json.dumps(p) for p in paths) + "\n}\n"
                    "math.randomseed(42)\n"
                    "request = function()\n  return wrk.format('GET', paths[math.random(#paths)])\nend\n")

    srv = subprocess.Popen([compare.PDX, "serve", "--quiet", "--db", db, "--listen", "127.0.0.1:0",
                            "--threads", str(threads), "--max-connections", "512"],
                           stderr=subprocess.PIPE, text=True)
    url = "http://127.0.0.1:%d" % int(srv.stderr.readline().strip().rsplit(":", 1)[1])
    res, added, conns_list = {}, 0, (1, 8, 64, 256)
    try:
        wrk(url, 1, 2, scripts["api"])  # warm-up
        for mix in ("api", "page"):  # beside them, one connection on a quiet index
            r = res[mix, "quiet"] = wrk(url, 1, seconds, scripts[mix])
            r["rss_mb"] = rss_mb(srv.pid, "VmRSS")
            sys.stderr.write("%s, 1 connection, no reindex: %s\n" % (
                mix, {k: v for k, v in r.items() if k != "raw"}))
        for mix in ("api", "page"):
            for conns in conns_list:
                # cron adds 375 more records while the server is loaded
                reindex = subprocess.Popen([compare.PDX, "index", "--quiet", "--batch", "500", "--db", db,
                                            base] + late[:added + 1])
                t0 = time.time()
                r = res[mix, conns] = wrk(url, conns, seconds, scripts[mix])
                reindex.wait()
                added += 1
                r["reindex"] = "%.1f s" % (time.time() - t0)
                r["rss_mb"] = rss_mb(srv.pid, "VmRSS")
                sys.stderr.write("%s, %d connections: %s\n" % (
                    mix, conns, {k: v for k, v in r.items() if k != "raw"}))
        peak = rss_mb(srv.pid, "VmHWM")
        costs = request_costs(url, qs)
    finally:
        srv.terminate()
        srv.wait(timeout=60)
    works = json.loads(subprocess.run([compare.PDX, "stats", "--db", db, "--format", "json"],
                                      capture_output=True, text=True, check=True).stdout)["works"]
    lib = compare.latency(lambda r: [compare.QB, qfile, str(r), db])
    print("| mix | connections | requests/s | p50 | p99 | errors | RSS after |")
    print("|---|---|---|---|---|---|---|")
    for mix in ("api", "page"):
        for conns in ("quiet",) + conns_list:
            r = res[mix, conns]
            print("| %s | %s | %.0f | %.2f ms | %.2f ms | %d of %d | %.0f MB |" % (
                mix, "1, no reindex" if conns == "quiet" else conns, r["qps"], r["p50_ms"], r["p99_ms"],
                r["errors"], r["requests"], r["rss_mb"]))
    print("| library, 1 thread (pdx_qbench) | 1 | %.0f | %.2f ms | %.2f ms | | |" % (
        lib["qps"], lib["p50_ms"], lib["p99_ms"]))
    print()
    print("Every run during a reindex adding 375 records (%d works at the end); the server's peak RSS %.0f MB."
          % (works, peak))
    print("HTTP overhead at 1 connection (api): p50 %.2f ms (%.2f over the library's %.2f ms); "
          "the page's requests at 1 connection: %.0f/s against the api's %.0f/s"
          % (res["api", 1]["p50_ms"], res["api", 1]["p50_ms"] - lib["p50_ms"], lib["p50_ms"],
             res["page", 1]["qps"], res["api", 1]["qps"]))
    print()
    print("What a request costs, one after another on the quiet server (%d queries of the mix):" % COST_QUERIES)
    print()
    print("| request | mean | p50 | p90 |")
    print("|---|---|---|---|")
    for label, (mean, p50, p90) in costs:
        print("| %s | %.1f ms | %.1f ms | %.1f ms |" % (label, mean, p50, p90))
    shutil.rmtree(work)
    return 0 if all(r["errors"] == 0 for r in res.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
