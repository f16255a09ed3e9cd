/*
 * prefetch.c -- a pdx_reader on a thread of its own; see prefetch.h.
 *
 * The thread fills batches of up to BATCH records, each record copied
 * with record_copy() into its batch's arena (the reader's own record
 * lives only until its next call), together with what the caller may ask
 * of it: the return code, skip kind, line, offset and message.  A ring
 * of NBATCH batches: the thread fills batch `produced % NBATCH` while
 * fewer than NBATCH are waiting or being read; the caller reads batch
 * `consumed % NBATCH` once the thread has finished it, and hands it back
 * when it asks for the record after its last one (the record it last
 * returned stays valid until then, as pdx_reader's does).
 *
 * The thread stops after the item that ends the stream (PDX_ITEROVER,
 * PDX_EIO or PDX_ENOMEM: the caller gets it, and the same again on
 * every later call), or when prefetch_free() asks it to, after the
 * record it is decoding.  It runs with every signal blocked, so that a
 * signal the program handles (SIGINT, SIGTERM from cron's killer) still
 * reaches the caller's thread as before.
 */
#include "prefetch.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/arena.h"
#include "reader.h"
#include "record.h"

#define BATCH 64
#define NBATCH 4

typedef struct item {
    int rc;
    pdx_work w;
    pdx_skip skip;
    uint64_t line, offset;
    int shared;      /* reader_shares_lines() after reading it */
    const char *msg; /* in the batch's arena; "" when rc is 0 */
} item;

typedef struct batch {
    arena a;
    item items[BATCH];
    size_t n;
} batch;

struct prefetch {
    pdx_reader *rd;
    int threaded;
    /* Threaded: the ring, and where the caller is in it. */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled, emptied;
    batch ring[NBATCH];
    size_t produced, consumed; /* under mu */
    int stop;                  /* under mu: the caller is done */
    int ended;                 /* the caller has read the final item */
    const item *cur;           /* the item last returned */
    size_t next;               /* index of the next item in the batch */
};

/* Read one record into slot it of batch b; 1 if it ends the stream. */
static int read_one(prefetch *ra, batch *b, item *it)
{
    const pdx_work *w = NULL;
    int rc = pdx_reader_next(&w, ra->rd);
    it->rc = rc;
    it->skip = pdx_reader_skip(ra->rd);
    it->line = pdx_reader_line(ra->rd);
    it->offset = pdx_reader_offset(ra->rd);
    it->shared = reader_shares_lines(ra->rd);
    it->msg = "";
    if (rc == 0) { /* w is set: pdx_reader_next's contract */
        if (record_copy(&b->a, &it->w, w) == 0)
            return 0;
        it->rc = PDX_ENOMEM;
        it->msg = "out of memory";
        return 1;
    }
    const char *m = arena_strdup(&b->a, pdx_reader_errmsg(ra->rd));
    it->msg = m ? m : "out of memory";
    return rc != PDX_EINVAL;
}

static void *run(void *arg)
{
    prefetch *ra = arg;
    int ended = 0;
    pthread_mutex_lock(&ra->mu);
    while (!ended) {
        while (!ra->stop && ra->produced - ra->consumed >= NBATCH)
            pthread_cond_wait(&ra->emptied, &ra->mu);
        if (ra->stop)
            break;
        batch *b = &ra->ring[ra->produced % NBATCH];
        pthread_mutex_unlock(&ra->mu);
        /* The batch is the thread's alone until `produced` moves on. */
        arena_reset(&b->a);
        b->n = 0;
        while (b->n < BATCH && !ended) {
            ended = read_one(ra, b, &b->items[b->n]);
            b->n++;
        }
        pthread_mutex_lock(&ra->mu);
        ra->produced++;
        pthread_cond_signal(&ra->filled);
        /* Checked between batches only: a caller that stops waits for
         * at most one batch's decoding. */
    }
    pthread_mutex_unlock(&ra->mu);
    return NULL;
}

/* Start the thread, its mutex and conditions with it; 0, or -1 with
 * nothing left to undo. */
static int start(prefetch *ra)
{
    if (pthread_mutex_init(&ra->mu, NULL))
        return -1;
    if (pthread_cond_init(&ra->filled, NULL))
        goto no_filled;
    if (pthread_cond_init(&ra->emptied, NULL))
        goto no_emptied;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&ra->thread, NULL, run, ra);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!err)
        return 0;
    pthread_cond_destroy(&ra->emptied);
no_emptied:
    pthread_cond_destroy(&ra->filled);
no_filled:
    pthread_mutex_destroy(&ra->mu);
    return -1;
}

int prefetch_open(prefetch **out, pdx_reader *rd, const char *path,
                  int threaded)
{
    *out = NULL;
    prefetch *ra = calloc(1, sizeof *ra);
    if (!ra)
        return PDX_ENOMEM;
    ra->rd = rd;
    struct stat st;
    if (threaded && path && strcmp(path, "-") && stat(path, &st) == 0 &&
        S_ISREG(st.st_mode))
        ra->threaded = start(ra) == 0;
    *out = ra;
    return 0;
}

int prefetch_next(prefetch *ra, const pdx_work **out)
{
    *out = NULL;
    if (!ra->threaded)
        return pdx_reader_next(out, ra->rd);
    if (ra->ended) /* the final item again, as the reader would */
        return ra->cur->rc;
    const batch *b = ra->cur ? &ra->ring[ra->consumed % NBATCH] : NULL;
    if (!b || ra->next == b->n) {
        pthread_mutex_lock(&ra->mu);
        if (b) { /* hand the read batch back */
            ra->consumed++;
            pthread_cond_signal(&ra->emptied);
        }
        while (ra->produced == ra->consumed)
            pthread_cond_wait(&ra->filled, &ra->mu);
        pthread_mutex_unlock(&ra->mu);
        b = &ra->ring[ra->consumed % NBATCH];
        ra->next = 0;
    }
    ra->cur = &b->items[ra->next++];
    /* The end, repeated from here on: its batch is never handed back,
     * and a thread that has ended touches no batch. */
    ra->ended = ra->cur->rc != 0 && ra->cur->rc != PDX_EINVAL;
    if (ra->cur->rc == 0)
        *out = &ra->cur->w;
    return ra->cur->rc;
}

pdx_skip prefetch_skip(const prefetch *ra)
{
    if (!ra->threaded)
        return pdx_reader_skip(ra->rd);
    return ra->cur ? ra->cur->skip : PDX_SKIP_NONE;
}

const char *prefetch_errmsg(const prefetch *ra)
{
    if (!ra->threaded)
        return pdx_reader_errmsg(ra->rd);
    return ra->cur ? ra->cur->msg : "";
}

uint64_t prefetch_line(const prefetch *ra)
{
    if (!ra->threaded)
        return pdx_reader_line(ra->rd);
    return ra->cur ? ra->cur->line : 0;
}

uint64_t prefetch_offset(const prefetch *ra)
{
    if (!ra->threaded)
        return pdx_reader_offset(ra->rd);
    return ra->cur ? ra->cur->offset : 0;
}

int prefetch_shared(const prefetch *ra)
{
    if (!ra->threaded)
        return reader_shares_lines(ra->rd);
    return ra->cur ? ra->cur->shared : 0;
}

int prefetch_threaded(const prefetch *ra) { return ra->threaded; }

void prefetch_free(prefetch *ra)
{
    if (!ra)
        return;
    if (ra->threaded) {
        pthread_mutex_lock(&ra->mu);
        ra->stop = 1;
        pthread_cond_signal(&ra->emptied);
        pthread_mutex_unlock(&ra->mu);
        pthread_join(ra->thread, NULL);
        pthread_cond_destroy(&ra->filled);
        pthread_cond_destroy(&ra->emptied);
        pthread_mutex_destroy(&ra->mu);
        for (size_t i = 0; i < NBATCH; i++)
            arena_free(&ra->ring[i].a);
    }
    pdx_reader_free(ra->rd);
    free(ra);
}
