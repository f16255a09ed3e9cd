/* embed.c -- a long-running program that embeds paperdex: one thread keeps
 * an index in step with a directory of sources (pdx_sync, what cron's
 * `paperdex index` does: only what changed, crash-safe, the same index as
 * a fresh build), while the main thread answers searches on a read handle
 * of its own.  The read handle needs no reopening: each search sees the
 * newest commit, across a rebuild swapped in too.
 *
 *   cc embed.c $(pkg-config --cflags --libs paperdex) -pthread -o embed
 *   ./embed INDEX SOURCE_DIR [SECONDS_BETWEEN_SYNCS]
 *
 * Standard input: one query per line; "quit" (or the end) stops.  Each
 * query gets one line, "hits<TAB>N<TAB>FIRST_ID<TAB>QUERY" (FIRST_ID "-"
 * when nothing matched); each sync that changed something one line,
 * "sync<TAB>A added, U updated, R removed<TAB>N records indexed".  The
 * program keeps one pdx_index per thread, as the library asks. */
#include <paperdex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t first_sync = PTHREAD_COND_INITIALIZER;
static int synced_once, stopping;

struct syncer {
    const char *db, *dir;
    double every;
};

/* Reports from pdx_sync: only failures are worth a line here. */
static int on_report(void *ctx, const pdx_sync_event *ev)
{
    (void)ctx;
    if (ev->kind == PDX_SYNC_ERROR) {
        pthread_mutex_lock(&out_lock);
        fprintf(stderr, "sync error: %s\n", ev->message);
        pthread_mutex_unlock(&out_lock);
    }
    return 0; /* nonzero would stop the run */
}

static void *sync_loop(void *arg)
{
    const struct syncer *s = arg;
    pdx_sync_options o = PDX_SYNC_OPTIONS_INIT;
    o.progress = on_report;
    o.wait = 5; /* another writer (cron itself?) may hold the lock */
    for (;;) {
        pdx_sync_summary sum = PDX_SYNC_SUMMARY_INIT;
        int rc = pdx_sync(&sum, s->db, &s->dir, 1, &o);
        pthread_mutex_lock(&out_lock);
        if (rc)
            fprintf(stderr, "sync failed: %s\n", sum.message);
        else if (sum.sources_added || sum.sources_updated ||
                 sum.sources_removed)
            printf("sync\t%llu added, %llu updated, %llu removed\t%llu "
                   "records indexed\n",
                   (unsigned long long)sum.sources_added,
                   (unsigned long long)sum.sources_updated,
                   (unsigned long long)sum.sources_removed,
                   (unsigned long long)sum.records_indexed);
        fflush(stdout);
        pthread_mutex_unlock(&out_lock);
        pthread_mutex_lock(&state_lock);
        synced_once = 1;
        pthread_cond_broadcast(&first_sync);
        /* Sleep until the next round, or until told to stop. */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)s->every;
        until.tv_nsec += (long)((s->every - (double)(time_t)s->every) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!stopping &&
               pthread_cond_timedwait(&first_sync, &state_lock, &until) == 0)
            ;
        int stop = stopping;
        pthread_mutex_unlock(&state_lock);
        if (stop)
            return NULL;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s INDEX SOURCE_DIR [SECONDS]\n", argv[0]);
        return 2;
    }
    struct syncer s = {argv[1], argv[2], argc > 3 ? atof(argv[3]) : 1.0};
    pthread_t t;
    if (pthread_create(&t, NULL, sync_loop, &s) != 0) {
        fprintf(stderr, "cannot start the sync thread\n");
        return 1;
    }
    /* The index exists once the first sync has run. */
    pthread_mutex_lock(&state_lock);
    while (!synced_once)
        pthread_cond_wait(&first_sync, &state_lock);
    pthread_mutex_unlock(&state_lock);

    pdx_index *ix = NULL; /* this thread's own handle */
    int status = 0;
    if (pdx_open(&ix, s.db, PDX_OPEN_READ) != 0) {
        fprintf(stderr, "open: %s\n", pdx_errmsg(ix));
        status = 1;
    }
    char line[4096];
    while (!status && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strcmp(line, "quit"))
            break;
        pdx_query q = PDX_QUERY_INIT;
        q.text = line;
        q.snippet_bytes = 0;
        pdx_results *r = NULL;
        int rc = pdx_search(&r, ix, &q);
        pthread_mutex_lock(&out_lock);
        if (rc)
            printf("error\t%s\t%s\n", pdx_errmsg(ix), line);
        else
            printf("hits\t%zu\t%s\t%s\n", pdx_results_total(r),
                   pdx_results_count(r) ? pdx_results_hit(r, 0)->work->id
                                        : "-",
                   line);
        fflush(stdout);
        pthread_mutex_unlock(&out_lock);
        pdx_results_free(r);
    }
    pthread_mutex_lock(&state_lock);
    stopping = 1;
    pthread_cond_broadcast(&first_sync);
    pthread_mutex_unlock(&state_lock);
    pthread_join(t, NULL);
    pdx_close(ix);
    return status;
}
