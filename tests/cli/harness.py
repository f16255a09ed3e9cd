"""harness.py -- what the Python CLI tests share: check() counts and reports
a failure and goes on; done() prints the closing line "N passed, N failed"
and exits non-zero on any failure, or when nothing was checked;
free_port() names a loopback port nothing listens on."""
import socket
import sys

passed = failed = 0


def check(label, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL %s %s" % (label, str(detail)[:4000]))  # room for a sanitizer trace


def done():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
