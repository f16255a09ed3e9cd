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
done()
