/*
 * exchange.c -- the workers of `paperdex index --jobs` hand each other
 * records; see exchange.h for why and how.
 *
 * One mutex and one condition variable for the whole exchange: they are
 * taken once a batch of XCHG_BATCH records, not once a record, so there
 * is nothing to gain from finer locks.  A worker's partial batches for
 * the others (out[from][to]) are its own and need no lock.
 */
#include "exchange.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "../corpus/record.h"

struct exchange {
    unsigned n;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned reading;      /* workers still reading their sources */
    xchg_batch **head, **tail;
    unsigned *queued;      /* batches in each mailbox */
    unsigned char *gone;   /* workers abandoned (never started) */
    xchg_batch **out;      /* out[from * n + to]: filling, or full and
                              waiting for room */
};

/* The exchange's arrays and the exchange itself (not its locks). */
static void free_arrays(exchange *x)
{
    free(x->head);
    free(x->tail);
    free(x->queued);
    free(x->gone);
    free(x->out);
    free(x);
}

void xchg_batch_free(xchg_batch *b)
{
    if (!b)
        return;
    arena_free(&b->a);
    free(b);
}

/* Free a mailbox's chain of batches. */
static void free_chain(xchg_batch *b)
{
    for (xchg_batch *next; b; b = next) {
        next = b->next;
        xchg_batch_free(b);
    }
}

exchange *xchg_new(unsigned n)
{
    exchange *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->n = n;
    x->reading = n;
    x->head = calloc(n, sizeof *x->head);
    x->tail = calloc(n, sizeof *x->tail);
    x->queued = calloc(n, sizeof *x->queued);
    x->gone = calloc(n, 1);
    x->out = calloc((size_t)n * n, sizeof *x->out);
    pthread_condattr_t ca;
    int ok = x->head && x->tail && x->queued && x->gone && x->out &&
             pthread_condattr_init(&ca) == 0;
    if (ok) {
        /* timed waits on the monotonic clock: a clock change cannot
         * stretch them */
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        ok = pthread_cond_init(&x->cv, &ca) == 0;
        pthread_condattr_destroy(&ca);
        if (ok && pthread_mutex_init(&x->mu, NULL) != 0) {
            pthread_cond_destroy(&x->cv);
            ok = 0;
        }
    }
    if (!ok) {
        free_arrays(x);
        return NULL;
    }
    return x;
}

void xchg_free(exchange *x)
{
    if (!x)
        return;
    for (unsigned k = 0; k < x->n; k++)
        free_chain(x->head[k]);
    for (size_t i = 0; i < (size_t)x->n * x->n; i++)
        xchg_batch_free(x->out[i]);
    pthread_mutex_destroy(&x->mu);
    pthread_cond_destroy(&x->cv);
    free_arrays(x);
}

/* Put out[from][to] in to's mailbox if there is room: 0, or XCHG_FULL. */
static int push(exchange *x, unsigned from, unsigned to)
{
    xchg_batch **slot = &x->out[(size_t)from * x->n + to], *b = *slot;
    if (!b || !b->n)
        return 0;
    pthread_mutex_lock(&x->mu);
    if (x->gone[to]) {
        pthread_mutex_unlock(&x->mu);
        xchg_batch_free(b);
        *slot = NULL;
        return 0;
    }
    if (x->queued[to] >= XCHG_MAILBOX) {
        pthread_mutex_unlock(&x->mu);
        return XCHG_FULL;
    }
    b->next = NULL;
    if (x->tail[to])
        x->tail[to]->next = b;
    else
        x->head[to] = b;
    x->tail[to] = b;
    x->queued[to]++;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
    *slot = NULL;
    return 0;
}

int xchg_send(exchange *x, unsigned from, unsigned to, const pdx_work *rec,
              const char *path, uint64_t line)
{
    xchg_batch **slot = &x->out[(size_t)from * x->n + to];
    if (*slot && (*slot)->n == XCHG_BATCH && push(x, from, to))
        return XCHG_FULL;
    if (!*slot && !(*slot = calloc(1, sizeof **slot)))
        return -1;
    xchg_batch *b = *slot;
    xchg_item *it = &b->v[b->n];
    if (record_copy(&b->a, &it->rec, rec) != 0)
        return -1;
    it->path = path;
    it->line = line;
    b->n++;
    if (b->n == XCHG_BATCH)
        push(x, from, to); /* else it waits in out[] for the next call */
    return 0;
}

int xchg_flush(exchange *x, unsigned from)
{
    int rc = 0;
    for (unsigned to = 0; to < x->n; to++)
        if (push(x, from, to))
            rc = XCHG_FULL;
    return rc;
}

void xchg_done_reading(exchange *x, unsigned k)
{
    (void)k;
    pthread_mutex_lock(&x->mu);
    x->reading--;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
}

void xchg_abandon(exchange *x, unsigned k)
{
    pthread_mutex_lock(&x->mu);
    x->gone[k] = 1;
    x->reading--;
    free_chain(x->head[k]);
    x->head[k] = x->tail[k] = NULL;
    x->queued[k] = 0;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
}

xchg_batch *xchg_take(exchange *x, unsigned k, int wait)
{
    pthread_mutex_lock(&x->mu);
    while (wait && !x->head[k] && x->reading > 0)
        pthread_cond_wait(&x->cv, &x->mu);
    xchg_batch *b = x->head[k];
    if (b) {
        if (!(x->head[k] = b->next))
            x->tail[k] = NULL;
        x->queued[k]--;
        pthread_cond_broadcast(&x->cv); /* room for a sender */
    }
    pthread_mutex_unlock(&x->mu);
    return b;
}

void xchg_wait(exchange *x)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 10 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&x->mu);
    int rc = pthread_cond_timedwait(&x->cv, &x->mu, &ts);
    (void)rc; /* ETIMEDOUT is the moment passing */
    pthread_mutex_unlock(&x->mu);
}
