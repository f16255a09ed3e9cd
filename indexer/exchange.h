/*
 * exchange.h -- how the workers of `paperdex index --jobs N` hand each
 * other records, so that the records of one work meet in one shard.
 *
 * Each worker builds a shard of its own, and records of one work that
 * land in two shards must be merged again once the shards are one index
 * (write_remerge): a few milliseconds a work, since it rewrites documents
 * Xapian has already written, where merging in the worker costs almost
 * nothing.  With sources that overlap (an arXiv snapshot and OpenAlex
 * works, a PubMed baseline and its updates) that was most of the run.
 * So every record has a worker, merge_route_hash() % N, and a worker
 * that decodes a record of another's (it reads whole files of its own,
 * sync.c's plan_sources, or every N-th line of a file all of them read,
 * corpus/reader.h) sends it a copy through the exchange.
 *
 * The exchange is a mailbox per worker, of batches of records, bounded
 * so that a fast reader cannot fill memory.  A worker sends into a full
 * mailbox only after emptying its own (xchg_send() returns
 * XCHG_FULL and the caller puts what it received first), so that two
 * workers sending to each other never both wait.  When a worker has read
 * its sources it says so (xchg_done_reading()) and goes on taking from
 * its mailbox until every worker has read its own (xchg_take() returns
 * NULL).
 *
 * Internal to libpaperdex.  Worker k uses only its own k; xchg_new and
 * xchg_free belong to the thread that starts and joins the workers.
 */
#ifndef PDX_EXCHANGE_H
#define PDX_EXCHANGE_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/paperdex.h"

/* Records a batch holds, and batches a mailbox holds. */
#define XCHG_BATCH 64
#define XCHG_MAILBOX 16

typedef struct xchg_item {
    pdx_work rec;     /* strings in the batch's arena */
    const char *path; /* borrowed: the run's list of sources */
    uint64_t line;
} xchg_item;

typedef struct xchg_batch {
    struct xchg_batch *next;
    arena a;
    size_t n;
    xchg_item v[XCHG_BATCH];
} xchg_batch;

typedef struct exchange exchange;

/* An exchange for n workers (n >= 2), all of them reading; NULL on
 * out-of-memory. */
exchange *xchg_new(unsigned n);

/* Free it, and any batch still in it.  NULL is ignored. */
void xchg_free(exchange *x);

/* Worker `from` sends a copy of rec (read at path:line) to worker `to`.
 * 0: taken.  XCHG_FULL: to's mailbox is full and nothing was taken; the
 * caller empties its own (xchg_take with wait 0), or waits a moment
 * (xchg_wait) if it is empty, and sends again.  -1: out of memory. */
#define XCHG_FULL 1
int xchg_send(exchange *x, unsigned from, unsigned to, const pdx_work *rec,
              const char *path, uint64_t line);

/* Worker `from` sends the records it holds back in partial batches.
 * 0, or XCHG_FULL as xchg_send (call again). */
int xchg_flush(exchange *x, unsigned from);

/* Worker k has read its sources and flushed (xchg_flush returned 0). */
void xchg_done_reading(exchange *x, unsigned k);

/* A batch for worker k, which the caller frees with xchg_batch_free.
 * With wait 0, NULL when the mailbox is empty now; with wait 1, waits
 * for one, and NULL when every worker has read its sources and the
 * mailbox is empty: nothing more will come. */
xchg_batch *xchg_take(exchange *x, unsigned k, int wait);

/* Wait until some mailbox changes, or a moment (10 ms) has passed. */
void xchg_wait(exchange *x);

/* The workers that could not be started: they read nothing, and what is
 * sent to them is dropped (the run has failed). */
void xchg_abandon(exchange *x, unsigned k);

void xchg_batch_free(xchg_batch *b);

#endif
