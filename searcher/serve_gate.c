/*
 * serve_gate.c -- the server's door: it listens, and reads each new
 * connection's first request head before libmicrohttpd does.
 *
 * Why.  libmicrohttpd 0.9.75 answers a request line or headers that do
 * not fit a connection's memory pool with a 414 or 431 of its own, an
 * HTML page compiled into the library, and gives its user no hook to
 * answer instead.  Every other error of the server is JSON
 * (docs/operations.md).  So the server listens itself and gives
 * libmicrohttpd only connections whose first head is known to fit: this
 * thread polls each new connection and looks at what it sent with
 * MSG_PEEK, which leaves the bytes in the socket for libmicrohttpd to
 * read.  Once the head's empty line is in, within SERVE_HEAD_MAX bytes,
 * the connection is handed over (MHD_add_connection); libmicrohttpd's
 * pool is larger than that, so it never refuses it.  A head that passes
 * SERVE_HEAD_MAX gets a JSON 414 from here when its request line is
 * most of it (the URL is too long), else a 431 (the headers are), as
 * does a head of more than SERVE_HEAD_FIELDS header fields; the
 * connection is then closed.
 *
 * Waiting for more bytes without reading them: the socket's receive low
 * mark (SO_RCVLOWAT) is set one past what was seen, so that poll()
 * wakes only when more has come, not again and again for bytes already
 * looked at.  A connection waits at the gate for at most the server's
 * --timeout, however its bytes trickle in (the slow-client rule the
 * server applies once libmicrohttpd has it), and at most max_conn wait
 * at once: past that new ones wait in the listen queue until one leaves,
 * as they do at libmicrohttpd's own limit.
 *
 * A refused connection's answer is written, its sending side shut, and
 * whatever the client still sends read and dropped for a moment
 * (DRAIN_SECONDS, DRAIN_BYTES) before it is closed: closing a socket
 * with unread bytes makes the kernel send a reset, which can reach the
 * client before the answer does.
 *
 * What the gate does not see: the second and later requests of a kept-
 * alive connection, which libmicrohttpd reads itself.  cmd_serve.c
 * answers those past SERVE_HEAD_MAX with the same JSON 414 and 431, up
 * to the size of libmicrohttpd's pool (SERVE_POOL_BYTES there); only a
 * later request larger than that still gets libmicrohttpd's own page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "serve_gate.h"
#include "serve_mhd.h"

#define DRAIN_SECONDS 2
#define DRAIN_BYTES (4 << 20)

typedef struct gate_conn {
    int fd;
    int draining;       /* refused: reading what is left, then closed */
    size_t drained;     /* bytes read and dropped, once refused */
    struct timespec since;
    struct sockaddr_storage peer;
    socklen_t peer_len;
} gate_conn;

struct serve_gate {
    int lfd;
    int wake[2]; /* a byte on wake[1] stops the thread */
    pthread_t thread;
    int started;
    struct MHD_Daemon *d;
    unsigned max_conn, timeout_s;
    gate_refused_fn refused;
    void *ctx;
    gate_conn *conns;
    size_t n;
    char buf[SERVE_HEAD_MAX + 2]; /* a head, one byte past, and a NUL */
};

int gate_listen(serve_gate **out, const struct sockaddr *addr, socklen_t len)
{
    *out = NULL;
    serve_gate *g = calloc(1, sizeof *g);
    if (!g)
        return -1;
    g->wake[0] = g->wake[1] = -1;
    g->lfd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK |
                    SOCK_CLOEXEC, 0);
    int one = 1;
    if (g->lfd < 0 ||
        setsockopt(g->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(g->lfd, addr, len) || listen(g->lfd, 511) ||
        pipe2(g->wake, O_CLOEXEC | O_NONBLOCK)) {
        int e = errno;
        gate_stop(g);
        errno = e;
        return -1;
    }
    *out = g;
    return 0;
}

unsigned gate_port(const serve_gate *g)
{
    struct sockaddr_storage ss;
    socklen_t n = sizeof ss;
    if (getsockname(g->lfd, (struct sockaddr *)&ss, &n))
        return 0;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void drop(serve_gate *g, size_t i)
{
    if (g->conns[i].fd >= 0)
        close(g->conns[i].fd);
    g->conns[i] = g->conns[--g->n];
}

static void low_mark(int fd, size_t bytes)
{
    int v = bytes > SERVE_HEAD_MAX + 1 ? SERVE_HEAD_MAX + 1 : (int)bytes;
    (void)setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof v);
}

/* Where the head held in b[0..n) ends (one past its empty line), or 0;
 * *lines: the lines it has (or has so far), the request line first. */
static size_t head_end(const char *b, size_t n, size_t *lines)
{
    *lines = 0;
    for (const char *p = memchr(b, '\n', n); p;
         p = memchr(p + 1, '\n', n - (size_t)(p + 1 - b))) {
        ++*lines;
        const char *q = p + 1;
        if (q < b + n && *q == '\r')
            q++;
        if (q < b + n && *q == '\n')
            return (size_t)(q + 1 - b);
    }
    return 0;
}

/* Why a head is refused. */
enum too { LINE_TOO_LONG, HEADERS_TOO_LONG, TOO_MANY_FIELDS };

/* Answer connection i, whose head's first bytes are in g->buf
 * (NUL-terminated), with a 414 or 431 saying why, and start draining
 * it. */
static void refuse(serve_gate *g, size_t i, enum too why_)
{
    gate_conn *k = &g->conns[i];
    const unsigned status = why_ == LINE_TOO_LONG ? 414 : 431;
    char why[100], body[200], msg[512];
    const size_t line_bytes = strcspn(g->buf, "\n");
    if (why_ == LINE_TOO_LONG && line_bytes >= SERVE_HEAD_MAX)
        snprintf(why, sizeof why, SERVE_LINE_TOO_LONG, SERVE_HEAD_MAX);
    else if (why_ == LINE_TOO_LONG)
        snprintf(why, sizeof why, "the request is longer than %d bytes, "
                 "%zu of them its request line (the URL)", SERVE_HEAD_MAX,
                 line_bytes);
    else if (why_ == HEADERS_TOO_LONG)
        snprintf(why, sizeof why, SERVE_HEADERS_TOO_LONG, SERVE_HEAD_MAX);
    else
        snprintf(why, sizeof why, SERVE_TOO_MANY_FIELDS, SERVE_HEAD_FIELDS);
    int bn = snprintf(body, sizeof body,
                      "{\"error\":{\"status\":%u,\"message\":\"%s\"}}",
                      status, why);
    int mn = snprintf(msg, sizeof msg,
                      "HTTP/1.1 %u %s\r\nContent-Type: application/json; "
                      "charset=utf-8\r\nContent-Length: %d\r\n"
                      "Connection: close\r\n\r\n%s",
                      status,
                      status == 414 ? "URI Too Long"
                                    : "Request Header Fields Too Large",
                      bn, body);
    if (g->refused) {
        /* "METHOD /path", as the access log names a request */
        char line[201];
        size_t m = strcspn(g->buf, " \r\n"), ln = m;
        if (g->buf[m] == ' ')
            ln += 1 + strcspn(g->buf + m + 1, "? \r\n");
        if (ln > 200)
            ln = 200;
        memcpy(line, g->buf, ln);
        line[ln] = '\0';
        g->refused(g->ctx, (const struct sockaddr *)&k->peer, status, line,
                   (size_t)bn);
    }
    /* A few hundred bytes into an empty send buffer: one send. */
    (void)send(k->fd, msg, (size_t)mn, MSG_NOSIGNAL | MSG_DONTWAIT);
    shutdown(k->fd, SHUT_WR);
    k->draining = 1;
    k->drained = 0;
    clock_gettime(CLOCK_MONOTONIC, &k->since);
    low_mark(k->fd, 1);
}

/* Connection i is readable (poll's revents): look at its head, or
 * drain it. */
static void look(serve_gate *g, size_t i, short revents)
{
    gate_conn *k = &g->conns[i];
    if (k->draining) {
        ssize_t r = recv(k->fd, g->buf, sizeof g->buf, MSG_DONTWAIT);
        if (r > 0 && (k->drained += (size_t)r) < DRAIN_BYTES)
            return;
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        drop(g, i);
        return;
    }
    ssize_t r = recv(k->fd, g->buf, SERVE_HEAD_MAX + 1,
                     MSG_PEEK | MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (r <= 0) { /* closed before a whole head, or an error */
        drop(g, i);
        return;
    }
    size_t n = (size_t)r, lines, end = head_end(g->buf, n, &lines);
    g->buf[n] = '\0';
    if (lines > SERVE_HEAD_FIELDS + 1) {
        refuse(g, i, TOO_MANY_FIELDS);
        return;
    }
    if (end && end <= SERVE_HEAD_MAX) {
        low_mark(k->fd, 1);
        /* libmicrohttpd closes the socket if it cannot take it (its
         * connection limit, no memory). */
        (void)mhd.add_connection(g->d, k->fd, (struct sockaddr *)&k->peer,
                                 k->peer_len);
        k->fd = -1;
        drop(g, i);
        return;
    }
    if (n > SERVE_HEAD_MAX) {
        /* The URL's fault when the request line is most of the head. */
        refuse(g, i, strcspn(g->buf, "\n") * 2 > SERVE_HEAD_MAX
                         ? LINE_TOO_LONG
                         : HEADERS_TOO_LONG);
        return;
    }
    if (revents & (POLLRDHUP | POLLHUP | POLLERR)) {
        /* the client stopped sending before its head was whole */
        drop(g, i);
        return;
    }
    low_mark(k->fd, n + 1);
}

/* Accept what waits, while the gate has room: the rest wait in the
 * listen queue, as they do at libmicrohttpd's own limit. */
static void take_new(serve_gate *g)
{
    while (g->n < g->max_conn) {
        struct sockaddr_storage peer;
        socklen_t pl = sizeof peer;
        int fd = accept4(g->lfd, (struct sockaddr *)&peer, &pl,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; /* EAGAIN, or out of descriptors for now */
        gate_conn *k = &g->conns[g->n++];
        memset(k, 0, sizeof *k);
        k->fd = fd;
        k->peer = peer;
        k->peer_len = pl;
        clock_gettime(CLOCK_MONOTONIC, &k->since);
        /* A client's head most often comes with its connection's last
         * handshake packet: looked at now, not a poll later. */
        look(g, g->n - 1, 0);
    }
}

static void *run(void *arg)
{
    serve_gate *g = arg;
    struct pollfd *p = calloc((size_t)g->max_conn + 2, sizeof *p);
    if (!p)
        return NULL;
    for (;;) {
        p[0] = (struct pollfd){.fd = g->wake[0], .events = POLLIN};
        p[1] = (struct pollfd){.fd = g->lfd,
                               .events = g->n < g->max_conn ? POLLIN : 0};
        for (size_t i = 0; i < g->n; i++)
            p[i + 2] = (struct pollfd){.fd = g->conns[i].fd,
                                       .events = POLLIN | POLLRDHUP};
        size_t polled = g->n;
        int r = poll(p, polled + 2, 1000);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && p[0].revents)
            break;
        /* Backwards: drop() moves the last connection into slot i. */
        for (size_t i = polled; r > 0 && i-- > 0;)
            if (p[i + 2].revents)
                look(g, i, p[i + 2].revents);
        if (r > 0 && (p[1].revents & POLLIN))
            take_new(g);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (size_t i = g->n; i-- > 0;) {
            const gate_conn *k = &g->conns[i];
            time_t limit = k->draining ? DRAIN_SECONDS : (time_t)g->timeout_s;
            if (limit > 0 && now.tv_sec - k->since.tv_sec >= limit)
                drop(g, i);
        }
    }
    free(p);
    return NULL;
}

int gate_start(serve_gate *g, struct MHD_Daemon *d, unsigned max_conn,
               unsigned timeout_s, gate_refused_fn refused, void *ctx)
{
    g->d = d;
    g->max_conn = max_conn ? max_conn : 1;
    g->timeout_s = timeout_s;
    g->refused = refused;
    g->ctx = ctx;
    if (!(g->conns = calloc(g->max_conn, sizeof *g->conns)))
        return -1;
    int e = pthread_create(&g->thread, NULL, run, g);
    if (e) {
        errno = e;
        return -1;
    }
    g->started = 1;
    return 0;
}

void gate_stop(serve_gate *g)
{
    if (!g)
        return;
    if (g->started) {
        (void)!write(g->wake[1], "", 1);
        pthread_join(g->thread, NULL);
    }
    while (g->n)
        drop(g, g->n - 1);
    free(g->conns);
    if (g->lfd >= 0)
        close(g->lfd);
    if (g->wake[0] >= 0)
        close(g->wake[0]);
    if (g->wake[1] >= 0)
        close(g->wake[1]);
    free(g);
}
