/*
 * serve_gate.h -- the server's door (serve_gate.c): it listens, reads
 * each new connection's first request head before libmicrohttpd does,
 * and hands libmicrohttpd only the connections whose head fits.
 */
#ifndef PDX_SERVE_GATE_H
#define PDX_SERVE_GATE_H

#include <microhttpd.h>
#include <sys/socket.h>

/* The most bytes a request's head (request line and headers, up to the
 * empty line) may take, and the most header fields it may have (Apache's
 * LimitRequestFields).  libmicrohttpd's pool (SERVE_POOL_BYTES in
 * cmd_serve.c) holds the head, about 65 bytes more a field, and the
 * answer's headers: 32 KB fits 24 KB and 100 fields with room to spare,
 * and a pool of 32 KB or less is malloc()ed, where a larger one is
 * mmap()ed and unmapped for every connection (0.06 ms more each, here). */
#define SERVE_HEAD_MAX (24 * 1024)
#define SERVE_HEAD_FIELDS 100

/* What a refused head is told (printf formats of the bound), by the gate
 * and, for a later request of a kept-alive connection, by cmd_serve.c. */
#define SERVE_LINE_TOO_LONG "the request line (the URL) is longer than %d bytes"
#define SERVE_HEADERS_TOO_LONG \
    "the request's headers are longer than %d bytes in all"
#define SERVE_TOO_MANY_FIELDS "the request has more than %d header fields"

typedef struct serve_gate serve_gate;

/* Told of each connection the gate answered itself (status 414 or 431),
 * on the gate's thread: the peer's address, the request's method and
 * path ("GET /search", at most 200 bytes), and the answer's body bytes. */
typedef void (*gate_refused_fn)(void *ctx, const struct sockaddr *peer,
                                unsigned status, const char *request,
                                size_t bytes);

/* Listen on addr (len bytes).  0, or -1 with errno set (the address
 * cannot be bound).  *out is the caller's, for gate_start and gate_stop. */
int gate_listen(serve_gate **out, const struct sockaddr *addr,
                socklen_t len);

/* The port the gate listens on (the one the system chose for port 0). */
unsigned gate_port(const serve_gate *g);

/* Start handing connections to d (started with MHD_USE_NO_LISTEN_SOCKET
 * and MHD_USE_ITC): at most max_conn wait at the gate at once, each for
 * at most timeout_s seconds (0: no limit) for its head.  refused (may be
 * NULL) is told of every refusal.  0, or -1 with errno set. */
int gate_start(serve_gate *g, struct MHD_Daemon *d, unsigned max_conn,
               unsigned timeout_s, gate_refused_fn refused, void *ctx);

/* Stop listening, close the connections still at the gate, free g.
 * Connections already handed over are libmicrohttpd's. */
void gate_stop(serve_gate *g);

#endif
