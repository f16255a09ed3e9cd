#!/usr/bin/env python3
"""serve_load.py -- `paperdex serve` under load, loopback only, bounded
in time: queries per second and latency at 1, 8 and 64 connections, with
a cron reindex committing into the index during the 8-connection run, and
the library's own latency for the same queries beside it, so the HTTP
overhead is a number.

usage: serve_load.py [--seconds S] [--threads N] CORPUS

CORPUS is a .jsonl(.gz) file (the arXiv 101k).  Its records are indexed
with `--jobs 2` (all but the last 3,000, which the reindex adds while the
server is loaded); the query mix is bench/compare.py's (one-, two- and
four-word queries, phrases, year and category filters: 400 queries), each
sent as GET /search?q=...&limit=10 in random order by `wrk` (Debian's
wrk package) with a Lua script.  Each run lasts S seconds (default 10).
Errors counted: non-2xx answers and socket errors.  The library figure is
bench/pdx_qbench.c over the same queries (one thread, one handle).
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
    base, late = os.path.join(work, "base.jsonl"), os.path.join(work, "late.jsonl")
    with open(base, "w") as f:
        for r in recs[:-3000]:
            f.write(json.dumps(r) + "\n")
    with open(late, "w") as f:
        for r in recs[-3000:]:
            f.write(json.dumps(r) + "\n")
    db = os.path.join(work, "ix")
    subprocess.run([compare.PDX, "index", "--quiet", "--jobs", "2", "--db", db, base], check=True)

    qs = compare.query_mix(recs[:20000])
    qfile = os.path.join(work, "queries.tsv")
    with open(qfile, "w") as fq:
        for q in qs:
            fq.write("\t".join(q) + "\n")
    paths = []
    for kind, words, filt in qs:
        text = '"%s"' % words if kind == "phrase" else words
        p = {"q": text, "limit": "10", "snippet": "0"}
        if filt.startswith("year="):
            p["year"] = filt[5:]
        elif filt.startswith("cat="):
            p["category"] = filt[4:]
        paths.append("/search?" + urllib.parse.urlencode(p))
    script = os.path.join(work, "mix.lua")
    with open(script, "w") as f:
        f.write("paths = {\n" + ",\n".join(json.dumps(p) for p in paths) + "\n}\n"
                "math.randomseed(42)\n"
                "request = function()\n  return wrk.format('GET', paths[math.random(#paths)])\nend\n")

    srv = subprocess.Popen([compare.PDX, "serve", "--quiet", "--db", db, "--listen", "127.0.0.1:0",
                            "--threads", str(threads)], stderr=subprocess.PIPE, text=True)
    url = "http://127.0.0.1:%d" % int(srv.stderr.readline().strip().rsplit(":", 1)[1])
    res = {}
    try:
        wrk(url, 1, 2, script)  # warm-up
        for conns in (1, 8, 64):
            reindex = None
            if conns == 8:  # cron adds 3,000 records while the server is loaded
                reindex = subprocess.Popen([compare.PDX, "index", "--quiet", "--batch", "500", "--db", db,
                                            base, late])
            t0 = time.time()
            res[conns] = wrk(url, conns, seconds, script)
            if reindex:
                reindex.wait()
                res[conns]["reindex"] = "3,000 records added in %.1f s, during the run" % (time.time() - t0)
            sys.stderr.write("%d connections: %s\n" % (conns, {k: v for k, v in res[conns].items() if k != "raw"}))
    finally:
        srv.terminate()
        srv.wait(timeout=30)
    lib = compare.latency(lambda r: [compare.QB, qfile, str(r), db])
    print("| connections | queries/s | p50 | p99 | errors | |")
    print("|---|---|---|---|---|---|")
    for conns in (1, 8, 64):
        r = res[conns]
        print("| %d | %.0f | %.2f ms | %.2f ms | %d of %d | %s |" % (
            conns, r["qps"], r["p50_ms"], r["p99_ms"], r["errors"], r["requests"], r.get("reindex", "")))
    print("| library, 1 thread (pdx_qbench) | %.0f | %.2f ms | %.2f ms | | |" % (
        lib["qps"], lib["p50_ms"], lib["p99_ms"]))
    print()
    print("HTTP overhead at 1 connection: p50 %.2f ms (%.2f over the library's %.2f ms)" % (
        res[1]["p50_ms"], res[1]["p50_ms"] - lib["p50_ms"], lib["p50_ms"]))
    shutil.rmtree(work)
    return 0 if all(res[c]["errors"] == 0 for c in res) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
