/*
 * sync_diff.c -- one source brought up to date, record by record (steps
 * 2 to 4 of a run, sync.c).  A new source's records are put; a changed
 * one is read with a set of the places seen (placeset), each record
 * compared with what the index holds of its place (its XR term, content
 * hash), and once the file was read cleanly the places it no longer has
 * are taken out (remove_absent).  A file not read cleanly (a record that
 * could not be read as written, a break: struct damage) keeps every
 * work the index holds from it.  Sources that are gone are forgotten
 * here too (remove_vanished).  With several jobs, the records of other
 * workers are sent to them and theirs put (put_received).
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
#include "../common/paperdex.h"
#include "../common/shim.h"
#include "../corpus/merge.h"
#include "../corpus/prefetch.h"
#include "../corpus/reader.h"
#include "exchange.h"
#include "write.h"
#include "sync_run.h"

/* ------------------------------------------- record-level differences */

/* 1 if h was added, 0 if it was there, -1 out of memory. */
static int ps_add(placeset *s, uint64_t h)
{
    if (!h) {
        int added = !s->has_zero;
        s->has_zero = 1;
        return added;
    }
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *nv = calloc(cap, sizeof *nv);
        if (!nv)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->v[i]) {
                size_t k = (size_t)(s->v[i] * 0x9E3779B97F4A7C15ULL) & (cap - 1);
                while (nv[k])
                    k = (k + 1) & (cap - 1);
                nv[k] = s->v[i];
            }
        free(s->v);
        s->v = nv;
        s->cap = cap;
    }
    size_t k = (size_t)(h * 0x9E3779B97F4A7C15ULL) & (s->cap - 1);
    while (s->v[k]) {
        if (s->v[k] == h)
            return 0;
        k = (k + 1) & (s->cap - 1);
    }
    s->v[k] = h;
    s->n++;
    return 1;
}

static int ps_has(const placeset *s, uint64_t h)
{
    if (!h)
        return s->has_zero;
    if (!s->cap)
        return 0;
    size_t k = (size_t)(h * 0x9E3779B97F4A7C15ULL) & (s->cap - 1);
    while (s->v[k]) {
        if (s->v[k] == h)
            return 1;
        k = (k + 1) & (s->cap - 1);
    }
    return 0;
}

/* The key of record w's place in the file at path: its place hash mixed
 * with the file, named by the one pointer every worker of a run holds
 * for it (the run's list of sources).  Nonzero. */
static uint64_t place_key(const pdx_work *w, const char *path)
{
    uint64_t k = merge_place_hash(w) ^
                 ((uint64_t)(uintptr_t)path * 0x9E3779B97F4A7C15ULL);
    return k ? k : 1;
}

/* Line `line` of place `key` is about to be put: 1 if no later line of
 * it was put (line noted), 0 if one was (the record is superseded), -1
 * out of memory. */
static int pl_note(placeline *m, uint64_t key, uint64_t line)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        uint64_t *nk = calloc(cap, sizeof *nk), *nl = calloc(cap, sizeof *nl);
        if (!nk || !nl) {
            free(nk);
            free(nl);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t k = (size_t)(m->key[i] * 0x9E3779B97F4A7C15ULL) &
                           (cap - 1);
                while (nk[k])
                    k = (k + 1) & (cap - 1);
                nk[k] = m->key[i];
                nl[k] = m->line[i];
            }
        free(m->key);
        free(m->line);
        m->key = nk;
        m->line = nl;
        m->cap = cap;
    }
    size_t k = (size_t)(key * 0x9E3779B97F4A7C15ULL) & (m->cap - 1);
    while (m->key[k] && m->key[k] != key)
        k = (k + 1) & (m->cap - 1);
    if (m->key[k]) {
        if (m->line[k] > line)
            return 0;
        m->line[k] = line;
        return 1;
    }
    m->key[k] = key;
    m->line[k] = line;
    m->n++;
    return 1;
}

void sync_pl_free(placeline *m)
{
    free(m->key);
    free(m->line);
    *m = (placeline){NULL, NULL, 0, 0};
}

/* The record terms of a file whose place was not read this run. */
typedef struct absent {
    const placeset *seen;
    write_strlist terms;
} absent;

static int on_record_term(void *ctx, const char *t, size_t len)
{
    absent *ab = ctx;
    if (len < 2 + 32)
        return 0;
    char hex[17];
    memcpy(hex, t + 2 + 16, 16);
    hex[16] = '\0';
    if (ps_has(ab->seen, strtoull(hex, NULL, 16)))
        return 0;
    return write_strlist_add(&ab->terms, t, len);
}

/* After a whole read of `path`: every record the index holds of it whose
 * place was not read this run is gone from the file, and is taken out,
 * committed every batch like additions. */
static void remove_absent(run *r, const char *path, const placeset *seen)
{
    absent ab = {seen, {0}};
    int rc = write_file_records(r->ix, path, on_record_term, &ab);
    if (rc)
        sync_fail(r, rc, "%s: %s", path, pdx_errmsg(r->ix));
    if (r->o->dry_run) { /* counted, not removed */
        r->s->records_removed += ab.terms.n;
        write_strlist_free(&ab.terms);
        return;
    }
    for (size_t i = 0; i < ab.terms.n; i++) {
        if (!r->fatal && !*r->stop) {
            arena a = {0};
            const char *id = "";
            if ((rc = write_remove_record(r->ix, path, ab.terms.v[i], &a, &id))) {
                sync_fail(r, rc, "%s: %s", path, pdx_errmsg(r->ix));
            } else {
                r->s->records_removed++;
                pdx_sync_event ev = {.kind = PDX_SYNC_RECORD_REMOVE,
                                     .path = path, .message = id};
                sync_emit(r, &ev);
                if (++r->since_commit >= r->batch)
                    sync_commit(r);
            }
            arena_free(&a);
        }
    }
    write_strlist_free(&ab.terms);
    if (*r->stop && !r->fatal)
        sync_fail(r, PDX_ERROR, "stopped by the caller");
}

/* Put record w (read at path:line) into r's index, counted and reported
 * (state: what the index held of it).  With r->sl, a record of a place
 * whose later line this worker put already is counted and reported as
 * one pass would (it put the earlier, then the later in its place) but
 * not written.  0, or -1 when the run cannot go on (the failure kept). */
static int put_record(run *r, const pdx_work *w, const char *path,
                      uint64_t line, write_rec state)
{
    pdx_sync_summary *s = r->s;
    int later = 1;
    if (r->sl && merge_has_own_place(w) &&
        (later = pl_note(&r->order, place_key(w, path), line)) < 0) {
        sync_fail(r, PDX_ENOMEM, "out of memory");
        return -1;
    }
    int rc = later && !r->o->dry_run ? pdx_put(r->ix, w) : 0;
    if (rc == PDX_EINVAL) {
        s->invalid++;
        s->records_skipped++;
        char msg[1400];
        snprintf(msg, sizeof msg, "%s:%llu: %s, skipped", path,
                 (unsigned long long)line, pdx_errmsg(r->ix));
        pdx_sync_event ev = {.kind = PDX_SYNC_SKIP, .path = path,
                             .line = line, .skip = PDX_SKIP_NONE,
                             .message = msg};
        sync_emit(r, &ev);
        return 0;
    }
    if (rc) {
        sync_fail(r, rc, "%s:%llu: %s", path, (unsigned long long)line,
             pdx_errmsg(r->ix));
        return -1;
    }
    s->records_indexed++;
    if (state == WRITE_REC_CHANGED)
        s->records_updated++;
    else
        s->records_added++;
    if (r->indexed_all)
        atomic_fetch_add_explicit(r->indexed_all, 1, memory_order_relaxed);
    if (r->o->progress) {
        pdx_sync_event ev = {.kind = state == WRITE_REC_CHANGED
                                         ? PDX_SYNC_RECORD_UPDATE
                                         : PDX_SYNC_RECORD_ADD,
                             .path = path, .line = line, .message = w->id};
        sync_emit(r, &ev);
    }
    if (!r->o->dry_run && ++r->since_commit >= r->batch && sync_commit(r))
        return -1;
    return 0;
}

/* Put the records other workers sent r (sources shared by file): one
 * batch, or with `all`, every batch until no worker reads any more.
 * After a failure or a stop they are dropped: the run has failed, and
 * the senders must not wait on a mailbox nobody empties.  1 if a batch
 * was taken, else 0. */
int sync_put_received(run *r, int all)
{
    int took = 0;
    xchg_batch *b;
    while ((b = xchg_take(r->xchg, r->part_k, all))) {
        took = 1;
        for (size_t i = 0; i < b->n && !r->fatal && !*r->stop; i++)
            put_record(r, &b->v[i].rec, b->v[i].path, b->v[i].line,
                       WRITE_REC_NEW);
        xchg_batch_free(b);
        if (!all)
            break;
    }
    return took;
}

/* Send w (read at path:line) to worker `to`, putting what r received
 * while to's mailbox is full.  0, or -1 on out-of-memory (kept). */
static int send_record(run *r, unsigned to, const pdx_work *w,
                       const char *path, uint64_t line)
{
    int rc;
    while ((rc = xchg_send(r->xchg, r->part_k, to, w, path, line)) ==
           XCHG_FULL)
        if (!sync_put_received(r, 0))
            xchg_wait(r->xchg);
    if (rc) {
        sync_fail(r, PDX_ENOMEM, "out of memory");
        return -1;
    }
    return 0;
}

/* Several workers: record w, whose worker by its title is *to, goes
 * where the first record of its place in this file went (kept in
 * routes, as place key with its low byte the worker).  A place read
 * twice (one id twice in a file) is put again and the later record
 * replaces the earlier, as in one pass; that needs both in one worker,
 * even when the two differ in title.  Workers sharing the file's lines
 * keep one set, under sl's lock (a lock a record: uncontended, tens of
 * nanoseconds).  0, or -1 out of memory. */
static int first_route(placeset *routes, shared_lines *sl, const pdx_work *w,
                       const char *path, unsigned n, unsigned *to)
{
    if (!merge_has_own_place(w))
        return 0; /* placed by its line: never read twice */
    uint64_t base = place_key(w, path) & ~(uint64_t)0xFF;
    int rc = 0, known = 0;
    if (sl) {
        pthread_mutex_lock(&sl->mu);
        routes = &sl->routes;
    }
    for (unsigned k = 0; k < n && !known; k++)
        if (ps_has(routes, base | k)) {
            *to = k;
            known = 1;
        }
    if (!known)
        rc = ps_add(routes, base | *to) < 0 ? -1 : 0;
    if (sl)
        pthread_mutex_unlock(&sl->mu);
    return rc;
}

/* Read one source (r->files[fi], or standard input) and put its records;
 * with `seen`, only those the index does not hold as they are (their
 * places noted in seen).  Records that could not be read are counted in
 * *dmg.  Returns the number of records: with r->sl, those this worker
 * decoded. */
uint64_t sync_read_source(run *r, size_t fi, const char *path,
                            placeset *seen, damage *dmg)
{
    pdx_reader *raw = NULL;
    prefetch *rd = NULL;
    uint64_t records = 0;
    int rc = pdx_reader_open(&raw, path, &r->ro);
    if (rc) {
        sync_source_failed(r, path, "%s", pdx_reader_errmsg(raw));
        pdx_reader_free(raw);
        return 0;
    }
    if (r->sl)
        reader_share_lines(raw, r->part_k, r->n_workers);
    /* Decoding runs ahead on a thread of its own where the builder
     * thread runs: one job, a core to spare. */
    if (prefetch_open(&rd, raw, path, r->builder != 0)) {
        sync_source_failed(r, path, "%s: out of memory", path);
        pdx_reader_free(raw);
        return 0;
    }
    uint64_t size = 0;
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0)
        size = (uint64_t)st.st_size;
    pdx_sync_summary *s = r->s;
    uint64_t counted = 0; /* bytes of this file added to *r->bytes_all */
    placeset routes = {NULL, 0, 0, 0};
    while (!*r->stop && !r->fatal) {
        const pdx_work *w;
        rc = prefetch_next(rd, &w);
        if (rc == PDX_ITEROVER)
            break;
        if (rc == PDX_EIO || rc == PDX_ENOMEM) {
            sync_source_failed(r, path, "%s", prefetch_errmsg(rd));
            break;
        }
        records++;
        /* Several workers: each record has one (merge_route_hash), so
         * that records of one work meet in one shard; a bad record has
         * no key, and is the worker's whose turn its place is, or with
         * shared lines the one's that decoded it. */
        int shared = r->sl && prefetch_shared(rd);
        unsigned to = r->part_k;
        if (r->n_workers > 1 && rc == PDX_EINVAL) {
            if (!shared)
                to = (unsigned)((records - 1) % r->n_workers);
        } else if (r->n_workers > 1) {
            to = (unsigned)(merge_route_hash(w) % r->n_workers);
            if (first_route(&routes, shared ? r->sl : NULL, w, path,
                            r->n_workers, &to)) {
                sync_fail(r, PDX_ENOMEM, "out of memory");
                break;
            }
        }
        if (to != r->part_k && !(r->owner || shared))
            continue; /* another worker's record, which it decodes too */
        s->records_read++;
        if (rc == PDX_EINVAL) {
            pdx_skip k = prefetch_skip(rd);
            if ((unsigned)k < sizeof s->skipped / sizeof s->skipped[0])
                s->skipped[k]++;
            s->records_skipped++;
            if (reader_skip_damages(k) && dmg->n++ == 0) {
                dmg->line = prefetch_line(rd);
                snprintf(dmg->why, sizeof dmg->why, "%s",
                         prefetch_errmsg(rd));
            }
            pdx_sync_event ev = {.kind = PDX_SYNC_SKIP, .path = path,
                                 .line = prefetch_line(rd), .skip = k,
                                 .message = prefetch_errmsg(rd)};
            sync_emit(r, &ev);
            continue;
        }
        write_rec state = WRITE_REC_NEW;
        if (seen) {
            int fresh = ps_add(seen, merge_place_hash(w));
            if (fresh < 0) {
                sync_fail(r, PDX_ENOMEM, "out of memory");
                break;
            }
            if (!fresh && dmg->twice++ == 0)
                dmg->twice_line = prefetch_line(rd);
            /* A place read twice (one id twice in the file) is put again:
             * the later record replaces the earlier, as in a fresh build. */
            if (fresh && write_record_state(r->ix, w, &state)) {
                sync_fail(r, pdx_errcode(r->ix), "%s:%llu: %s", path,
                     (unsigned long long)prefetch_line(rd),
                     pdx_errmsg(r->ix));
                break;
            }
            if (state == WRITE_REC_UNCHANGED) {
                s->records_unchanged++;
                continue; /* read, parsed, hashed: nothing in Xapian */
            }
        }
        if (to != r->part_k) {
            if (send_record(r, to, w, path, prefetch_line(rd)))
                break;
        } else if (put_record(r, w, path, prefetch_line(rd), state)) {
            break;
        }
        /* Workers that exchange records (sharing sources by file or by
         * line) put what the others sent them as they go, a batch every
         * batch's worth of records read. */
        if (r->xchg && records % XCHG_BATCH == 0)
            sync_put_received(r, 0);
        /* Several workers reading every source: the first reports for
         * all (the others read the same files at about the same pace);
         * sharing them by file, each reports the bytes it read. */
        if (r->o->progress && (r->owner || r->part_k == 0)) {
            pdx_sync_event ev = {.kind = PDX_SYNC_PROGRESS, .path = path,
                                 .records = r->indexed_all
                                                ? atomic_load_explicit(
                                                      r->indexed_all,
                                                      memory_order_relaxed)
                                                : s->records_indexed,
                                 .offset = prefetch_offset(rd),
                                 .size = size};
            if (r->bytes_all) { /* sources shared by file: the whole run */
                uint64_t off = ev.offset > counted ? ev.offset : counted;
                ev.offset = atomic_fetch_add_explicit(r->bytes_all,
                                                      off - counted,
                                                      memory_order_relaxed) +
                            (off - counted);
                counted = off;
                ev.size = r->bytes_total;
            }
            sync_emit(r, &ev);
        }
    }
    if (*r->stop && !r->fatal)
        sync_fail(r, PDX_ERROR, "stopped by the caller");
    if (r->bytes_all && size > counted)
        atomic_fetch_add_explicit(r->bytes_all, size - counted,
                                  memory_order_relaxed);
    pdx_sync_event done = {.kind = PDX_SYNC_SOURCE_DONE, .path = path,
                           .records = records};
    int last = 1; /* the worker that reports the file's end */
    /* Lines shared: the last worker done with the file reports its end,
     * with every worker's records. */
    if (r->sl && prefetch_shared(rd)) {
        atomic_fetch_add(&r->sl->records[fi], records);
        last = atomic_fetch_add(&r->sl->done[fi], 1) + 1 == r->n_workers;
        done.records = atomic_load(&r->sl->records[fi]);
    }
    if (last)
        sync_emit(r, &done);
    prefetch_free(rd);
    free(routes.v);
    return records;
}

/* One source found now, r->files[fi]: skip it, or read it again. */
void sync_update_source(run *r, size_t fi)
{
    const char *path = r->files[fi];
    pdx_sync_summary *s = r->s;
    struct stat st;
    if (stat(path, &st) != 0) {
        sync_source_failed(r, path, "%s: cannot read: %s", path, strerror(errno));
        return;
    }
    pdx_source old = PDX_SOURCE_INIT, cur = PDX_SOURCE_INIT;
    cur.path = path;
    cur.size = (uint64_t)st.st_size;
    cur.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    int known = r->ix && !r->full && pdx_source_get(&old, r->ix, path) == 0;
    if (known && old.size == cur.size && old.mtime_ns == cur.mtime_ns) {
        s->sources_unchanged++;
        return; /* the common case: one stat, no read */
    }
    if (sync_hash_file(path, &cur.hash)) {
        sync_source_failed(r, path, "%s: cannot read: %s", path, strerror(errno));
        return;
    }
    if (known && old.mtime_ns != PDX_SOURCE_INCOMPLETE &&
        old.hash == cur.hash && old.size == cur.size) {
        s->sources_unchanged++; /* touched, not changed: the new mtime */
        cur.records = old.records;
        if (!r->o->dry_run && pdx_source_set(r->ix, &cur) == 0)
            r->since_commit++;
        return;
    }
    if (r->owner || r->part_k == 0) /* once, not once per worker */
        sync_emit_path(r, known ? PDX_SYNC_UPDATE : PDX_SYNC_ADD, path);
    if (known)
        s->sources_updated++;
    else
        s->sources_added++;
    placeset seen = {NULL, 0, 0, 0};
    damage dmg = {0, 0, "", 0, 0};
    if (r->o->dry_run) {
        /* Read and compared as a run would, nothing written: the
         * records that would be added, updated and removed counted. */
        unsigned failed_before = s->sources_failed;
        sync_read_source(r, fi, path, known ? &seen : NULL, &dmg);
        if (known && !r->fatal && s->sources_failed == failed_before &&
            !dmg.n)
            remove_absent(r, path, &seen);
        free(seen.v);
        return;
    }
    /* A source read before is compared record by record (read_source
     * with `seen`, then remove_absent): what did not change costs no
     * Xapian work, and nothing is taken out all at once.  A new source's
     * records are all put; any a killed run left of it without a
     * fingerprint are taken out first.  A worker's shard is new: it
     * holds nothing of a source but what other workers sent it, which
     * may come before the worker reads the source itself. */
    if (!known && r->n_workers < 2 && write_source_remove(r->ix, path)) {
        sync_fail(r, pdx_errcode(r->ix), "%s: %s", path, pdx_errmsg(r->ix));
        return;
    }
    /* A provisional fingerprint goes into the first commit of this
     * source's records: if the run dies before the end, the next run sees
     * a source it knows but whose fingerprint matches nothing, and reads
     * it again -- or, if the file is gone by then, removes its records. */
    pdx_source partial = cur;
    partial.mtime_ns = PDX_SOURCE_INCOMPLETE;
    partial.hash = 0;
    if (pdx_source_set(r->ix, &partial)) {
        sync_fail(r, pdx_errcode(r->ix), "%s: %s", path, pdx_errmsg(r->ix));
        return;
    }
    unsigned failed_before = s->sources_failed;
    cur.records = sync_read_source(r, fi, path, known ? &seen : NULL, &dmg);
    /* Records are taken out only after a clean read to the end: a file
     * that broke off, ends inside a record (an export caught half
     * written) or holds a record that cannot be read keeps every record
     * the index has of it, in its earlier version where it was not read
     * now.  Its fingerprint is stored as usual: the next change to the
     * file (the export finished, the bad byte mended) reads it again. */
    if (dmg.n && known && !r->fatal && (r->owner || r->part_k == 0))
        sync_emit_msg(r, PDX_SYNC_WARNING, path,
                 "%s was not read cleanly: %llu record%s could not be read "
                 "(the first: %s); nothing indexed from it was removed",
                 path, (unsigned long long)dmg.n, dmg.n == 1 ? "" : "s",
                 dmg.why);
    /* One place twice: the later record is the one indexed, as in a
     * fresh build; the earlier is put and replaced again at every read
     * of the file, since the index keeps the later's content only. */
    if (dmg.twice && !r->fatal && (r->owner || r->part_k == 0))
        sync_emit_msg(r, PDX_SYNC_WARNING, path,
                 "%s: %llu record%s stand%s in the place of an earlier one "
                 "(the same citation key, id or DOI; the first at line "
                 "%llu): the later is indexed, and both are written again "
                 "each time the file is read",
                 path, (unsigned long long)dmg.twice,
                 dmg.twice == 1 ? "" : "s", dmg.twice == 1 ? "s" : "",
                 (unsigned long long)dmg.twice_line);
    if (known && !r->fatal && s->sources_failed == failed_before && !dmg.n)
        remove_absent(r, path, &seen); /* only after a whole, clean read */
    free(seen.v);
    if (r->fatal)
        return;
    if (s->sources_failed == failed_before && pdx_source_set(r->ix, &cur)) {
        sync_fail(r, pdx_errcode(r->ix), "%s: %s", path, pdx_errmsg(r->ix));
        return;
    }
    /* A source that broke off keeps its provisional fingerprint: the next
     * run reads it again.  Either way its records so far are committed. */
    sync_commit(r);
}

typedef struct vanished {
    run *r;
    char **paths;
    size_t n, cap;
} vanished;

static int on_known(void *ctx, const pdx_source *s)
{
    vanished *v = ctx;
    if (!sync_under_roots(v->r, s->path) || sync_is_listed(v->r, s->path) ||
        sync_in_kept_place(v->r, s->path))
        return 0;
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        char **np = realloc(v->paths, cap * sizeof *np);
        if (!np)
            return PDX_ENOMEM;
        v->paths = np;
        v->cap = cap;
    }
    v->paths[v->n] = strdup(s->path);
    return v->paths[v->n++] ? 0 : PDX_ENOMEM;
}

void sync_remove_vanished(run *r)
{
    vanished v = {r, NULL, 0, 0};
    int rc = pdx_source_foreach(r->ix, on_known, &v);
    if (rc)
        sync_fail(r, rc, "listing the known sources: %s", pdx_errmsg(r->ix));
    if (v.n)
        qsort(v.paths, v.n, sizeof *v.paths, sync_cmp_str);
    for (size_t i = 0; i < v.n; i++) {
        if (!r->fatal) {
            sync_emit_path(r, PDX_SYNC_REMOVE, v.paths[i]);
            r->s->sources_removed++;
            if (!r->o->dry_run) {
                if (write_source_remove(r->ix, v.paths[i]))
                    sync_fail(r, pdx_errcode(r->ix), "%s: %s", v.paths[i],
                         pdx_errmsg(r->ix));
                else
                    sync_commit(r);
            }
        }
        free(v.paths[i]);
    }
    free(v.paths);
}
