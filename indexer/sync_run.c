/*
 * sync_run.c -- what every step of a pdx_sync() run shares: reports to
 * the caller's progress function (emit, emit_msg, emit_path), a failure
 * that ends the run (fail) or only a source (source_failed), commits,
 * and opening the index for the run (waiting out another writer's lock,
 * an older layout opened to be rebuilt).  The bottom of indexer/'s
 * sync_*.c files: each of them calls these, and these call none of
 * them (sync_run.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/handle.h"
#include "../common/paperdex.h"
#include "../common/shim.h"
#include "../corpus/merge.h"
#include "../corpus/prefetch.h"
#include "../corpus/reader.h"
#include "exchange.h"
#include "write.h"
#include "sync_run.h"

double sync_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Hand one report to the caller. */
void sync_emit(run *r, const pdx_sync_event *ev)
{
    if (!r->o->progress)
        return;
    if (r->lock)
        pthread_mutex_lock(r->lock);
    if (r->o->progress(r->o->progress_ctx, ev))
        *r->stop = 1;
    if (r->lock)
        pthread_mutex_unlock(r->lock);
}

void sync_emit_path(run *r, pdx_sync_kind kind, const char *path)
{
    pdx_sync_event ev = {.kind = kind, .path = path};
    sync_emit(r, &ev);
}


void sync_emit_msg(run *r, pdx_sync_kind kind, const char *path,
                     const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pdx_sync_event ev = {.kind = kind, .path = path, .message = msg};
    sync_emit(r, &ev);
}

/* The run cannot go on: code and message kept for the summary, and
 * reported.  The first failure's message is the one kept. */

void sync_fail(run *r, int code, const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->lock)
        pthread_mutex_lock(r->lock);
    if (!r->s->message[0]) {
        size_t n = strlen(msg);
        if (n >= sizeof r->s->message)
            n = sizeof r->s->message - 1;
        memcpy(r->s->message, msg, n);
        r->s->message[n] = '\0';
    }
    if (r->lock)
        pthread_mutex_unlock(r->lock);
    if (!r->fatal)
        r->fatal = code ? code : PDX_ERROR;
    pdx_sync_event ev = {.kind = PDX_SYNC_ERROR, .message = msg};
    sync_emit(r, &ev);
}

/* A source could not be read (to its end); the run goes on. */

void sync_source_failed(run *r, const char *path, const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->s->sources_failed++;
    if (r->source_errors) {
        pdx_sync_event ev = {.kind = PDX_SYNC_ERROR, .path = path,
                             .message = msg};
        sync_emit(r, &ev);
    }
}

int sync_commit(run *r)
{
    int rc = pdx_commit(r->ix);
    if (rc)
        sync_fail(r, rc, "commit failed: %s", pdx_errmsg(r->ix));
    r->since_commit = 0;
    return rc;
}

/* Open db for this run, waiting up to `wait` seconds for another writer's
 * lock.  An index of an older layout is opened to be rebuilt (r->upgrade,
 * r->full).  A dry run on an index that does not exist yet leaves r->ix
 * NULL: everything is new.  0, or the code with the message kept. */
int sync_open_index(run *r, const char *db, double wait)
{
    unsigned flags = r->o->dry_run ? PDX_OPEN_READ
                                   : PDX_OPEN_WRITE | PDX_OPEN_CREATE |
                                         r->builder | r->positions;
    double deadline = sync_now() + wait;
    for (;;) {
        int rc = pdx_open(&r->ix, db, flags);
        if (rc == 0)
            return 0;
        if (rc == PDX_EVERSION && !r->o->dry_run) {
            /* An index of an older layout: rebuilt from its sources
             * beside itself (as full does), searchable by the old
             * version until the swap. */
            pdx_close(r->ix);
            r->ix = NULL;
            rc = pdx_open(&r->ix, db, flags | PDX_OPEN_UPGRADE);
            if (rc == 0) {
                r->upgrade = pdx_index_layout(r->ix);
                r->full = 1;
                return 0;
            }
        }
        if (rc == PDX_ENOTFOUND && r->o->dry_run) {
            pdx_close(r->ix);
            r->ix = NULL;
            return 0;
        }
        if (rc != PDX_ELOCKED || sync_now() >= deadline) {
            snprintf(r->s->message, sizeof r->s->message, "%s%s",
                     pdx_errmsg(r->ix),
                     rc == PDX_ELOCKED && wait > 0 ? " (waited too long)" : "");
            pdx_close(r->ix);
            r->ix = NULL;
            return rc;
        }
        pdx_close(r->ix);
        r->ix = NULL;
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
