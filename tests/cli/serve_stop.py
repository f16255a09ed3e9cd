#!/usr/bin/env python3
"""serve_stop.py PAPERDEX SHARED -- `paperdex serve` answers the requests
in flight when it is stopped.

An index of the first 20,000 records of the arXiv 101k (in SHARED); a
request that takes about a second (a page of 5,000 works with long
snippets and every facet); SIGTERM sent 0.1 s into it.
The client must get its whole answer (a 200 and a JSON body), the server
must exit 0 soon after, and a request begun after the signal must be
refused (it stopped accepting).  Exit 77 (skipped) without SHARED.
"""
import gzip
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, scratch  # noqa: E402

PDX, SHARED = sys.argv[1], sys.argv[2]
ARXIV = os.path.join(SHARED, "data", "arxiv-101k.jsonl.gz")
if not os.path.exists(ARXIV):
    print("SKIP: %s is absent (../shared beside the checkout)" % ARXIV)
    sys.exit(77)
T = scratch("pdx-serve-stop-")
src, db = os.path.join(T, "arxiv-20k.jsonl"), os.path.join(T, "ix")
with gzip.open(ARXIV, "rt", encoding="utf-8") as f, open(src, "w", encoding="utf-8") as out:
    out.writelines(itertools.islice(f, 20000))
p = subprocess.run([PDX, "index", "--quiet", "--jobs", "2", "--db", db, src], capture_output=True, text=True)
check("the 20,000 records index", p.returncode == 0, p.stderr[-300:])

s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
srv = subprocess.Popen([PDX, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port, "--quiet",
                        "--time-budget", "0"], stderr=subprocess.PIPE, text=True)
ready = srv.stderr.readline()
check("it listens", "listening on" in ready, ready)
# A page of 5,000 works with long snippets and every author counted: about
# a second here, and megabytes to send.
slow = ("http://127.0.0.1:%d/search?q=the+model+of+learning&limit=5000&snippet=2000"
        "&facets=author,category,year,subject" % port)
t0 = time.time()
urllib.request.urlopen(slow, timeout=60).read()
alone = time.time() - t0
check("the slow request takes long enough to be stopped during it (%.2f s)" % alone, alone >= 0.25, alone)

answer = {}


def ask():
    try:
        with urllib.request.urlopen(slow, timeout=60) as resp:
            answer["status"] = resp.status
            answer["body"] = resp.read()
    except Exception as e:  # the connection cut: what the old server did
        answer["error"] = repr(e)


client = threading.Thread(target=ask)
client.start()
time.sleep(0.1)
srv.send_signal(signal.SIGTERM)
time.sleep(0.05)
try:
    urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port, timeout=5).read()
    refused = False
except (urllib.error.URLError, ConnectionError, OSError):
    refused = True
client.join(timeout=60)
try:
    rc = srv.wait(timeout=60)
except subprocess.TimeoutExpired:
    srv.kill()
    rc = srv.wait()
err = srv.stderr.read()
body_ok = False
try:
    body_ok = "hits" in json.loads(answer.get("body", b"{}"))
except ValueError:
    pass
check("the request in flight at SIGTERM is answered whole",
      answer.get("status") == 200 and body_ok, {k: str(v)[:200] for k, v in answer.items()})
check("a request after SIGTERM is refused", refused)
check("and the server exits 0", rc == 0 and "stopped on SIGTERM" in err, (rc, err[-300:]))
# ---- memory ----------------------------------------------------------------
# A server of its own: the 30 unread answers below keep its workers busy
# for a while after their clients leave (seconds under ASan), and must
# not delay the stop above.
srv = subprocess.Popen([PDX, "serve", "--db", db, "--listen", "127.0.0.1:%d" % port, "--quiet",
                        "--time-budget", "0"], stderr=subprocess.PIPE, text=True)
ready = srv.stderr.readline()
check("it listens again", "listening on" in ready, ready)
# Memory stays bounded whatever clients ask.  An answer past 16 MB is a
# 400 naming limit, not megabytes built in memory:
try:
    urllib.request.urlopen("http://127.0.0.1:%d/search?q=the+model+of+learning&limit=10000&snippet=100000"
                           % port, timeout=60).read()
    big = None
except urllib.error.HTTPError as e:
    big = (e.code, json.loads(e.read())["error"])
check("an answer past 16 MB is a 400 naming limit", big and big[0] == 400 and big[1].get("parameter") == "limit",
      big)


def rss_mb(pid, key="VmHWM"):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return 0


# ... and 30 clients that ask for megabytes each and never read them hold
# at most 256 MB of answers in all (the rest get a 503 "busy"), so the
# server's peak stays near its base.
base_rss = rss_mb(srv.pid)
readers = []
big_page = ("GET /search?q=the+model+of+learning&limit=8000&snippet=1000 HTTP/1.1\r\n"
            "Host: x\r\n\r\n").encode()
for _ in range(30):
    c = socket.create_connection(("127.0.0.1", port))
    c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    c.sendall(big_page)
    readers.append(c)
time.sleep(6)
peak = rss_mb(srv.pid)
for c in readers:
    c.close()
print("30 clients not reading: the server's peak RSS %.0f MB, %.0f MB before" % (peak, base_rss))
check("30 clients that do not read their answers: peak under base + 256 MB held + 4 x 16 MB being "
      "written + 40 MB", peak < base_rss + 256 + 64 + 40, (peak, base_rss))

srv.terminate()
try:
    srv.wait(timeout=120)
except subprocess.TimeoutExpired:
    srv.kill()
    srv.wait()
done()
