/*
 * sync_jobs.c -- a run with several jobs (sync.c): worker threads, each
 * with its own handle on a shard of its own (a library must not fork
 * behind its caller's back).  They share the sources line by line, or
 * with many files of like sizes file by file (plan_sources); each record
 * belongs to the worker its folded title routes it to
 * (merge_route_hash), and a worker sends the others the records of
 * theirs it decoded (indexer/exchange.c).  The shards are merged by
 * Xapian's compactor, the few works still split across them merged
 * again (remerge_built), and the result swapped in (sync_beside.c).
 */
#define _GNU_SOURCE /* renameat2 */
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
#include "../common/layout.h"
#include "../common/paperdex.h"
#include "../common/shim.h"
#include "../corpus/merge.h"
#include "../corpus/prefetch.h"
#include "../corpus/reader.h"
#include "exchange.h"
#include "shim_write.h"
#include "write.h"
#include "sync_run.h"

/* ------------------------------------------------------------ workers */

typedef struct worker {
    run w;
    pdx_sync_summary counts;
    const char *shard;
    pthread_t thread;
    int started;
} worker;

/* Worker k of n: put the records that are k's (merge_route_hash) into
 * the new index `shard`, reading every source or those it owns. */
static void *work(void *arg)
{
    worker *wk = arg;
    run *w = &wk->w;
    /* A shard is read only by the compactor, in this run: no fsync, and
     * written in place (PDX_OPEN_NOSYNC). */
    int rc = pdx_open(&w->ix, wk->shard,
                      PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC |
                          w->positions);
    if (!rc) {
        /* Its positions' chunks in a namespace of its own, in the order
         * the compactor merges the shards (common/chunks.cc). */
        char ns[8];
        shim_err e = {0, ""};
        snprintf(ns, sizeof ns, "%u", wk->w.part_k + 1);
        rc = shim_meta_set(w->ix->db, LAYOUT_META_CHUNK_NS, ns, &e);
    }
    if (rc) {
        sync_fail(w, rc, "%s", pdx_errmsg(w->ix));
    } else {
        for (size_t i = 0; i < w->n_files && !w->fatal; i++)
            if (!w->owner || w->owner[i] == w->part_k)
                sync_update_source(w, i);
    }
    if (w->xchg) {
        /* Whatever happened, the others may be sending to this worker
         * and waiting on it: the exchange is seen through to its end. */
        while (xchg_flush(w->xchg, w->part_k) == XCHG_FULL)
            if (!sync_put_received(w, 0))
                xchg_wait(w->xchg);
        xchg_done_reading(w->xchg, w->part_k);
        sync_put_received(w, 1);
    }
    if (w->ix && !w->fatal)
        sync_commit(w);
    pdx_close(w->ix);
    w->ix = NULL;
    sync_pl_free(&w->order);
    return NULL;
}

/* How n workers share the sources.  Each reading every source balances
 * any sources, even one file; the lines of a file of JSON lines are
 * shared (each decoded by one worker, corpus/reader.h), but the gunzip
 * is everyone's, and a page or an XML file is decoded by every worker,
 * which keeps the records routed to it.  Sources of like sizes are
 * shared by file instead, each read by one worker: largest first, each
 * to the worker with the fewest bytes so far (a static plan, so that a
 * run always shares them the same way).  With two workers that saves 2%
 * of the time on paperdex's JSON lines and 9% on OpenAlex works, so it
 * is chosen when the plan's busiest worker has no more than 2% more
 * bytes per other worker than an even share: the least it saves.  Returns the
 * owner of each of r->files (malloc'd; *total their bytes), or NULL:
 * every worker reads every source. */
static unsigned char *plan_sources(const run *r, unsigned n, uint64_t *total)
{
    *total = 0;
    if (r->n_files < n)
        return NULL;
    uint64_t *size = calloc(r->n_files, sizeof *size), load[PDX_MAX_JOBS] = {0};
    size_t *order = calloc(r->n_files, sizeof *order);
    unsigned char *owner = calloc(r->n_files, 1);
    if (!size || !order || !owner)
        goto whole_sources;
    for (size_t i = 0; i < r->n_files; i++) {
        struct stat st;
        size[i] = stat(r->files[i], &st) == 0 ? (uint64_t)st.st_size : 0;
        *total += size[i];
        order[i] = i;
    }
    /* largest first; equal sizes in path order (insertion sort: stable,
     * and a run lists thousands of files at most) */
    for (size_t i = 1; i < r->n_files; i++) {
        size_t o = order[i], j = i;
        for (; j > 0 && size[order[j - 1]] < size[o]; j--)
            order[j] = order[j - 1];
        order[j] = o;
    }
    uint64_t busiest = 0;
    for (size_t i = 0; i < r->n_files; i++) {
        unsigned least = 0;
        for (unsigned k = 1; k < n; k++)
            if (load[k] < load[least])
                least = k;
        owner[order[i]] = (unsigned char)least;
        load[least] += size[order[i]];
        if (load[least] > busiest)
            busiest = load[least];
    }
    if (*total > 0 &&
        (double)busiest * n <= (double)*total * (1.0 + 0.02 * (n - 1))) {
        free(size);
        free(order);
        return owner;
    }
whole_sources:
    free(size);
    free(order);
    free(owner);
    *total = 0;
    return NULL;
}

/* Sources whose lines the workers shared (sl; n workers): each shard's
 * fingerprint counts the records its worker decoded, and the compactor
 * kept one of them; the merged index's gets the sum.  0, or a pdx
 * error code with the message on ix. */
static int count_shared(run *r, pdx_index *ix, const shared_lines *sl,
                        unsigned n)
{
    for (size_t i = 0; sl && i < r->n_files; i++) {
        pdx_source src = PDX_SOURCE_INIT;
        if (atomic_load(&sl->done[i]) != n ||
            pdx_source_get(&src, ix, r->files[i]) != 0 ||
            src.mtime_ns == PDX_SOURCE_INCOMPLETE)
            continue; /* not shared, or not read to its end */
        src.path = r->files[i]; /* src's strings live until the next call */
        src.records = atomic_load(&sl->records[i]);
        int rc = pdx_source_set(ix, &src);
        if (rc)
            return rc;
    }
    return 0;
}

/* Works whose records landed in different shards, merged again in the
 * built index at `path` before anyone can see it (write_remerge), and the
 * record counts of the sources the workers shared line by line
 * (count_shared): its commits need not wait for the disk (the whole
 * index is synced once, before the swap), and a run killed meanwhile
 * leaves the old index as it was, never one with works split in two.
 * 0, or -1 with the failure kept. */
static int remerge_built(run *r, const char *path, const shared_lines *sl,
                         unsigned n)
{
    pdx_index *ix = NULL;
    int rc = pdx_open(&ix, path, PDX_OPEN_WRITE | PDX_OPEN_NOSYNC);
    if (!rc)
        rc = write_remerge(ix, &r->s->regrouped);
    if (!rc)
        rc = count_shared(r, ix, sl, n);
    if (!rc)
        rc = pdx_commit(ix);
    if (rc)
        sync_fail(r, rc, "%s: merging works split across shards: %s", path,
             pdx_errmsg(ix));
    pdx_close(ix);
    return rc ? -1 : 0;
}

/* Build the index from scratch with n worker threads: each puts the
 * records routed to it into a shard of its own, reading every source
 * (and decoding every n-th line of JSON lines) or whole sources of its
 * own (plan_sources), the shards are
 * merged into one by Xapian's compactor, works whose records landed in
 * different shards are merged again (remerge_built), and the result
 * replaces db.  On return r->ix is the new index, open for writing, or
 * the old one with r->fatal and s->kept_old set. */
void sync_run_jobs(run *r, const char *db_arg, unsigned n)
{
    char db[PATH_MAX], tmp[PATH_MAX + 32], merged[PATH_MAX + 64],
        old[PATH_MAX + 64];
    if (sync_make_work_dir(db_arg, "jobs", db, tmp) != 0) {
        sync_work_dir_failed(r, tmp, "jobs");
        return;
    }
    snprintf(merged, sizeof merged, "%s/merged", tmp);
    snprintf(old, sizeof old, "%s/old", tmp);
    worker *wk = calloc(n, sizeof *wk);
    char (*names)[PATH_MAX + 64] = calloc(n, sizeof *names);
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    _Atomic uint64_t indexed_all = 0, bytes_all = 0;
    uint64_t bytes_total = 0;
    unsigned char *owner = plan_sources(r, n, &bytes_total);
    exchange *xchg = xchg_new(n);
    shared_lines sl_ = {.mu = PTHREAD_MUTEX_INITIALIZER}, *sl = NULL;
    if (!owner) {
        sl = &sl_;
        sl->records = calloc(r->n_files ? r->n_files : 1, sizeof *sl->records);
        sl->done = calloc(r->n_files ? r->n_files : 1, sizeof *sl->done);
    }
    if (!wk || !names || !xchg || (sl && (!sl->records || !sl->done))) {
        sync_fail(r, PDX_ENOMEM, "out of memory");
        n = 0;
    }
    r->lock = &lock;
    for (unsigned k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "%s/shard-%u", tmp, k);
        wk[k].shard = names[k];
        wk[k].counts.version = PDX_SYNC_SUMMARY_VERSION;
        run *w = &wk[k].w;
        *w = *r;
        w->ix = NULL;
        w->s = &wk[k].counts;
        w->part_k = k;
        w->n_workers = n;
        w->xchg = xchg;
        w->indexed_all = &indexed_all;
        w->owner = owner;
        w->bytes_all = owner ? &bytes_all : NULL;
        w->sl = sl;
        w->order = (placeline){NULL, NULL, 0, 0};
        w->bytes_total = bytes_total;
        w->full = 1;
        w->since_commit = 0;
        w->fatal = 0;
        /* Reading every source, every worker meets the same errors. */
        w->source_errors = owner || k == 0;
        int err = pthread_create(&wk[k].thread, NULL, work, &wk[k]);
        if (err) {
            sync_fail(r, PDX_ERROR, "cannot start worker %u: %s", k + 1,
                 strerror(err));
            for (unsigned j = k; xchg && j < n; j++)
                xchg_abandon(xchg, j);
            break;
        }
        wk[k].started = 1;
    }
    pdx_sync_summary *s = r->s;
    for (unsigned k = 0; k < n; k++) {
        if (!wk[k].started)
            continue;
        pthread_join(wk[k].thread, NULL);
        const pdx_sync_summary *c = &wk[k].counts;
        if (owner) /* each source read by one worker */
            s->sources_added += c->sources_added;
        else if (k == 0) /* every worker reads every source */
            s->sources_added = c->sources_added;
        s->records_read += c->records_read;
        s->records_indexed += c->records_indexed;
        s->records_added += c->records_added;
        s->records_updated += c->records_updated;
        s->records_removed += c->records_removed;
        s->records_unchanged += c->records_unchanged;
        s->records_skipped += c->records_skipped;
        s->invalid += c->invalid;
        for (size_t i = 0; i < sizeof s->skipped / sizeof s->skipped[0]; i++)
            s->skipped[i] += c->skipped[i];
        if (owner)
            s->sources_failed += c->sources_failed;
        else if (c->sources_failed > s->sources_failed)
            s->sources_failed = c->sources_failed; /* the same for all */
        if (wk[k].w.fatal && !r->fatal) {
            r->fatal = wk[k].w.fatal;
            if (!s->message[0])
                snprintf(s->message, sizeof s->message, "%s", c->message);
        }
    }
    r->lock = NULL;
    xchg_free(xchg);
    if (!r->fatal) {
        char how[160];
        if (owner)
            snprintf(how, sizeof how, "%u shards, each from whole sources "
                     "of its own", n);
        else
            snprintf(how, sizeof how, "%u shards, each worker reading "
                     "every source and decoding every %u%s line", n, n,
                     n % 10 == 2 && n % 100 != 12   ? "nd"
                     : n % 10 == 3 && n % 100 != 13 ? "rd"
                     : n % 10 == 1 && n % 100 != 11 ? "st"
                                                    : "th");
        pdx_sync_event ev = {.kind = PDX_SYNC_MERGE,
                             .records = s->records_indexed, .message = how};
        sync_emit(r, &ev);
    }
    if (!r->fatal) {
        const char **paths = calloc(n, sizeof *paths);
        pdx_index *sh = NULL;
        int rc = PDX_ENOMEM;
        if (paths) {
            for (unsigned k = 0; k < n; k++)
                paths[k] = names[k];
            rc = pdx_open_shards(&sh, paths, n);
            if (!rc)
                rc = pdx_compact(sh, merged);
        }
        if (rc)
            sync_fail(r, rc, "merging the shards: %s", pdx_errmsg(sh));
        else if (remerge_built(r, merged, sl, n) != 0)
            ; /* said */
        else if (write_sync_dir(merged) != 0)
            sync_fail(r, PDX_EIO, "%s: cannot sync the merged index: %s", merged,
                 strerror(errno));
        pdx_close(sh);
        free(paths);
    }
    shim_fatal_work_dir(NULL);
    if (r->fatal) {
        s->kept_old = 1;
    } else {
        sync_swap_in(r, db, merged, old);
    }
    if (!r->keep_tmp)
        shim_remove_tree(tmp);
    free(wk);
    free(names);
    free(owner);
    if (sl) {
        free(sl->routes.v);
        free((void *)sl->records);
        free((void *)sl->done);
        pthread_mutex_destroy(&sl->mu);
    }
}
