/*
 * cmd_serve.c -- `paperdex serve`: the index as a read-only HTTP and JSON
 * search backend, and a search page, on libmicrohttpd (Debian's
 * libmicrohttpd-dev: a well-kept HTTP server library, so no HTTP parsing
 * is written here).
 *
 *   GET /search?q=...     the schema of `search --format json`
 *   GET /works/ID         the work, as `show --format json`
 *   GET /works/ID/similar the schema of `similar --format json`
 *   GET /stats            as `stats --format json`
 *   GET /healthz          {"status": "ok", "works": N}, or 503
 *   GET /                 the search page (searcher/www/index.html)
 *
 * The door: the server listens itself (serve_gate.c) and hands
 * libmicrohttpd each new connection once its first request head is in
 * and within bounds; one past them gets a JSON 414 or 431 there.
 *
 * Threads: libmicrohttpd's one polling thread reads every request and
 * sends every answer, and never searches; a request that needs the index
 * is suspended and queued, first in first out, for a fixed pool of worker
 * threads (--threads), each with its own read handle on the index (the
 * library's rule: one handle per thread), opened at its first request and
 * kept; a handle follows new commits and an index swapped in by a rebuild
 * by itself.  So a slow search delays no other connection's reading, the
 * clock of a request's headers (--timeout) counts only the client's own
 * slowness, and under load every client waits its turn in one queue (were
 * each polling thread to search, the clients of a busy thread would wait
 * while other threads' were served, and a request waiting its turn would
 * look like a slow client).  /healthz goes to the front of the queue.
 * Limits on what a client
 * controls: connections (--max-connections), an idle connection's time
 * and a request's time to send its headers (--timeout, on_connection()
 * and the gate), the request's head (24 KB and 100 header fields:
 * serve_gate.h; a longer one is refused in JSON), every
 * parameter's range (checked here, each error naming its parameter) and
 * their number (uri_seen()), a body (answered before it is read), the
 * query's length and terms (the library's limits).  No endpoint writes.
 *
 * Errors are JSON, {"error": {"status": N, "message": ..., "parameter":
 * ...}}: 400 for a bad parameter or query (the message names the query
 * position), 404 for an unknown path or id, 405 for a method other than
 * GET or HEAD, 413 for a GET with a body, 414 and 431 for a request head
 * past its bounds, 503 while the index cannot be opened.  One access-log line
 * per request, as JSON, on standard output (--quiet: none).  SIGTERM and
 * SIGINT stop it cleanly: it stops accepting, the requests in flight are
 * answered (for up to DRAIN_SECONDS), handles are closed.  SIGHUP does
 * nothing but say so (there is nothing to reopen).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "cli.h"
#include "output.h"
#include "serve_gate.h"
#include "serve_mhd.h"
#include "serve_params.h"

#define MAX_DBS 64
#define MAX_WORKERS 256

extern const unsigned char pdx_page_html[];
extern const size_t pdx_page_html_len;

static const char help[] =
    "usage: paperdex serve --db DIR [--db DIR|tcp://HOST:PORT ...] [options]\n"
    "\n"
    "Serve the index read-only over HTTP: a JSON search API and a search\n"
    "page.  GET /search?q=WORDS&year=2019..2021&category=cs.CV&author=NAME\n"
    "&sort=relevance|newest|oldest&limit=10&offset=0&facets=year,category,\n"
    "author&snippet=200&explain=1&expand=1&k1=1.2&b=0.6&suggest=0 answers\n"
    "with the schema of `search --format json` (a repeated category, author\n"
    "or subject narrows; | separates alternatives in one value); GET\n"
    "/works/ID, /works/ID/similar, /stats, /healthz; GET / is the search\n"
    "page.  format=bibtex|ris|csljson on /search and /works/ID gives the\n"
    "works as citations.\n"
    "\n"
    "options:\n"
    "  --db DIR             the index (repeat, or tcp://HOST:PORT, for\n"
    "                       shards searched as one)\n"
    "  --listen HOST:PORT   where to listen (default 127.0.0.1:8080; port\n"
    "                       0 picks a free one, printed at start).  Bind to\n"
    "                       loopback, and put a reverse proxy with TLS in\n"
    "                       front of it for anything else.\n"
    "  --threads N          worker threads, each with its own index handle,\n"
    "                       taking the requests in the order they came\n"
    "                       (default 4)\n"
    "  --max-connections N  connections at once (default 256; as many\n"
    "                       again may wait for their first request)\n"
    "  --timeout SECONDS    a connection idle this long, or a request whose\n"
    "                       headers are not all in after this long, is\n"
    "                       closed (default 10)\n"
    "  --time-budget MS     the time a request's search may take, shared\n"
    "                       by its stages (ranking, facets, count,\n"
    "                       did-you-mean): past it each stops and answers\n"
    "                       with what it has (default 1000; 0: no limit)\n"
    "  --source-root DIR    show the files works were read from relative\n"
    "                       to DIR (others by their base name, the default\n"
    "                       for all): a client never sees the server's\n"
    "                       paths, in hits, /stats or error messages\n"
    "  --show-paths         show those paths as they are\n"
    "  --cors ORIGIN        let pages of ORIGIN (https://HOST[:PORT], or *\n"
    "                       for any) read the answers: CORS headers and\n"
    "                       preflights; none by default\n"
    "  --quiet              no access log\n"
    "  -h, --help           this text\n"
    "\n"
    "Prints \"listening on http://HOST:PORT\" on standard error once ready,\n"
    "then one JSON access-log line per request on standard output.\n"
    "SIGTERM or SIGINT stops it: it stops accepting, answers the requests\n"
    "in flight (for up to 30 s), then exits; SIGHUP does nothing (there is\n"
    "nothing to reopen).  exit status: 0 stopped; 1 could not listen or\n"
    "open the index; 2 usage.\n";

/* The largest answer written (search and similar), and the most the
 * answers waiting for their clients may hold in all. */
#define ANSWER_MAX_BYTES (16 << 20)
#define ANSWERS_HELD_BYTES (256 << 20)

/* How long a stop waits for the requests in flight to be answered. */
#define DRAIN_SECONDS 30
/* libmicrohttpd's memory pool a connection (its read buffer, the
 * parsed headers, the answer's headers): it holds any request head the
 * gate lets in (SERVE_HEAD_MAX, SERVE_HEAD_FIELDS: serve_gate.h), so
 * libmicrohttpd never answers a connection's first request itself.  A
 * later request of a kept-alive connection, which the gate does not
 * see, gets handle()'s JSON 414 or 431 past those bounds, up to what
 * the pool holds (a head of about 32,300 bytes, or about 450 fields);
 * past that, libmicrohttpd's own 414 or 431 page, or the connection
 * closed. */
#define SERVE_POOL_BYTES (32 * 1024)

/* Access-log lines waiting for standard output, at most. */
#define LOG_QUEUE 4096

typedef struct server {
    const char *dbs[MAX_DBS];
    size_t n_dbs;
    int quiet;
    int show_paths; /* --show-paths: the disk's paths as they are */
    const char *cors; /* --cors ORIGIN: the one origin whose pages may
                         read the answers (or "*"), or NULL */
    double time_budget; /* seconds a match may take; 0 = none */
    pthread_key_t handle; /* each worker thread's pdx_index */
    _Atomic long in_flight; /* requests begun and not yet completed */
    _Atomic long answer_bytes; /* answers queued and not yet sent */
    /* The access log: workers queue their lines (log_line) and never
     * wait for standard output, which a reader that stops reading would
     * fill; one thread of its own writes them (log_writer).  A full
     * queue drops the line and counts it. */
    pthread_mutex_t log_lock;
    pthread_cond_t log_ready;
    char *log_q[LOG_QUEUE];
    size_t log_head, log_n;
    unsigned long log_dropped;
    int log_stop;
    pthread_t log_thread;
    /* Each open connection's clock (conn_clock), for the deadline of a
     * request's headers: --timeout counts from the request's first byte
     * (or the connection's start, or the previous answer), however
     * slowly the headers trickle in.  A thread of its own (sweeper)
     * shuts down a connection past it. */
    pthread_mutex_t conn_lock;
    pthread_cond_t conn_stop_cv;
    struct conn_clock *conns;
    unsigned timeout;
    int conn_stop;
    pthread_t sweeper_thread;
    /* The requests waiting for a worker (first in first out; at most one
     * a connection, so at most --max-connections), and the workers. */
    pthread_mutex_t job_lock;
    pthread_cond_t job_ready;
    struct request *job_head, *job_tail;
    int job_stop;
    pthread_t workers[MAX_WORKERS];
    size_t n_workers;
} server;

/* One connection's clock (server.conns, under conn_lock). */
typedef struct conn_clock {
    struct conn_clock *prev, *next;
    MHD_socket fd;
    struct timespec since; /* when the request being read began */
    int reading;           /* its headers are not all in yet */
} conn_clock;

/* One request: what it says in the access log and, while a worker
 * answers it, its place in the queue and its answer. */
typedef struct request {
    struct timespec start;
    unsigned status;
    size_t bytes;
    char path[256];
    /* RQ_READ: being read (the polling thread answers there); RQ_QUEUED:
     * suspended, waiting for or with a worker, which keeps the answer in
     * ans; RQ_ANSWERED: resumed, ans to be queued by the polling thread
     * (or the connection closed when ans is NULL: no memory for it). */
    enum { RQ_READ, RQ_QUEUED, RQ_ANSWERED } state;
    struct request *next; /* in server.job_head's queue */
    struct MHD_Connection *conn;
    const char *url; /* libmicrohttpd's, valid until the request ends */
    struct MHD_Response *ans;
    unsigned ans_status;
} request;

static void close_handle(void *ix) { pdx_close(ix); }

/* This thread's index handle, opened at its first request.  NULL with
 * the reason in msg when the index cannot be opened (the next request
 * tries again). */
static pdx_index *thread_index(server *s, char *msg, size_t n)
{
    pdx_index *ix = pthread_getspecific(s->handle);
    if (ix)
        return ix;
    if (pdx_open_shards(&ix, s->dbs, s->n_dbs)) {
        snprintf(msg, n, "the index cannot be opened: %s", pdx_errmsg(ix));
        pdx_close(ix);
        return NULL;
    }
    pthread_setspecific(s->handle, ix);
    return ix;
}

/* Queue response r (status, a body of `bytes`), and say so in rq for the
 * access log; r is released.  In a worker (rq queued), r is kept in rq
 * for the polling thread to queue once the connection is resumed:
 * libmicrohttpd takes a response only from its own thread's call. */
static enum MHD_Result queue(struct MHD_Connection *c, request *rq,
                             unsigned status, struct MHD_Response *r,
                             size_t bytes)
{
    rq->status = status;
    rq->bytes = bytes;
    if (rq->state == RQ_QUEUED) {
        rq->ans = r;
        rq->ans_status = status;
        return MHD_YES;
    }
    enum MHD_Result ok = mhd.queue_response(c, status, r);
    mhd.destroy_response(r);
    return ok;
}

static const server *hiding; /* the server, set once before it starts */
static void allow_origin(struct MHD_Connection *c, const server *s,
                         struct MHD_Response *resp);

static enum MHD_Result send_body(struct MHD_Connection *c, request *rq,
                                 unsigned status, const char *type,
                                 const void *body, size_t len, int copy)
{
    struct MHD_Response *r = mhd.create_response_from_buffer(
        len, (void *)body,
        copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    mhd.add_response_header(r, "Content-Type", type);
    mhd.add_response_header(r, "Cache-Control", "no-store");
    mhd.add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (hiding)
        allow_origin(c, hiding, r);
    return queue(c, rq, status, r, len);
}

/* The page's icon: a magnifier over a page, as SVG. */
static const char favicon[] =
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>"
    "<rect x='5' y='3' width='18' height='24' rx='2' fill='#fff' "
    "stroke='#1b1b1b' stroke-width='2'/>"
    "<path d='M9 9h10M9 13h10M9 17h6' stroke='#1b1b1b' stroke-width='2'/>"
    "<circle cx='20' cy='20' r='5' fill='none' stroke='#2b6cb0' "
    "stroke-width='3'/><path d='M24 24l5 5' stroke='#2b6cb0' "
    "stroke-width='3'/></svg>";

/* The page and its icon: what the page may do is said by a Content
 * Security Policy -- its own inline script and style, requests to this
 * server only, nothing loaded from elsewhere, never framed (and
 * X-Frame-Options for browsers before frame-ancestors); it may be
 * cached for a minute. */
static enum MHD_Result send_page(struct MHD_Connection *c, request *rq,
                                 unsigned status, const char *type,
                                 const void *body, size_t len)
{
    struct MHD_Response *r = mhd.create_response_from_buffer(
        len, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    mhd.add_response_header(r, "Content-Type", type);
    mhd.add_response_header(r, "Cache-Control", "max-age=60");
    mhd.add_response_header(r, "X-Content-Type-Options", "nosniff");
    mhd.add_response_header(
        r, "Content-Security-Policy",
        "default-src 'none'; script-src 'unsafe-inline'; style-src "
        "'unsafe-inline'; connect-src 'self'; img-src 'self'; base-uri "
        "'none'; form-action 'self'; frame-ancestors 'none'");
    mhd.add_response_header(r, "X-Frame-Options", "DENY");
    mhd.add_response_header(r, "Referrer-Policy", "no-referrer");
    return queue(c, rq, status, r, len);
}

static enum MHD_Result send_json(struct MHD_Connection *c, request *rq,
                                 unsigned status, cJSON *o)
{
    char *s = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!s) {
        static const char oom[] =
            "{\"error\":{\"status\":500,\"message\":\"out of memory\"}}";
        return send_body(c, rq, 500, "application/json", oom, sizeof oom - 1,
                         0);
    }
    enum MHD_Result ok = send_body(c, rq, status,
                                   "application/json; charset=utf-8", s,
                                   strlen(s), 1);
    cJSON_free(s);
    return ok;
}

/* {"error": {"status", "message"[, "parameter"]}} */
static enum MHD_Result send_error(struct MHD_Connection *c, request *rq,
                                  unsigned status, const char *param,
                                  const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The server's paths hidden from clients (unless --show-paths): each
 * local index's path as given, and as the library resolves it, becomes
 * its base name. */

static void scrub_paths(char *msg)
{
    if (!hiding || hiding->show_paths)
        return;
    for (size_t i = 0; i < hiding->n_dbs; i++) {
        const char *db = hiding->dbs[i];
        if (!strncmp(db, "tcp://", 6))
            continue;
        char real[4096];
        const char *forms[2] = {db, realpath(db, real) ? real : NULL};
        for (int k = 0; k < 2; k++) {
            const char *path = forms[k];
            size_t pn = path ? strlen(path) : 0;
            while (pn > 1 && path[pn - 1] == '/')
                pn--;
            if (pn < 2)
                continue;
            const char *base = out_shown_path(path);
            size_t bn = strlen(base);
            while (bn && base[bn - 1] == '/')
                bn--;
            for (char *at = strstr(msg, path); at; at = strstr(at + bn, path)) {
                if (strncmp(at, path, pn))
                    break;
                memmove(at + bn, at + pn, strlen(at + pn) + 1);
                memcpy(at, base, bn);
            }
        }
    }
}

static enum MHD_Result send_error(struct MHD_Connection *c, request *rq,
                                  unsigned status, const char *param,
                                  const char *fmt, ...)
{
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    scrub_paths(msg);
    cJSON *o = cJSON_CreateObject(), *e = cJSON_AddObjectToObject(o, "error");
    cJSON_AddNumberToObject(e, "status", status);
    /* A message may quote invalid UTF-8 from the request: cJSON escapes
     * control bytes, and the page shows it as text. */
    cJSON_AddStringToObject(e, "message", msg);
    if (param)
        cJSON_AddStringToObject(e, "parameter", param);
    return send_json(c, rq, status, o);
}

/* A library failure as an HTTP status. */
static unsigned status_for(int rc)
{
    switch (rc) {
    case PDX_EQUERY:
    case PDX_EINVAL: return 400;
    case PDX_ENOTFOUND: /* the index itself is gone (an unknown id is
                           found out by pdx_get before, in work()) */
    case PDX_ELOCKED:
    case PDX_EIO:
    case PDX_EVERSION:
    case PDX_ENOTINDEX: return 503;
    default: return 500;
    }
}

/* Answers of this many bytes or more are sent gzipped to a client that
 * accepts it (zlib's deflate, level 1: on search answers about a
 * sixth of the bytes for a fraction of a millisecond a page). */
#define GZIP_MIN_BYTES 1024

/* Does the request's Accept-Encoding take gzip (and not with q=0)? */
static int accepts_gzip(struct MHD_Connection *c)
{
    const char *ae = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
                                                 "Accept-Encoding");
    for (const char *p = ae; p && (p = strstr(p, "gzip")); p += 4) {
        const char *q = p + 4;
        while (*q == ' ')
            q++;
        if (!*q || *q == ',')
            return 1;
        if (*q != ';')
            continue; /* "gzipx": another coding */
        q++;
        while (*q == ' ')
            q++;
        return strncmp(q, "q=", 2) || strtod(q + 2, NULL) > 0;
    }
    return 0;
}

/* The CORS header, when --cors names the request's Origin (or is "*"):
 * that origin's pages may read the answers.  Nothing else is allowed
 * across origins (GET only, no credentials). */
static void allow_origin(struct MHD_Connection *c, const server *s,
                         struct MHD_Response *resp)
{
    if (!s->cors)
        return;
    const char *origin = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
                                                     "Origin");
    if (!strcmp(s->cors, "*"))
        mhd.add_response_header(resp, "Access-Control-Allow-Origin", "*");
    else if (origin && !strcmp(origin, s->cors))
        mhd.add_response_header(resp, "Access-Control-Allow-Origin",
                                s->cors);
}

static enum MHD_Result send_not_modified(struct MHD_Connection *c,
                                         request *rq, const server *s,
                                         const char *etag)
{
    struct MHD_Response *r =
        mhd.create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    mhd.add_response_header(r, "ETag", etag);
    mhd.add_response_header(r, "Cache-Control", "no-cache");
    mhd.add_response_header(r, "Vary", "Accept-Encoding, Origin");
    allow_origin(c, s, r);
    return queue(c, rq, 304, r, 0);
}

/* An answer being written (answer_write), at most ANSWER_MAX_BYTES. */
typedef struct answer {
    char *buf;
    size_t len, cap;
    int too_big;
} answer;

static ssize_t answer_write(void *cookie, const char *data, size_t n)
{
    answer *a = cookie;
    if (a->len + n > ANSWER_MAX_BYTES) {
        a->too_big = 1;
        errno = EFBIG;
        return -1;
    }
    if (a->len + n > a->cap) {
        size_t cap = a->cap ? a->cap : 65536;
        while (cap < a->len + n)
            cap *= 2;
        char *nb = realloc(a->buf, cap);
        if (!nb) {
            errno = ENOMEM;
            return -1;
        }
        a->buf = nb;
        a->cap = cap;
    }
    memcpy(a->buf + a->len, data, n);
    a->len += n;
    return (ssize_t)n;
}

/* Replace a's bytes by their gzip (RFC 1952) form.  0, or -1 (a is then
 * as it was, sent plain). */
static int gzip_answer(answer *a)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
        return -1;
    size_t cap = deflateBound(&z, (uLong)a->len);
    char *out = malloc(cap);
    if (!out) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)a->buf;
    z.avail_in = (uInt)a->len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return -1;
    }
    free(a->buf);
    a->buf = out;
    a->len = a->cap = n;
    return 0;
}

/* What a sent answer's buffer holds back, until libmicrohttpd is done
 * with it (answer_sent). */
typedef struct held {
    server *s;
    char *buf;
    size_t len;
} held;

static void answer_sent(void *cls)
{
    held *h = cls;
    h->s->answer_bytes -= (long)h->len;
    free(h->buf);
    free(h);
}

/* 503: the answers held for slow readers are at their bound. */
static enum MHD_Result send_busy(struct MHD_Connection *c, request *rq)
{
    return send_error(c, rq, 503, NULL, "busy: %d MB of answers wait for "
                      "their clients to read them; try again",
                      ANSWERS_HELD_BYTES >> 20);
}

/* Output printed by the CLI's own formatter (output.c) into memory, so
 * the API's schema is the CLI's.  Memory stays bounded whatever clients
 * ask: an answer is written into at most ANSWER_MAX_BYTES (past that,
 * a 400 asks for fewer hits or shorter snippets), handed to
 * libmicrohttpd without a copy, and freed once sent; the answers held for
 * clients that read slowly come to at most ANSWERS_HELD_BYTES in all
 * (past that, a 503 asks to try again). */
static enum MHD_Result send_results(struct MHD_Connection *c, request *rq,
                                    server *s, out_format fmt,
                                    const char *query, const pdx_results *r,
                                    size_t offset, size_t limit,
                                    unsigned facets)
{
    answer a = {0};
    static const cookie_io_functions_t io = {.write = answer_write};
    FILE *f = fopencookie(&a, "w", io);
    int bad = !f || out_results(f, fmt, query, r, offset, limit, 0, facets);
    if (f)
        bad |= fclose(f) != 0;
    if (bad) {
        free(a.buf);
        if (a.too_big)
            return send_error(c, rq, 400, "limit", "the answer would pass %d "
                              "MB: ask for fewer hits (limit) or shorter "
                              "snippets (snippet)",
                              ANSWER_MAX_BYTES >> 20);
        return send_error(c, rq, 500, NULL, "out of memory");
    }
    if (s->answer_bytes + (long)a.len > ANSWERS_HELD_BYTES) {
        free(a.buf);
        return send_busy(c, rq);
    }
    /* The tag of the answer's bytes: a client that has them already
     * (If-None-Match) gets a 304 with no body.  An answer changes when
     * the index does, so the tag follows the index's revisions. */
    char etag[24];
    snprintf(etag, sizeof etag, "\"%08lx-%zx\"",
             crc32(0, (const Bytef *)a.buf, (uInt)a.len), a.len); /* zlib's */
    const char *inm = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
                                                  "If-None-Match");
    if (inm && strstr(inm, etag)) {
        free(a.buf);
        return send_not_modified(c, rq, s, etag);
    }
    const int gz = a.len >= GZIP_MIN_BYTES && accepts_gzip(c) &&
                   gzip_answer(&a) == 0;
    /* Held at its length, not at the capacity it grew to (up to twice
     * that): what answer_bytes counts is what is held. */
    if (a.cap > a.len + 4096) {
        char *fit = realloc(a.buf, a.len ? a.len : 1);
        if (fit)
            a.buf = fit, a.cap = a.len;
    }
    held *h = malloc(sizeof *h);
    struct MHD_Response *resp =
        h ? mhd.create_response_from_buffer_with_free_callback_cls(
                a.len, a.buf, answer_sent, h)
          : NULL;
    if (!resp) {
        free(h);
        free(a.buf);
        return send_error(c, rq, 500, NULL, "out of memory");
    }
    *h = (held){s, a.buf, a.len};
    s->answer_bytes += (long)a.len;
    mhd.add_response_header(resp, "Content-Type", out_media_type(fmt));
    mhd.add_response_header(resp, "Cache-Control", "no-cache");
    mhd.add_response_header(resp, "ETag", etag);
    mhd.add_response_header(resp, "Vary", "Accept-Encoding, Origin");
    if (gz)
        mhd.add_response_header(resp, "Content-Encoding", "gzip");
    mhd.add_response_header(resp, "X-Content-Type-Options", "nosniff");
    allow_origin(c, s, resp);
    return queue(c, rq, 200, resp, a.len);
}

/* ------------------------------------------------------- /search */

typedef struct args {
    const char *keys[SERVE_MAX_PARAMS], *values[SERVE_MAX_PARAMS];
    size_t n;
    int too_many;
    const char *nul; /* a parameter whose name or value holds %00 */
} args;

static enum MHD_Result on_arg(void *cls, enum MHD_ValueKind kind,
                              const char *key, size_t key_size,
                              const char *value, size_t value_size)
{
    (void)kind;
    args *a = cls;
    if (a->n == SERVE_MAX_PARAMS) {
        a->too_many = 1;
        return MHD_NO;
    }
    /* A decoded %00 would end the C string there: the rest of the value
     * would be dropped without a word. */
    if (strlen(key) != key_size || (value && strlen(value) != value_size)) {
        a->nul = key;
        return MHD_NO;
    }
    a->keys[a->n] = key;
    a->values[a->n++] = value ? value : "";
    return MHD_YES;
}

/* The parameters of this request into a; 0, or an error answer's
 * status (400) with the message in msg and the parameter in *bad. */
static unsigned get_args(struct MHD_Connection *c, args *a, char *msg,
                         size_t n, const char **bad)
{
    memset(a, 0, sizeof *a);
    mhd.get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, on_arg, a);
    *bad = NULL;
    if (a->too_many) {
        snprintf(msg, n, "at most %d parameters", SERVE_MAX_PARAMS);
        return 400;
    }
    if (a->nul) {
        *bad = a->nul;
        snprintf(msg, n, "parameter '%.40s' holds a NUL byte (%%00)", a->nul);
        return 400;
    }
    return 0;
}

static enum MHD_Result search(struct MHD_Connection *c, request *rq,
                              server *s)
{
    args a;
    char why[200];
    const char *bad;
    unsigned st = get_args(c, &a, why, sizeof why, &bad);
    if (st)
        return send_error(c, rq, st, bad, "%s", why);
    serve_query sq;
    if (serve_parse_params(&sq, a.keys, a.values, a.n))
        return send_error(c, rq, 400, sq.bad, "%s", sq.msg);
    sq.q.time_limit = s->time_budget;
    if (s->answer_bytes >= ANSWERS_HELD_BYTES) /* not worth searching */
        return send_busy(c, rq);
    char msg[1200];
    pdx_index *ix = thread_index(s, msg, sizeof msg);
    if (!ix)
        return send_error(c, rq, 503, NULL, "%s", msg);
    pdx_results *r = NULL;
    int rc = pdx_search(&r, ix, &sq.q);
    if (rc)
        return send_error(c, rq, status_for(rc),
                          rc == PDX_EQUERY ? "q" : NULL, "%s",
                          pdx_errmsg(ix));
    enum MHD_Result ok = send_results(c, rq, s, sq.format, sq.q.text, r,
                                      sq.q.offset,
                                      sq.q.limit, sq.q.facets);
    pdx_results_free(r);
    return ok;
}

/* GET /works/ID and /works/ID/similar. */
static enum MHD_Result work(struct MHD_Connection *c, request *rq, server *s,
                            const char *id_path)
{
    char id[PDX_ID_MAX + 16];
    size_t n = strlen(id_path);
    int similar = n > 8 && !strcmp(id_path + n - 8, "/similar");
    if (similar)
        n -= 8;
    if (n == 0 || n > PDX_ID_MAX)
        return send_error(c, rq, 404, NULL, "no work with that id");
    memcpy(id, id_path, n);
    id[n] = '\0';
    char msg[1200];
    pdx_index *ix = thread_index(s, msg, sizeof msg);
    if (!ix)
        return send_error(c, rq, 503, NULL, "%s", msg);
    pdx_results *r = NULL;
    int rc;
    size_t limit = PDX_DEFAULT_LIMIT;
    /* /works/ID takes format, /works/ID/similar limit and format */
    args a;
    char why[200];
    const char *bad, *v = NULL, *fv = NULL;
    unsigned st = get_args(c, &a, why, sizeof why, &bad);
    if (st)
        return send_error(c, rq, st, bad, "%s", why);
    for (size_t i = 0; i < a.n; i++) {
        if (similar && !strcmp(a.keys[i], "limit"))
            v = a.values[i];
        else if (!strcmp(a.keys[i], "format"))
            fv = a.values[i];
        else
            return send_error(c, rq, 400, a.keys[i], "unknown parameter "
                              "'%.40s': %s", a.keys[i],
                              similar ? "/works/ID/similar takes limit and "
                                        "format"
                                      : "/works/ID takes format");
    }
    if (v && cli_size(v, PDX_MAX_LIMIT, &limit))
        return send_error(c, rq, 400, "limit", "limit takes a whole number "
                          "from 0 to %d", PDX_MAX_LIMIT);
    out_format fmt = OUT_JSON_COMPACT;
    if (fv && *fv && strcmp(fv, "json") &&
        (out_parse_format(fv, &fmt) || fmt < OUT_BIBTEX))
        return send_error(c, rq, 400, "format", "format takes json, bibtex, "
                          "ris or csljson, not '%.40s'", fv);
    /* The work first, for both: an unknown id is 404, and any failure
     * after that is the index's (status_for). */
    rc = pdx_get(&r, ix, id);
    if (rc)
        return send_error(c, rq, status_for(rc), NULL, "%s", pdx_errmsg(ix));
    if (!pdx_results_count(r)) {
        pdx_results_free(r);
        return send_error(c, rq, 404, NULL, "no work with id '%.200s'", id);
    }
    if (similar) {
        pdx_results_free(r);
        r = NULL;
        if ((rc = pdx_similar(&r, ix, id, limit)))
            return send_error(c, rq, status_for(rc), NULL, "%s",
                              pdx_errmsg(ix));
        char label[sizeof id + 16];
        snprintf(label, sizeof label, "similar:%s", id); /* as the CLI */
        enum MHD_Result ok = send_results(c, rq, s, fmt, label, r, 0, limit, 0);
        pdx_results_free(r);
        return ok;
    }
    if (fmt != OUT_JSON_COMPACT) { /* the work as a citation */
        enum MHD_Result ok = send_results(c, rq, s, fmt, id, r, 0, 1, 0);
        pdx_results_free(r);
        return ok;
    }
    cJSON *o = cJSON_Parse(pdx_results_hit(r, 0)->json);
    pdx_results_free(r);
    out_hide_paths_in(o);
    return send_json(c, rq, 200, o);
}

static enum MHD_Result stats(struct MHD_Connection *c, request *rq,
                             server *s, int health)
{
    char msg[1200];
    pdx_index *ix = thread_index(s, msg, sizeof msg);
    if (!ix)
        return send_error(c, rq, 503, NULL, "%s", msg);
    if (health) { /* constant time: load balancers poll it */
        uint64_t works = 0;
        if (pdx_count_works(&works, ix))
            return send_error(c, rq, 503, NULL, "%s", pdx_errmsg(ix));
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "status", "ok");
        cJSON_AddNumberToObject(o, "works", (double)works);
        return send_json(c, rq, 200, o);
    }
    pdx_stats st = PDX_STATS_INIT;
    int rc = pdx_stats_get(&st, ix);
    if (rc)
        return send_error(c, rq, 503, NULL, "%s", pdx_errmsg(ix));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "db", s->show_paths || !strncmp(s->dbs[0], "tcp://", 6)
                                         ? s->dbs[0]
                                         : out_shown_path(s->dbs[0]));
    cJSON_AddNumberToObject(o, "works", (double)st.works);
    cJSON_AddNumberToObject(o, "terms", (double)st.terms);
    cJSON_AddNumberToObject(o, "postings", (double)st.postings);
    cJSON_AddNumberToObject(o, "avg_length", st.avg_length);
    cJSON_AddNumberToObject(o, "bytes", (double)st.bytes);
    cJSON_AddNumberToObject(o, "last_updated_unix", (double)st.last_updated);
    cJSON_AddNumberToObject(o, "sources", (double)st.sources);
    cJSON_AddNumberToObject(o, "layout", st.layout);
    return send_json(c, rq, 200, o);
}

/* OPTIONS with --cors: the browser's preflight, answered 204 with what
 * an origin may do (GET and HEAD, the Accept header). */
static enum MHD_Result send_preflight(struct MHD_Connection *c, request *rq,
                                      const server *s)
{
    struct MHD_Response *r =
        mhd.create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    allow_origin(c, s, r);
    mhd.add_response_header(r, "Access-Control-Allow-Methods", "GET, HEAD");
    mhd.add_response_header(r, "Access-Control-Allow-Headers", "Accept");
    mhd.add_response_header(r, "Access-Control-Max-Age", "600");
    mhd.add_response_header(r, "Vary", "Origin");
    return queue(c, rq, 204, r, 0);
}

/* libmicrohttpd's --timeout (MHD_OPTION_CONNECTION_TIMEOUT) cuts only an
 * idle connection: 300 clients each sending a header line a second
 * would hold every connection for as long as they liked (slowloris).  So
 * each connection also has a clock, started when it opens and again
 * after each answer, and stopped when a request's headers are all in (every
 * endpoint answers then, no body is read): past --timeout seconds the
 * sweeper shuts the socket down, and libmicrohttpd closes it. */
static void on_connection(void *cls, struct MHD_Connection *c,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        conn_clock *k = calloc(1, sizeof *k);
        if (!k)
            return; /* that connection goes without a deadline */
        const union MHD_ConnectionInfo *ci =
            mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        k->fd = ci ? ci->connect_fd : MHD_INVALID_SOCKET;
        clock_gettime(CLOCK_MONOTONIC, &k->since);
        k->reading = 1;
        pthread_mutex_lock(&s->conn_lock);
        k->next = s->conns;
        if (s->conns)
            s->conns->prev = k;
        s->conns = k;
        pthread_mutex_unlock(&s->conn_lock);
        *socket_context = k;
        return;
    }
    /* closed: libmicrohttpd closes the socket after this returns */
    conn_clock *k = *socket_context;
    if (!k)
        return;
    pthread_mutex_lock(&s->conn_lock);
    if (k->prev)
        k->prev->next = k->next;
    else
        s->conns = k->next;
    if (k->next)
        k->next->prev = k->prev;
    pthread_mutex_unlock(&s->conn_lock);
    free(k);
    *socket_context = NULL;
}

/* Start (reading != 0) or stop the clock of c's request. */
static void clock_request(server *s, struct MHD_Connection *c, int reading)
{
    const union MHD_ConnectionInfo *ci =
        mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    conn_clock *k = ci ? ci->socket_context : NULL;
    if (!k)
        return;
    pthread_mutex_lock(&s->conn_lock);
    k->reading = reading;
    if (reading)
        clock_gettime(CLOCK_MONOTONIC, &k->since);
    pthread_mutex_unlock(&s->conn_lock);
}

static void *sweeper(void *arg)
{
    server *s = arg;
    pthread_mutex_lock(&s->conn_lock);
    while (!s->conn_stop) {
        struct timespec now, until;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (conn_clock *k = s->conns; k; k = k->next)
            if (k->reading && k->fd != MHD_INVALID_SOCKET &&
                now.tv_sec - k->since.tv_sec >= (time_t)s->timeout) {
                shutdown(k->fd, SHUT_RDWR);
                k->reading = 0;
            }
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&s->conn_stop_cv, &s->conn_lock, &until);
    }
    pthread_mutex_unlock(&s->conn_lock);
    return NULL;
}

/* libmicrohttpd 0.9.75 splits a URL's query string into the connection's
 * memory pool before handle() sees the request, and a URL of many
 * parameters could exhaust it: the client would get no answer, and no
 * line would be logged.  The URL is seen first here
 * (MHD_OPTION_URI_LOG_CALLBACK, called "before MHD modifies the URI or
 * its arguments"): one of more than SERVE_MAX_PARAMS parameters, or one
 * longer than SERVE_HEAD_MAX (a later request of a kept-alive
 * connection, which the gate does not see), has its query string
 * emptied in place, in the connection's own read buffer, so that
 * libmicrohttpd parses none, and handle() answers it with a 400 or a 414
 * (&too_many_params or &uri_too_long, returned here, is its first
 * *con_cls). */
static char too_many_params, uri_too_long;

static int is_flag(const void *con_cls)
{
    return con_cls == &too_many_params || con_cls == &uri_too_long;
}

static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    (void)c;
    char *q = strchr(uri, '?');
    size_t params = 1;
    for (const char *p = q ? q + 1 : ""; *p; p++)
        params += *p == '&';
    void *flag = strlen(uri) > SERVE_HEAD_MAX ? &uri_too_long
                 : q && params > SERVE_MAX_PARAMS ? &too_many_params
                                                  : NULL;
    if (flag && q)
        q[1] = '\0';
    return flag;
}

/* The bytes ("Name: value\r\n") and the number of c's request headers. */
typedef struct header_size {
    size_t bytes, fields;
} header_size;

static enum MHD_Result add_header_size(void *cls, enum MHD_ValueKind kind,
                                       const char *key, const char *value)
{
    (void)kind;
    header_size *h = cls;
    h->bytes += strlen(key) + (value ? strlen(value) : 0) + 4;
    h->fields++;
    return MHD_YES;
}

/* ------------------------------------------------------- workers */

/* Suspend c and queue its request rq (of url) for a worker; /healthz
 * goes first, so that a load balancer's probe does not wait behind the
 * searches.  0, or -1 when the server is stopping (nothing queued). */
static int enqueue(server *s, request *rq, struct MHD_Connection *c,
                   const char *url)
{
    pthread_mutex_lock(&s->job_lock);
    if (s->job_stop) {
        pthread_mutex_unlock(&s->job_lock);
        return -1;
    }
    rq->conn = c;
    rq->url = url;
    rq->state = RQ_QUEUED;
    /* under the lock: no worker resumes c before it is suspended */
    mhd.suspend_connection(c);
    if (!strcmp(url, "/healthz")) {
        rq->next = s->job_head;
        s->job_head = rq;
        if (!s->job_tail)
            s->job_tail = rq;
    } else {
        rq->next = NULL;
        if (s->job_tail)
            s->job_tail->next = rq;
        else
            s->job_head = rq;
        s->job_tail = rq;
    }
    pthread_cond_signal(&s->job_ready);
    pthread_mutex_unlock(&s->job_lock);
    return 0;
}

/* Hand rq's answer (in rq->ans) back to the polling thread.  rq may be
 * freed as soon as this returns. */
static void resume(request *rq)
{
    struct MHD_Connection *c = rq->conn;
    rq->state = RQ_ANSWERED;
    mhd.resume_connection(c);
}

static void *worker(void *arg)
{
    server *s = arg;
    pthread_mutex_lock(&s->job_lock);
    for (;;) {
        while (!s->job_head && !s->job_stop)
            pthread_cond_wait(&s->job_ready, &s->job_lock);
        if (s->job_stop)
            break; /* what is left is answered by the stop */
        request *rq = s->job_head;
        s->job_head = rq->next;
        if (!s->job_head)
            s->job_tail = NULL;
        pthread_mutex_unlock(&s->job_lock);
        struct MHD_Connection *c = rq->conn;
        const char *url = rq->url;
        if (!strcmp(url, "/search"))
            search(c, rq, s);
        else if (!strcmp(url, "/stats"))
            stats(c, rq, s, 0);
        else if (!strcmp(url, "/healthz"))
            stats(c, rq, s, 1);
        else
            work(c, rq, s, url + 7);
        /* A large answer's works were many small blocks of this thread's
         * heap: given back to the system, not kept at their peak. */
        const int large = rq->bytes >= (1u << 20);
        resume(rq);
        if (large)
            malloc_trim(0);
        pthread_mutex_lock(&s->job_lock);
    }
    pthread_mutex_unlock(&s->job_lock);
    return NULL;
}

/* Stop the workers once their requests in hand are answered; the
 * requests still waiting get a 503. */
static void stop_workers(server *s)
{
    pthread_mutex_lock(&s->job_lock);
    s->job_stop = 1;
    request *left = s->job_head;
    s->job_head = s->job_tail = NULL;
    pthread_cond_broadcast(&s->job_ready);
    pthread_mutex_unlock(&s->job_lock);
    for (size_t i = 0; i < s->n_workers; i++)
        pthread_join(s->workers[i], NULL);
    s->n_workers = 0;
    while (left) {
        request *rq = left;
        left = rq->next;
        send_error(rq->conn, rq, 503, NULL, "the server is stopping");
        resume(rq);
    }
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    (void)version;
    (void)upload;
    server *s = cls;
    request *rq = is_flag(*con_cls) ? NULL : *con_cls;
    if (!rq) { /* the first call: headers only */
        const void *flag = *con_cls;
        clock_request(s, c, 0);
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        s->in_flight++;
        clock_gettime(CLOCK_MONOTONIC, &rq->start);
        snprintf(rq->path, sizeof rq->path, "%s %s", method, url);
        *con_cls = rq;
        if (flag == &too_many_params)
            return send_error(c, rq, 400, NULL, "more than %d query "
                              "parameters: at most %d are read",
                              SERVE_MAX_PARAMS, SERVE_MAX_PARAMS);
        /* The gate (serve_gate.c) answers a connection's first request
         * past these bounds; these are its later ones. */
        if (flag == &uri_too_long)
            return send_error(c, rq, 414, NULL, SERVE_LINE_TOO_LONG,
                              SERVE_HEAD_MAX);
        header_size hs = {0, 0};
        mhd.get_connection_values(c, MHD_HEADER_KIND, add_header_size, &hs);
        if (hs.bytes > SERVE_HEAD_MAX)
            return send_error(c, rq, 431, NULL, SERVE_HEADERS_TOO_LONG,
                              SERVE_HEAD_MAX);
        if (hs.fields > SERVE_HEAD_FIELDS)
            return send_error(c, rq, 431, NULL, SERVE_TOO_MANY_FIELDS,
                              SERVE_HEAD_FIELDS);
        /* Answered before any body is read: a client that announces a
         * body it never sends (a chunked upload that never ends, a
         * Content-Length of 10 GB) gets its answer at once, and the
         * connection is closed after it, the body unread. */
        if (s->cors && !strcmp(method, "OPTIONS")) /* a CORS preflight */
            return send_preflight(c, rq, s);
        if (strcmp(method, "GET") && strcmp(method, "HEAD"))
            return send_error(c, rq, 405, NULL, "%s is not served: every "
                              "endpoint is GET", method);
        const char *len = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
                                                      "Content-Length");
        const char *te = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
                                                     "Transfer-Encoding");
        if (te || (len && strspn(len, "0") != strlen(len)))
            return send_error(c, rq, 413, NULL, "a GET takes no body "
                              "(Content-Length or Transfer-Encoding given)");
        return MHD_YES;
    }
    if (*upload_size) { /* announced as empty, yet sent: left unread */
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->state == RQ_ANSWERED) { /* resumed: a worker's answer */
        struct MHD_Response *r = rq->ans;
        rq->ans = NULL;
        if (!r)
            return MHD_NO; /* no memory for an answer: closed */
        enum MHD_Result ok = mhd.queue_response(c, rq->ans_status, r);
        mhd.destroy_response(r);
        return ok;
    }
    if (!strcmp(url, "/"))
        return send_page(c, rq, 200, "text/html; charset=utf-8",
                         pdx_page_html, pdx_page_html_len);
    if (!strcmp(url, "/favicon.ico"))
        return send_page(c, rq, 200, "image/svg+xml", favicon,
                         sizeof favicon - 1);
    if (!strcmp(url, "/search") || !strcmp(url, "/stats") ||
        !strcmp(url, "/healthz") || !strncmp(url, "/works/", 7)) {
        if (enqueue(s, rq, c, url))
            return send_error(c, rq, 503, NULL, "the server is stopping");
        return MHD_YES;
    }
    return send_error(c, rq, 404, NULL, "nothing at %.200s; see GET / and "
                      "/search", url);
}

/* Queue one access-log line (cJSON's, now the log's) for log_writer;
 * dropped and counted when LOG_QUEUE lines wait already. */
static void log_line(server *s, char *line)
{
    pthread_mutex_lock(&s->log_lock);
    if (s->log_n == LOG_QUEUE) {
        s->log_dropped++;
        cJSON_free(line);
    } else {
        s->log_q[(s->log_head + s->log_n++) % LOG_QUEUE] = line;
        pthread_cond_signal(&s->log_ready);
    }
    pthread_mutex_unlock(&s->log_lock);
}

/* Write all of buf to standard output, with write(2): a reader that has
 * stopped reading blocks this thread only, and no stdio lock that exit()
 * would wait for is held meanwhile.  0, or -1 when the output is gone. */
static int write_all(const char *buf, size_t n)
{
    while (n) {
        ssize_t k = write(STDOUT_FILENO, buf, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

/* The log's own thread: writes the queued lines in order, and after lines
 * were dropped, a line that says how many. */
static void *log_writer(void *arg)
{
    server *s = arg;
    int gone = 0;
    pthread_mutex_lock(&s->log_lock);
    for (;;) {
        while (!s->log_n && !s->log_dropped && !s->log_stop)
            pthread_cond_wait(&s->log_ready, &s->log_lock);
        if (!s->log_n && !s->log_dropped && s->log_stop)
            break;
        char *line = NULL;
        unsigned long dropped = 0;
        if (s->log_n) {
            line = s->log_q[s->log_head];
            s->log_head = (s->log_head + 1) % LOG_QUEUE;
            s->log_n--;
        } else {
            dropped = s->log_dropped;
            s->log_dropped = 0;
        }
        pthread_mutex_unlock(&s->log_lock);
        if (line) {
            gone = gone || write_all(line, strlen(line)) ||
                   write_all("\n", 1);
            cJSON_free(line);
        } else if (!gone) {
            char msg[96];
            int k = snprintf(msg, sizeof msg,
                             "{\"dropped\":%lu,\"why\":\"the log was not "
                             "read\"}\n", dropped);
            gone = write_all(msg, (size_t)k) != 0;
        }
        pthread_mutex_lock(&s->log_lock);
    }
    pthread_mutex_unlock(&s->log_lock);
    return NULL;
}

/* Queue the access-log line of one request: from the peer sa (NULL:
 * unknown), for the request line req_line, answered with status and
 * bytes in ms; `ended` says why it ended early (NULL: it did not). */
static void access_log(server *s, const struct sockaddr *sa,
                       const char *req_line, unsigned status, size_t bytes,
                       double ms, const char *ended)
{
    char addr[INET6_ADDRSTRLEN] = "-";
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, addr,
                  sizeof addr);
    else if (sa && sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr,
                  addr, sizeof addr);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "time", (double)time(NULL));
    cJSON_AddStringToObject(o, "remote", addr);
    cJSON_AddStringToObject(o, "request", req_line);
    cJSON_AddNumberToObject(o, "status", status);
    cJSON_AddNumberToObject(o, "bytes", (double)bytes);
    cJSON_AddNumberToObject(o, "ms", round(ms * 1000) / 1000);
    if (ended)
        cJSON_AddStringToObject(o, "ended", ended);
    char *line = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (line)
        log_line(s, line);
}

/* A connection the gate answered itself (serve_gate.c). */
static void gate_refused(void *ctx, const struct sockaddr *peer,
                         unsigned status, const char *req_line,
                         size_t bytes)
{
    server *s = ctx;
    if (!s->quiet)
        access_log(s, peer, req_line, status, bytes, 0,
                   status == 414 ? "request line too long"
                                 : "headers too long");
}

/* The access-log line, once the response is sent (or the client gone). */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode why)
{
    server *s = cls;
    request *rq = *con_cls;
    clock_request(s, c, 1); /* the next request on this connection */
    if (!rq || is_flag(rq))
        return;
    *con_cls = NULL;
    if (rq->ans) /* a worker's answer, its client gone before it was sent */
        mhd.destroy_response(rq->ans);
    if (!s->quiet) {
        struct timespec end;
        clock_gettime(CLOCK_MONOTONIC, &end);
        double ms = (double)(end.tv_sec - rq->start.tv_sec) * 1e3 +
                    (double)(end.tv_nsec - rq->start.tv_nsec) / 1e6;
        const union MHD_ConnectionInfo *ci =
            mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        access_log(s, ci ? ci->client_addr : NULL, rq->path, rq->status,
                   rq->bytes, ms,
                   why != MHD_REQUEST_TERMINATED_COMPLETED_OK
                       ? "client gone or timed out"
                       : NULL);
    }
    free(rq);
    s->in_flight--;
}

/* "HOST:PORT" (IPv4, or [IPv6]:PORT) into a socket address.  0 or -1. */
static int parse_listen(const char *s, struct sockaddr_storage *ss,
                        socklen_t *len)
{
    char host[128];
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof host)
        return -1;
    size_t hn = (size_t)(colon - s);
    memcpy(host, s, hn);
    host[hn] = '\0';
    size_t port;
    if (cli_size(colon + 1, 65535, &port))
        return -1;
    memset(ss, 0, sizeof *ss);
    if (host[0] == '[' && host[hn - 1] == ']') {
        host[hn - 1] = '\0';
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        *len = sizeof *a;
        return inet_pton(AF_INET6, host + 1, &a->sin6_addr) == 1 ? 0 : -1;
    }
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    *len = sizeof *a;
    return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

int cmd_serve(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"listen", required_argument, NULL, 'l'},
        {"threads", required_argument, NULL, 't'},
        {"max-connections", required_argument, NULL, 'm'},
        {"timeout", required_argument, NULL, 'T'},
        {"quiet", no_argument, NULL, 'q'},
        {"time-budget", required_argument, NULL, 'B'},
        {"show-paths", no_argument, NULL, 'P'},
        {"source-root", required_argument, NULL, 'R'},
        {"cors", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    /* Static: a log thread blocked on a full standard output may outlive
     * this function (it ends with the process). */
    static server s;
    memset(&s, 0, sizeof s);
    s.time_budget = 1.0;
    const char *listen = "127.0.0.1:8080";
    size_t threads = 4, max_conn = 256, timeout = 10;
    const char *source_root = NULL;
    int c;
    optind = 1;
    if (cli_query_args("serve", argc, argv, opts, NULL))
        return EXIT_USAGE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (s.n_dbs == MAX_DBS) {
                cli_error("at most %d --db", MAX_DBS);
                return EXIT_USAGE;
            }
            s.dbs[s.n_dbs++] = optarg;
            break;
        case 'l': listen = optarg; break;
        case 't':
            if (cli_size(optarg, 256, &threads) || !threads) {
                cli_error("--threads takes a number from 1 to 256");
                return EXIT_USAGE;
            }
            break;
        case 'm':
            if (cli_size(optarg, 100000, &max_conn) || !max_conn) {
                cli_error("--max-connections takes a number from 1 to 100000");
                return EXIT_USAGE;
            }
            break;
        case 'T':
            if (cli_size(optarg, 3600, &timeout) || !timeout) {
                cli_error("--timeout takes seconds, from 1 to 3600");
                return EXIT_USAGE;
            }
            break;
        case 'q': s.quiet = 1; break;
        case 'P': s.show_paths = 1; break;
        case 'R': source_root = optarg; break;
        case 'C':
            if (!*optarg || (strcmp(optarg, "*") &&
                             strncmp(optarg, "http://", 7) &&
                             strncmp(optarg, "https://", 8))) {
                cli_error("--cors takes an origin (https://HOST[:PORT]) or *");
                return EXIT_USAGE;
            }
            s.cors = optarg;
            break;
        case 'B': {
            size_t ms;
            if (cli_size(optarg, 3600000, &ms)) {
                cli_error("--time-budget takes milliseconds, from 0 to "
                          "3600000");
                return EXIT_USAGE;
            }
            s.time_budget = (double)ms / 1000.0;
            break;
        }
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("serve", c, argv, opts);
        }
    }
    if (!s.n_dbs && cli_default_db())
        s.dbs[s.n_dbs++] = cli_default_db();
    if (!s.n_dbs || optind < argc) {
        cli_error(!s.n_dbs ? "serve: --db DIR is required"
                           : "serve: unexpected argument '%s'",
                  argv[optind < argc ? optind : 0]);
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    struct sockaddr_storage addr;
    socklen_t alen;
    if (parse_listen(listen, &addr, &alen)) {
        cli_error("--listen takes HOST:PORT (an IPv4 address, or [IPv6]), "
                  "not '%s'", listen);
        return EXIT_USAGE;
    }
    char why[512];
    if (serve_mhd_load(why, sizeof why)) {
        cli_error("serve: %s", why);
        return EXIT_ERROR;
    }
    /* Fail at once, not at the first request, when the index is not
     * there. */
    int status = EXIT_OK_;
    pdx_index *probe = cli_open_shards(s.dbs, s.n_dbs, &status);
    if (!probe)
        return status;
    pdx_close(probe);

    if (!s.show_paths)
        out_hide_source_paths(source_root);
    hiding = &s;
    pthread_key_create(&s.handle, close_handle);
    pthread_mutex_init(&s.log_lock, NULL);
    pthread_cond_init(&s.log_ready, NULL);
    pthread_mutex_init(&s.conn_lock, NULL);
    pthread_cond_init(&s.conn_stop_cv, NULL);
    s.timeout = (unsigned)timeout;
    /* The worker threads inherit this mask: only this thread takes the
     * stop signals, in sigwait below. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Answers of megabytes are built in one thread and freed in
     * another, once sent: with glibc's sliding threshold they would come
     * from the threads' heaps after the first one freed, and a heap
     * keeps what it had.  Fixed here, each has pages of its own, given
     * back when it is sent. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    pthread_mutex_init(&s.job_lock, NULL);
    pthread_cond_init(&s.job_ready, NULL);
    for (; s.n_workers < threads; s.n_workers++)
        if (pthread_create(&s.workers[s.n_workers], NULL, worker, &s)) {
            stop_workers(&s);
            cli_error("cannot start the worker threads");
            return EXIT_ERROR;
        }
    /* The gate listens, and hands libmicrohttpd each connection whose
     * first request head fits (serve_gate.c). */
    serve_gate *gate;
    if (gate_listen(&gate, (struct sockaddr *)&addr, alen)) {
        int e = errno;
        stop_workers(&s);
        cli_error("cannot listen on %s: %s", listen, strerror(e));
        return EXIT_ERROR;
    }
    struct MHD_Daemon *d = mhd.start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
            MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET,
        0, NULL, NULL, handle, &s,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)max_conn,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_POOL_BYTES,
        MHD_OPTION_NOTIFY_COMPLETED, completed, &s,
        MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, &s,
        MHD_OPTION_END);
    if (!d || gate_start(gate, d, (unsigned)max_conn, (unsigned)timeout,
                         gate_refused, &s)) {
        int e = errno;
        gate_stop(gate);
        stop_workers(&s);
        if (d)
            mhd.stop_daemon(d);
        cli_error("cannot serve on %s: %s", listen, strerror(e));
        return EXIT_ERROR;
    }
    if (!s.quiet && pthread_create(&s.log_thread, NULL, log_writer, &s)) {
        gate_stop(gate);
        stop_workers(&s);
        mhd.stop_daemon(d);
        cli_error("cannot start the access log's thread");
        return EXIT_ERROR;
    }
    if (timeout > 0 &&
        pthread_create(&s.sweeper_thread, NULL, sweeper, &s)) {
        gate_stop(gate);
        stop_workers(&s);
        mhd.stop_daemon(d);
        cli_error("cannot start the slow clients' thread");
        return EXIT_ERROR;
    }
    char host[128];
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(listen, ':') - listen),
             listen);
    fprintf(stderr, "listening on http://%s:%u\n", host,
            gate_port(gate));
    fflush(stderr);
    int sig = 0;
    for (;;) {
        sigwait(&stop, &sig);
        if (sig != SIGHUP)
            break;
        /* Nothing to reopen: the access log is standard output, and each
         * worker opens the index again when it changes on disk. */
        fprintf(stderr, "SIGHUP: nothing to reopen; serving on\n");
        fflush(stderr);
    }
    /* Stop accepting; let the requests in flight finish and be answered
     * (for up to DRAIN_SECONDS); then close every connection and stop. */
    gate_stop(gate);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long left = 0;
    for (;;) {
        left = s.in_flight;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (left <= 0 || t1.tv_sec - t0.tv_sec >= DRAIN_SECONDS)
            break;
        usleep(10000);
    }
    if (timeout > 0) {
        pthread_mutex_lock(&s.conn_lock);
        s.conn_stop = 1;
        pthread_cond_signal(&s.conn_stop_cv);
        pthread_mutex_unlock(&s.conn_lock);
        pthread_join(s.sweeper_thread, NULL);
    }
    stop_workers(&s); /* every connection resumed, as stopping the daemon needs */
    mhd.stop_daemon(d);
    if (!s.quiet) {
        /* The log's last lines, for as long as standard output takes
         * them (a reader that stopped reading keeps them, and the thread
         * ends with the process). */
        pthread_mutex_lock(&s.log_lock);
        s.log_stop = 1;
        pthread_cond_signal(&s.log_ready);
        pthread_mutex_unlock(&s.log_lock);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 5;
        if (pthread_timedjoin_np(s.log_thread, NULL, &until)) {
            /* Standard output takes nothing: the lines still queued are
             * dropped (the one being written stays with its thread). */
            pthread_mutex_lock(&s.log_lock);
            for (; s.log_n; s.log_n--) {
                cJSON_free(s.log_q[s.log_head]);
                s.log_head = (s.log_head + 1) % LOG_QUEUE;
            }
            pthread_mutex_unlock(&s.log_lock);
            pthread_detach(s.log_thread);
        }
    }
    fprintf(stderr, "stopped on %s%s\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
            left > 0 ? " (requests still running after the drain were cut)"
                     : "");
    pthread_key_delete(s.handle);
    return EXIT_OK_;
}
