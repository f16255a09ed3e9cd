#!/usr/bin/env python3
"""serve.py PAPERDEX SRC -- `paperdex serve` on a free loopback port, over
the sample corpus:

* every endpoint (/search with each parameter, /works/ID, /works/ID/similar,
  /stats, /healthz, /) answers, and /search, /works and /similar bodies
  equal the CLI's `--format json` output for the same query;
* errors are JSON with the right status and name the parameter or the
  query position: a bad query, invalid UTF-8 in q, limit=-1, offset=1e30,
  an unknown parameter value, an unknown id, a path-traversal attempt, a
  POST, a 1 MB URL;
* 300 idle connections and a client that disconnects mid-response neither
  stop it nor slow the next request; SIGTERM stops it, exit 0;
* a search keeps working while the index is rebuilt and swapped in
  (`paperdex index --full`), and sees the rebuilt index afterwards;
* without libmicrohttpd, which it loads when it starts, it says so and
  exits 1 (where a mount namespace can hide the library).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, free_port  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="pdx-serve-")
db = os.path.join(tmp, "ix")
samples = os.path.join(os.path.abspath(SRC), "corpus", "samples")
subprocess.run([PDX, "index", "--quiet", "--db", db, samples], check=True)

SRC_ABS = os.path.abspath(SRC)
srv = subprocess.Popen([PDX, "serve", "--db", db, "--listen", "127.0.0.1:0", "--threads", "3",
                        "--timeout", "3", "--source-root", SRC_ABS],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
line = srv.stderr.readline()
check("it says where it listens", line.startswith("listening on http://127.0.0.1:"), line)
# Its output read as it comes: the access log is a line per request, and
# a pipe nobody reads fills (64 KB) and blocks the server's next log
# write, and with it every request (seen under load in the rebuild loop
# below, which asks as fast as it can).
out_lines, err_lines = [], []
drains = [threading.Thread(target=lambda f=f, into=into: into.extend(f), daemon=True)
          for f, into in ((srv.stdout, out_lines), (srv.stderr, err_lines))]
for t in drains:
    t.start()
port = int(line.strip().rsplit(":", 1)[1])
BASE = "http://127.0.0.1:%d" % port


def get(path, method="GET", data=None):
    req = urllib.request.Request(BASE + path, method=method, data=data)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def shown(path):
    """A source file as the server shows it: relative to --source-root
    when under it, else its base name."""
    return path[len(SRC_ABS) + 1:] if path.startswith(SRC_ABS + "/") else os.path.basename(path)


def hide_paths(doc):
    """The CLI's JSON with its sources' files as the server shows them."""
    for w in (doc.get("hits") or []) + [doc]:
        for so in w.get("sources") if isinstance(w.get("sources"), list) else []:
            if "file" in so:
                so["file"] = shown(so["file"])
    return doc


def cli(*args):
    p = subprocess.run([PDX] + list(args), capture_output=True, text=True)
    return hide_paths(json.loads(p.stdout)) if p.returncode == 0 else None


def same_as_cli(label, path, args):
    st, ctype, body = get(path)
    want = cli(*args)
    got = json.loads(body) if st == 200 else None
    check(label + ": 200, JSON", st == 200 and ctype.startswith("application/json"), (st, ctype, body[:200]))
    check(label + ": equals the CLI's --format json", got == want and want is not None,
          (str(got)[:300], str(want)[:300]))


# ---- the API against the CLI -------------------------------------------
q = urllib.parse.quote
same_as_cli("search", "/search?q=" + q("glacier mapping"),
            ["search", "--db", db, "--format", "json", "glacier mapping"])
same_as_cli("search with every parameter",
            "/search?q=" + q("networks") + "&year=2010..2022&category=cs&author=" + q("Løvås") +
            "&sort=newest&limit=3&offset=1&facets=year,category,author&snippet=80&explain=1&k1=1.0&b=0.5",
            ["search", "--db", db, "--format", "json", "--year", "2010..2022", "--category", "cs",
             "--author", "Løvås", "--sort", "newest", "--limit", "3", "--offset", "1",
             "--facets", "year,category,author", "--snippet", "80", "--explain", "--k1", "1.0",
             "--b", "0.5", "networks"])
same_as_cli("search ranked by flat BM25, and with the proximity weight",
            "/search?q=" + q("peat bog methane") + "&rank=bm25&proximity=0.25&explain=1",
            ["search", "--db", db, "--format", "json", "--rank", "bm25", "--proximity-weight", "0.25",
             "--explain", "peat bog methane"])
same_as_cli("search, repeated filters (each must hold)", "/search?q=&category=cs.CV&category=q-bio&limit=50",
            ["search", "--db", db, "--format", "json", "--category", "cs.CV", "--category", "q-bio",
             "--limit", "50"])
same_as_cli("every dated work, merged ones included (their records kept per source)",
            "/search?year=1000..&limit=100&sort=oldest",
            ["search", "--db", db, "--format", "json", "--year", "1000..", "--limit", "100", "--sort", "oldest"])
same_as_cli("many hits with snippets and explanations",
            "/search?q=" + q("data OR study OR approach") + "&limit=60&snippet=300&explain=1",
            ["search", "--db", db, "--format", "json", "--limit", "60", "--snippet", "300", "--explain",
             "data OR study OR approach"])
same_as_cli("subjects: alternatives in one value (|) and facet",
            "/search?subject=" + q("Malaria|citizen science") + "&facets=subject,year&snippet=0",
            ["search", "--db", db, "--format", "json", "--subject", "Malaria|citizen science",
             "--facets", "subject,year", "--snippet", "0"])
st, _, body = get("/search?subject=" + q("Malaria|citizen science"))
check("the subject filter finds works of two formats",
      st == 200 and sorted(h["id"] for h in json.loads(body)["hits"]) == ["W9000000001", "W9000000005"], body[:200])
st, _, body = get("/search?subject=Malaria&subject=" + q("citizen science"))
check("a repeated subject filter narrows: no work has both",
      st == 200 and json.loads(body)["total"] == 0, body[:200])
# A facet click narrows, and the count a facet shows is the total its
# click gives: for each category and author shown under a search already
# filtered by a category, the search with that value added.
def facet_clicks(base):
    st, _, body = get(base + "&facets=category,author&limit=0")
    if st != 200:
        return ["%s: %d" % (base, st)]
    facets, total, wrong, tried = json.loads(body)["facets"], json.loads(body)["total"], [], 0
    for key in ("category", "author"):
        for v in facets.get(key, [])[:8]:
            st, _, b = get(base + "&%s=%s&limit=0" % (key, q(v["value"])))
            got = json.loads(b)["total"] if st == 200 else None
            tried += 1
            if got != v["count"] or got > total:
                wrong.append((key, v["value"], v["count"], got, total))
    return wrong if tried >= 8 else ["only %d values" % tried]
for base in ("/search?q=" + q("data OR model OR study"), "/search?q=" + q("data OR model OR study") + "&category=cs"):
    w = facet_clicks(base)
    check("facet counts are what a click gives, and a click narrows: " + base, not w, w)
st, _, body = get("/search?author=" + q("Varga SH") + "&snippet=0")
hits = json.loads(body)["hits"] if st == 200 else []
check("author= reads the name rules (PubMed initials of a hyphenated name) and marks the matched author",
      sorted(h["id"] for h in hits) == ["names:008", "names:010", "names:011"] and
      all(h.get("matched_authors") and all("Varga" in a for a in h["matched_authors"]) for h in hits),
      body[:300])
st, _, body = get("/search?q=" + q('author:"Varga, S.-H."') + "&snippet=0")
want = cli("search", "--db", db, "--format", "json", "--snippet", "0", "--author", "Varga, S.-H.")
check("author: in the query is the author filter (the same hits, newest first)",
      st == 200 and want and json.loads(body)["hits"] == want["hits"], body[:300])
st, _, body = get("/works/pmid:90000003")
check("a PMID a DeleteCitation removed is 404", st == 404, (st, body[:100]))
same_as_cli("search with feedback", "/search?q=" + q("coral reef") + "&expand=1",
            ["search", "--db", db, "--format", "json", "--expand", "coral reef"])
same_as_cli("similar", "/works/1406.10925/similar?limit=4",
            ["similar", "--db", db, "--format", "json", "--limit", "4", "1406.10925"])
st, _, body = get("/works/1406.10925")
want = cli("show", "--db", db, "--format", "json", "1406.10925")
check("works/ID equals show --format json", st == 200 and json.loads(body) == want, body[:200])
for form in ("arXiv:1406.10925", "1406.10925v2", "https://arxiv.org/abs/1406.10925",
             "https://arxiv.org/pdf/1406.10925v1.pdf"):
    st, _, body = get("/works/" + q(form, safe=""))
    check("/works/ with the id as pasted: %s" % form,
          st == 200 and json.loads(body)["id"] == "1406.10925", (st, body[:120]))
st, _, body = get("/works/cs/0302017")
check("an id with a slash", st == 200 and json.loads(body)["id"] == "cs/0302017", (st, body[:120]))
st, _, body = get("/stats")
sj, cj = json.loads(body), cli("stats", "--db", db, "--format", "json")
check("stats", st == 200 and sj["works"] == cj["works"] and sj["layout"] == cj["layout"], body[:200])
check("/stats names the index, not its path", sj.get("db") == "ix", sj.get("db"))
# No path of the server's disk in an answer: sources relative to
# --source-root (corpus/samples/...), the index by its name.
leaks = [p for p in ("/search?q=glacier&limit=50", "/search?q=&category=cs&limit=100", "/works/1406.10925",
                     "/stats", "/search?q=(unbalanced") if tmp.encode() in get(p)[2] or SRC_ABS.encode() in get(p)[2]]
check("no answer holds the server's paths", not leaks, leaks)
st, _, body = get("/search?q=glacier&limit=50")
files = {so["file"] for h in json.loads(body)["hits"] for so in h.get("sources", []) if "file" in so}
check("sources are shown relative to --source-root", files and all(f.startswith("corpus/samples/") for f in files),
      sorted(files)[:5])
st, _, body = get("/healthz")
check("healthz", st == 200 and json.loads(body) == {"status": "ok", "works": cj["works"]}, body)
st, ctype, body = get("/")
check("the search page", st == 200 and ctype.startswith("text/html") and b"<form" in body
      and b'"/search?"' in body, (st, ctype))
with urllib.request.urlopen(BASE + "/", timeout=20) as r:
    csp, xfo = r.headers.get("Content-Security-Policy", ""), r.headers.get("X-Frame-Options", "")
check("the page says what it may load (CSP) and is never framed",
      "default-src 'none'" in csp and "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp
      and xfo == "DENY", (csp, xfo))
st, ctype, icon = get("/favicon.ico")
check("a favicon", st == 200 and ctype == "image/svg+xml" and icon.startswith(b"<svg"), (st, ctype))
check("the page loads nothing from elsewhere (links out are links, not loads)",
      b"src=\"http" not in body and b"<link" not in body and b"@import" not in body and b"url(http" not in body)

# ---- errors ---------------------------------------------------------------
same_as_cli("the total counted exactly up to count=, then gte",
            "/search?q=" + q("model data") + "&limit=1&count=3",
            ["search", "--db", db, "--format", "json", "--limit", "1", "--count-limit", "3", "model data"])
same_as_cli("count=all: every match counted", "/search?q=" + q("model data") + "&limit=1&count=all",
            ["search", "--db", db, "--format", "json", "--limit", "1", "--exact", "model data"])
st, _, body = get("/search?q=" + q("model data") + "&limit=1&count=3")
got = json.loads(body) if st == 200 else {}
check("count=3 below the matches: total 3, gte", (got.get("total"), got.get("total_relation")) == (3, "gte"),
      body[:200])


def error(label, path, status, param=None, text=None, method="GET"):
    st, ctype, body = get(path, method=method)
    try:
        e = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        e = None
    ok = st == status and e is not None and e["status"] == status
    if param:
        ok = ok and e.get("parameter") == param
    if text:
        ok = ok and text in e["message"]
    check(label + ": %d" % status, ok, (st, body[:300]))


error("unbalanced query", "/search?q=" + q("title:(glacier AND"), 400, "q", "position 7")
error("invalid UTF-8 in q", "/search?q=%ff%fe", 400, "q", "UTF-8")
error("limit=-1", "/search?q=x&limit=-1", 400, "limit")
error("offset=1e30", "/search?q=x&offset=1e30", 400, "offset")
error("k1=nan", "/search?q=x&k1=nan", 400, "k1")
error("rank=bm26", "/search?q=x&rank=bm26", 400, "rank")
error("proximity=-1", "/search?q=x&proximity=-1", 400, "proximity")
error("count=0", "/search?q=x&count=0", 400, "count")
error("count=many", "/search?q=x&count=many", 400, "count")
error("sort=sideways", "/search?q=x&sort=sideways", 400, "sort")
error("facets=colour", "/search?q=x&facets=colour", 400, "facets")
error("year=20x1", "/search?q=x&year=20x1", 400, "year")
error("empty query, no filter", "/search", 400, None, "empty query")
# "Did you mean" by default, none with suggest=0 (a client that shows
# none need not pay for it); the value is checked like every flag.
st, _, body = get("/search?q=" + q("glaceir mappnig"))
check("a misspelt query gets a suggestion", st == 200 and json.loads(body).get("suggestion") == "glacier mapping",
      body[:200])
st, _, body = get("/search?q=" + q("glaceir mappnig") + "&suggest=0")
check("suggest=0: no suggestion", st == 200 and "suggestion" not in json.loads(body), body[:200])
error("facet_limit from 1 to 100", "/search?q=glacier&facet_limit=101", 400, "facet_limit", "from 1 to 100")
error("facet_limit of 0", "/search?q=glacier&facet_limit=0", 400, "facet_limit")
st, _, body = get("/search?q=" + q("data OR model OR study") + "&facets=author,category&facet_limit=3&limit=0")
check("facet_limit lists that many values", st == 200 and all(len(v) == 3 for v in json.loads(body)["facets"].values()),
      body[:300])
error("suggest takes 1 or 0", "/search?q=glacier&suggest=maybe", 400, "suggest", "suggest takes 1 or 0")
error("a misspelt parameter", "/search?q=glacier&categroy=cs.CV", 400, "categroy", "unknown parameter")
error("a parameter /search does not take", "/search?q=glacier&page=2", 400, "page", "unknown parameter")
error("%00 in q", "/search?q=glacier%00mapping", 400, "q", "NUL")
error("a parameter /works/ID does not take", "/works/sample:047?limit=3", 400, "limit", "takes format")
st, _, body = get("/works/sample:047/similar?limit=2")
check("/works/ID/similar takes limit", st == 200 and len(json.loads(body)["hits"]) <= 2, body[:200])
error("unknown id", "/works/no-such-work", 404, None, "no work")
error("similar to an unknown id", "/works/no-such-work/similar", 404, None, "no work")
error("path traversal", "/works/..%2f..%2fetc%2fpasswd", 404)
error("path traversal in the path", "/../../etc/passwd", 404)
error("unknown path", "/admin", 404)
error("POST", "/search?q=x", 405, method="POST")
st, ctype, body = get("/search?q=" + "a" * (1 << 20))
check("a 1 MB URL is refused with a JSON 414", st == 414 and ctype.startswith("application/json") and
      json.loads(body)["error"]["status"] == 414 and "24576" in json.loads(body)["error"]["message"], (st, body[:200]))

# ---- floods and bodies that never end: an answer at once, in JSON --------


def raw(request, wait=5.0, after=None):
    """Send request bytes as they are; the status and the JSON error of
    what comes back within `wait` seconds (None, None if nothing).  With
    `after`, the request is the second of a kept-alive connection, sent
    once `after` was answered 200."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(wait)
    if after:
        s.sendall(after)
        if not s.recv(65536).startswith(b"HTTP/1.1 200"):
            s.close()
            return None, None
    s.sendall(request)
    data = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            data += d
            if b"\r\n\r\n" in data and data.rstrip().endswith(b"}"):
                break
    except OSError:
        pass
    s.close()
    if not data.startswith(b"HTTP/1.1 "):
        return None, None
    body = data[data.find(b"\r\n\r\n") + 4:]
    try:
        return int(data[9:12]), json.loads(body)["error"]
    except (ValueError, KeyError):
        return int(data[9:12]), None


# A request head past 24 KB, or of more than 100 header fields: a JSON
# 414 (the URL is most of it) or 431 (the headers), on a connection's
# first request (the gate answers it) and on a later one of a kept-alive
# connection (the handler does); a head just under the bounds is served.
for label, req, status, says in (
        ("a 40 KB URL", b"GET /search?q=" + b"a" * 40000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414,
         "request line (the URL) is longer than 24576 bytes"),
        ("a 20 KB URL and 5 KB of headers", b"GET /search?q=" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n" +
         b"X-Pad: " + b"b" * 5000 + b"\r\n\r\n", 414, "20024 of them its request line"),
        ("a 40 KB header", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"b" * 40000 + b"\r\n\r\n", 431,
         "headers are longer than 24576 bytes"),
        ("101 header fields", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\n" +
         b"".join(b"X-P%d: 1\r\n" % i for i in range(100)) + b"\r\n", 431, "more than 100 header fields"),
        ("1,000 empty header fields", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\n" +
         b"".join(b"a%d:\r\n" % i for i in range(1000)) + b"\r\n", 431, "more than 100 header fields")):
    st, e = raw(req)
    check(label + ": %d in JSON" % status, st == status and e is not None and e["status"] == status and
          says in e["message"], (st, e))
st, e = raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"d" * 24000 + b"\r\nConnection: close\r\n\r\n")
check("a 24,000-byte header (a head under 24 KB) is served", st == 200, (st, e))
st, e = raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-P%d: 1\r\n" % i for i in range(98)) +
            b"Connection: close\r\n\r\n")
check("100 header fields are served", st == 200, (st, e))


def second(request):
    """The status and JSON error of `request` sent as the second request
    of a kept-alive connection, after a /healthz."""
    return raw(request, after=b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")


for label, req, status in (
        ("a 28 KB URL", b"GET /search?q=" + b"a" * 28000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("a 28 KB header", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"b" * 28000 + b"\r\n\r\n", 431),
        ("150 header fields", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\n" +
         b"".join(b"X-P%d: 1\r\n" % i for i in range(150)) + b"\r\n", 431)):
    st, e = second(req)
    check(label + " as a kept-alive connection's second request: %d in JSON" % status,
          st == status and e is not None and e["status"] == status, (st, e))
# A head sent in pieces, the pieces apart: the gate waits for the rest.
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(5)
for part in (b"GET /hea", b"lthz HTTP/1.1\r\n", b"Host: x\r\n", b"Connection: close\r\n", b"\r\n"):
    s.sendall(part)
    time.sleep(0.2)
got = s.recv(65536)
s.close()
check("a head sent in five pieces is served", got.startswith(b"HTTP/1.1 200"), got[:80])

for n in (65, 500, 2000):
    st, e = raw(("GET /search?q=x&%s HTTP/1.1\r\nHost: x\r\n\r\n" % "&".join(["a"] * n)).encode())
    check("%d query parameters: 400 in JSON" % (n + 1), st == 400 and e and "parameters" in e["message"],
          (st, e))
for label, req, status in (
        ("POST with Content-Length 10 GB and no body", b"POST /search HTTP/1.1\r\nHost: x\r\n"
         b"Content-Length: 10000000000\r\n\r\n", 405),
        ("a chunked POST that never ends", b"POST /search HTTP/1.1\r\nHost: x\r\n"
         b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", 405),
        ("a GET announcing a body it never sends", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\n"
         b"Content-Length: 100\r\n\r\nabc", 413),
        ("a chunked GET that never ends", b"GET /search?q=x HTTP/1.1\r\nHost: x\r\n"
         b"Transfer-Encoding: chunked\r\n\r\n5\r\nhel", 413)):
    t0 = time.time()
    st, e = raw(req)
    check(label + ": %d in JSON at once (%.2f s)" % (status, time.time() - t0),
          st == status and e is not None and e["status"] == status and time.time() - t0 < 2, (st, e))

# ---- slow clients (slowloris): --timeout is a deadline for the headers ---


def trickle(out, i):
    """A client sending its headers a line every half second, for up to 10
    s: how long until the server closed the connection (None: never)."""
    s = socket.create_connection(("127.0.0.1", port))
    t0 = time.time()
    try:
        s.sendall(b"GET /search?q=glacier HTTP/1.1\r\nHost: x\r\n")
        s.settimeout(0.5)
        while time.time() - t0 < 10:
            try:
                if s.recv(100) == b"":
                    out[i] = time.time() - t0
                    return
            except socket.timeout:
                pass
            s.sendall(b"X-Slow: still here\r\n")
    except OSError:
        out[i] = time.time() - t0
        return
    finally:
        s.close()


slow_done = [None] * 40
slow_threads = [threading.Thread(target=trickle, args=(slow_done, i)) for i in range(40)]
for t in slow_threads:
    t.start()
time.sleep(1)
st, _, _ = get("/search?q=glacier")
check("40 slow clients trickling headers: a search is still answered", st == 200, st)
for t in slow_threads:
    t.join()
cut = [d for d in slow_done if d is not None]
check("each slow client is cut off at --timeout 3 (within 5 s), however it trickles",
      len(cut) == 40 and max(cut) < 5.5, sorted(round(d, 1) for d in cut) if cut else slow_done[:5])

# ---- idle and vanishing clients -------------------------------------------
idle = []
for _ in range(300):
    s = socket.create_connection(("127.0.0.1", port))
    idle.append(s)
t0 = time.time()
st, _, _ = get("/search?q=glacier")
check("300 idle connections: a search is still answered", st == 200, st)
# 256 are served and 44 wait to be accepted, ahead of the search: the
# search gets in once idle ones are cut at --timeout 3, after two rounds
# of cuts at worst (when the 44 take the slots first freed).
check("... promptly (%.2f s)" % (time.time() - t0), time.time() - t0 < 7.5)
for s in idle:
    s.close()
for _ in range(20):  # ask for a big page and hang up before reading it
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /search?q=the&limit=1000&snippet=500 HTTP/1.1\r\nHost: x\r\n\r\n")
    s.close()
slow = socket.create_connection(("127.0.0.1", port))
slow.sendall(b"GET /search?q=gla")  # never finishes its request
time.sleep(4)  # past --timeout 3
try:
    slow.sendall(b"cier HTTP/1.1\r\n\r\n")
    got = slow.recv(100)
except OSError:
    got = b""
check("a slow client is cut off after --timeout", got == b"", got)
st, _, _ = get("/search?q=glacier")
check("after clients that hung up, a search is answered", st == 200, st)

# ---- a rebuild under the server -------------------------------------------
extra = os.path.join(tmp, "extra.jsonl")
with open(extra, "w") as f:
    f.write(json.dumps({"id": "serve-1", "title": "Axolotl regeneration atlas",
                        "abstract": "An atlas of axolotl limb regeneration.", "year": 2024}) + "\n")
reindex = subprocess.Popen([PDX, "index", "--quiet", "--full", "--db", db, samples, extra])
codes = []
while reindex.poll() is None:
    codes.append(get("/search?q=glacier")[0])
reindex.wait()
check("searches during a --full rebuild all answered (%d)" % len(codes), set(codes) <= {200}, codes[:20])
st, _, body = get("/search?q=axolotl")
check("after the swap, the rebuilt index is searched", st == 200 and json.loads(body)["total"] == 1, body[:200])

# ---- the index gone from under it: 503, then back -------------------------
os.rename(db, db + ".away")
st, _, body = get("/search?q=glacier")  # no index at all: the message names it, by its name only
check("a 503 names the index by its name, not its path", st == 503 and b"'ix'" in body and tmp.encode() not in body,
      body[:300])
os.makedirs(db)  # an empty directory where the index was
codes = {get("/search?q=glacier")[0] for _ in range(6)} | {get("/healthz")[0] for _ in range(6)}
st, _, body = get("/search?q=glacier")
check("while the index cannot be opened: 503, JSON", codes == {503} and json.loads(body)["error"]["status"] == 503,
      (codes, body[:200]))
check("the 503 does not hold the index's path", tmp.encode() not in body, body[:300])
os.rmdir(db)
os.rename(db + ".away", db)
check("and 200 once it is back", get("/search?q=glacier")[0] == 200 and get("/healthz")[0] == 200)

# ---- gzip, ETag, CORS ------------------------------------------------------
def raw(path, headers=None, method="GET", base=None):
    """(status, headers, body as sent) of one request with these headers."""
    import http.client
    host, port_ = (base or BASE)[len("http://"):].split(":")
    conn = http.client.HTTPConnection(host, int(port_), timeout=20)
    conn.request(method, path, headers=headers or {})
    r = conn.getresponse()
    out = (r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
    conn.close()
    return out


big = "/search?q=" + q("data OR model OR study") + "&limit=50&snippet=300"
st, hd, plain = raw(big)
st2, hd2, zipped = raw(big, {"Accept-Encoding": "gzip, deflate"})
import gzip as _gzip  # noqa: E402
check("a large answer is gzipped for a client that takes it, and unzips to the plain answer",
      st == st2 == 200 and hd2.get("content-encoding") == "gzip" and "content-encoding" not in hd
      and _gzip.decompress(zipped) == plain and len(zipped) < len(plain) / 2,
      (hd2.get("content-encoding"), len(zipped), len(plain)))
st3, hd3, _ = raw(big, {"Accept-Encoding": "gzip;q=0"})
check("gzip;q=0 is refused gzip", st3 == 200 and "content-encoding" not in hd3, hd3.get("content-encoding"))
tag = hd.get("etag")
st4, hd4, body4 = raw(big, {"If-None-Match": tag or "none"})
check("an answer carries an ETag, and the same request with If-None-Match gets a 304 and no body",
      bool(tag) and st4 == 304 and body4 == b"" and hd4.get("etag") == tag, (tag, st4, body4[:80]))
st5, hd5, _ = raw("/search?q=glacier", {"Origin": "https://app.example.org"})
st6, _, _ = raw("/search?q=glacier", {"Origin": "https://app.example.org"}, method="OPTIONS")
check("without --cors: no CORS header, and OPTIONS is a 405",
      st5 == 200 and "access-control-allow-origin" not in hd5 and st6 == 405, (hd5, st6))
srv3 = subprocess.Popen([PDX, "serve", "--quiet", "--db", db, "--listen", "127.0.0.1:0",
                         "--cors", "https://app.example.org"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                        text=True)
base3 = "http://127.0.0.1:%d" % int(srv3.stderr.readline().strip().rsplit(":", 1)[1])
try:
    st, hd, _ = raw("/search?q=glacier", {"Origin": "https://app.example.org"}, base=base3)
    check("--cors ORIGIN: that origin may read the answers",
          st == 200 and hd.get("access-control-allow-origin") == "https://app.example.org", hd)
    st, hd, _ = raw("/works/1406.10925", {"Origin": "https://app.example.org"}, base=base3)
    check("--cors ORIGIN: a work's answer too", st == 200 and
          hd.get("access-control-allow-origin") == "https://app.example.org", hd)
    st, hd, _ = raw("/search?q=glacier", {"Origin": "https://evil.example.com"}, base=base3)
    check("--cors ORIGIN: another origin may not", st == 200 and "access-control-allow-origin" not in hd, hd)
    st, hd, _ = raw("/search?q=glacier", {"Origin": "https://app.example.org",
                                          "Access-Control-Request-Method": "GET"}, method="OPTIONS", base=base3)
    check("--cors ORIGIN: the preflight is a 204 allowing GET",
          st == 204 and hd.get("access-control-allow-origin") == "https://app.example.org"
          and "GET" in hd.get("access-control-allow-methods", ""), (st, hd))
finally:
    srv3.terminate()
    srv3.wait(timeout=30)
p3 = subprocess.run([PDX, "serve", "--db", db, "--cors", "app.example.org"], capture_output=True, text=True,
                    timeout=10)
check("--cors without a scheme is a usage error", p3.returncode == 2 and "--cors" in p3.stderr, p3.stderr)

# ---- SIGHUP, the access log and the stop -----------------------------------
srv.send_signal(signal.SIGHUP)
time.sleep(0.3)
check("SIGHUP leaves it serving", srv.poll() is None and get("/healthz")[0] == 200, srv.poll())
srv.send_signal(signal.SIGTERM)
try:
    srv.wait(timeout=15)
except subprocess.TimeoutExpired:
    srv.kill()
    srv.wait()
for t in drains:
    t.join(timeout=15)
out, err = "".join(out_lines), "".join(err_lines)
check("SIGTERM stops it, exit 0", srv.returncode == 0 and "stopped on SIGTERM" in err, (srv.returncode, err[-300:]))
check("SIGHUP said it had nothing to reopen", "SIGHUP: nothing to reopen" in err, err[-300:])
log = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
check("one JSON access-log line per request", len(log) >= 30 and
      all({"remote", "request", "status", "bytes", "ms"} <= set(l) for l in log), len(log))
check("the log has the errors' statuses", any(l["status"] == 404 for l in log) and any(l["status"] == 400 for l in log))
check("the log has the requests refused at the gate, by method and path",
      any(l["status"] == 414 and l["request"] == "GET /search" and l.get("ended") == "request line too long"
          for l in log) and
      any(l["status"] == 431 and l["request"] == "GET /search" for l in log),
      [l for l in log if l["status"] in (414, 431)][:4])
# An access log nobody reads: standard output a pipe that fills (64 KiB, a
# few hundred lines) never stalls the serving; the lines past the queue
# are dropped and counted.
port2 = free_port()
srv2 = subprocess.Popen([PDX, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port2],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
srv2.stderr.readline()
slow, t0 = 0, time.time()
for i in range(3000):
    t1 = time.time()
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port2, timeout=5) as r:
            r.read()
    except Exception:
        slow += 1
        if slow > 3:
            break
    slow += time.time() - t1 > 1
check("3,000 requests with the log unread: every one answered at once (%.1f s)" % (time.time() - t0),
      slow == 0, slow)
srv2.send_signal(signal.SIGTERM)
try:
    rc2 = srv2.wait(timeout=30)
except subprocess.TimeoutExpired:
    srv2.kill()
    rc2 = srv2.wait()
check("and it stops on SIGTERM, exit 0, though its log cannot be written", rc2 == 0, rc2)
p = subprocess.run([PDX, "serve", "--db", os.path.join(tmp, "nothing")], capture_output=True, text=True, timeout=10)
check("a missing index: exit 1, named", p.returncode == 1 and "nothing" in p.stderr, p.stderr)
p = subprocess.run([PDX, "serve", "--db", db, "--listen", "localhost"], capture_output=True, text=True, timeout=10)
check("a bad --listen: exit 2", p.returncode == 2 and "--listen" in p.stderr, p.stderr)
# Without libmicrohttpd (loaded when serve starts): exit 1, the library
# named.  Checked where a mount namespace can hide it (root, unshare),
# the library found as the dynamic loader finds it (ldconfig's cache).
cache = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
lib = next((l.split(" => ")[-1].strip() for l in cache.splitlines()
            if l.strip().startswith("libmicrohttpd.so.")), None)
empty = os.path.join(tmp, "empty.so")
open(empty, "w").close()
if lib and subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0:
    p = subprocess.run(["unshare", "-m", "sh", "-c", 'mount --bind "$1" "$(readlink -f "$2")" && exec "$3" serve '
                        '--db "$4" --listen 127.0.0.1:0', "sh", empty, lib, PDX, db],
                       capture_output=True, text=True, timeout=30)
    check("no libmicrohttpd: exit 1, the library named",
          p.returncode == 1 and "cannot load libmicrohttpd.so" in p.stderr, (p.returncode, p.stderr))
else:
    print("(no mount namespace here: serve without libmicrohttpd is not checked)")
shutil.rmtree(tmp)
done()
