/*
 * test_exchange.c -- the mailboxes through which `paperdex index --jobs`
 * workers hand each other records (indexer/exchange.c).
 *
 * Three threads each "read" RECORDS records of their own and send every
 * record that is another's to it, putting (here: checking and counting)
 * what they receive while a mailbox they send to is full, as sync.c's
 * workers do.  Worker 0 is slow to take its mail, so the others meet
 * full mailboxes.  Every record must reach its worker exactly once, as
 * it was sent (id, title, authors, path, line), and every worker must
 * finish: a lost wake-up or two workers waiting on each other hangs the
 * test, and CTest's timeout fails it.  Then a worker that never started
 * (xchg_abandon): what is sent to it is dropped and the others still end.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../indexer/exchange.h"
#include "check.h"

enum { N = 3, RECORDS = 20000 };

static exchange *x;
static const char *paths[N] = {"src-0.jsonl", "src-1.jsonl", "src-2.jsonl"};
static unsigned char got[N][RECORDS]; /* got[from][i]: times received */
static atomic_int bad, full_seen;

static unsigned route(unsigned from, unsigned i, unsigned n)
{
    return (from * 7 + i * 13 + i / 5) % n;
}

/* Check and count one batch received by worker k. */
static void receive(unsigned k, xchg_batch *b)
{
    for (size_t j = 0; j < b->n; j++) {
        const xchg_item *it = &b->v[j];
        unsigned from, i;
        char title[64];
        if (sscanf(it->rec.id, "w%u-%u", &from, &i) != 2 || from >= N ||
            i >= RECORDS || route(from, i, N) != k || it->line != i + 1 ||
            strcmp(it->path, paths[from])) {
            atomic_fetch_add(&bad, 1);
            continue;
        }
        snprintf(title, sizeof title, "Title of record %u of worker %u", i,
                 from);
        if (!it->rec.title || strcmp(it->rec.title, title) ||
            it->rec.n_authors != 2 || strcmp(it->rec.authors[1], "B. Two"))
            atomic_fetch_add(&bad, 1);
        got[from][i]++; /* one receiver per record: no race */
    }
    xchg_batch_free(b);
}

static int take_one(unsigned k)
{
    xchg_batch *b = xchg_take(x, k, 0);
    if (!b)
        return 0;
    if (k == 0) { /* the slow one */
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    receive(k, b);
    return 1;
}

static void *worker(void *arg)
{
    unsigned k = (unsigned)(size_t)arg;
    const char *authors[] = {"A. One", "B. Two"};
    for (unsigned i = 0; i < RECORDS; i++) {
        unsigned to = route(k, i, N);
        if (to == k) {
            got[k][i]++;
            continue;
        }
        char id[32], title[64];
        snprintf(id, sizeof id, "w%u-%u", k, i);
        snprintf(title, sizeof title, "Title of record %u of worker %u", i,
                 k);
        pdx_work w = PDX_WORK_INIT;
        w.id = id;
        w.title = title;
        w.authors = authors;
        w.n_authors = 2;
        int rc;
        while ((rc = xchg_send(x, k, to, &w, paths[k], i + 1)) == XCHG_FULL) {
            atomic_fetch_add(&full_seen, 1);
            if (!take_one(k))
                xchg_wait(x);
        }
        if (rc)
            atomic_fetch_add(&bad, 1);
        /* the strings sent were copied: overwrite ours */
        memset(id, 'x', sizeof id - 1);
        memset(title, 'x', sizeof title - 1);
        if (i % XCHG_BATCH == 0)
            take_one(k);
    }
    while (xchg_flush(x, k) == XCHG_FULL)
        if (!take_one(k))
            xchg_wait(x);
    xchg_done_reading(x, k);
    xchg_batch *b;
    while ((b = xchg_take(x, k, 1)))
        receive(k, b);
    return NULL;
}

int main(void)
{
    x = xchg_new(N);
    CHECK(x != NULL);
    if (!x)
        return check_done();
    pthread_t t[N];
    for (unsigned k = 0; k < N; k++)
        CHECK(pthread_create(&t[k], NULL, worker, (void *)(size_t)k) == 0);
    for (unsigned k = 0; k < N; k++)
        pthread_join(t[k], NULL);
    xchg_free(x);
    unsigned missing = 0, twice = 0;
    for (unsigned k = 0; k < N; k++)
        for (unsigned i = 0; i < RECORDS; i++) {
            missing += got[k][i] == 0;
            twice += got[k][i] > 1;
        }
    CHECK_INT(missing, 0);
    CHECK_INT(twice, 0);
    CHECK_INT(atomic_load(&bad), 0);
    /* the slow worker's mailbox filled: the wait-and-take path ran */
    CHECK(atomic_load(&full_seen) > 0);
    printf("exchange: %d records, %d sends met a full mailbox\n", N * RECORDS,
           atomic_load(&full_seen));

    /* Worker 2 never started: worker 0 and 1 still end, what they sent
     * it is dropped, and what they sent each other arrives. */
    memset(got, 0, sizeof got);
    atomic_store(&bad, 0);
    x = xchg_new(N);
    CHECK(x != NULL);
    if (!x)
        return check_done();
    xchg_abandon(x, 2);
    for (unsigned k = 0; k < 2; k++)
        CHECK(pthread_create(&t[k], NULL, worker, (void *)(size_t)k) == 0);
    for (unsigned k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    xchg_free(x);
    missing = 0;
    unsigned dropped_got = 0;
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < RECORDS; i++) {
            unsigned to = route(k, i, N);
            if (to == 2)
                dropped_got += got[k][i];
            else
                missing += got[k][i] != 1;
        }
    CHECK_INT(missing, 0);
    CHECK_INT(dropped_got, 0);
    CHECK_INT(atomic_load(&bad), 0);
    return check_done();
}
