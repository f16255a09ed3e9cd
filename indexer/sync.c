/*
 * sync.c -- pdx_sync(): bring an index up to date with its sources, doing
 * only the work that changed.  The cron job, as a library call:
 * `paperdex index` (indexer/cmd_index.c) is a thin caller of it, and so is
 * any program that embeds libpaperdex (docs/embed.c).
 *
 * The sources are the files named, and every file below the directories
 * named (include/exclude globs apply to names found in directories).  The
 * index keeps each source's fingerprint (path, size, modification time,
 * content hash; pdx_source_*).  A run:
 *
 *   1. lists the sources now present, in sorted order; a named source
 *      that cannot be found or read, a directory that cannot be read or
 *      an entry in it that cannot be looked at is an error, and the
 *      sources the index knows at or below it are kept (keep_place); a
 *      pipe, FIFO or device is refused (a source is read more than once);
 *   2. forgets every source it remembers under a named directory, read
 *      cleanly, that no longer has it, and a named source that is gone
 *      when the caller says so (forget_missing) (pdx_source_remove: its
 *      records leave the works they fed; a work fed only by it goes);
 *   3. skips a source whose size and mtime are unchanged without opening
 *      it, and one whose content hash is unchanged after reading it;
 *   4. reads a new or changed source: a provisional fingerprint is stored
 *      first (so that a crash leaves no record the next run does not know
 *      of), then a new source's records are put (merging with other
 *      sources' records), while a changed source is compared record by
 *      record with what the index holds of it (read_source with a seen
 *      set, then remove_absent): each record is known by its place in the
 *      file (its identity: own id, arXiv id or DOI; else its line) and a
 *      hash of its content, kept as
 *      its XR term (common/layout.h).  An unchanged record -- also one that
 *      moved to another line -- costs reading, parsing and hashing it and
 *      one term lookup, no Xapian write; a changed one is put in place of
 *      its old version; a new one added; and once the whole file was read
 *      cleanly (no record that could not be read: reader_skip_damages, no
 *      break), the records whose place it no longer has are taken out,
 *      committed
 *      in batches like additions, so memory is bounded by the batch and
 *      the set of places read (8-16 bytes a record).  The real fingerprint
 *      is stored in the same commit as the last of this, so a crash never
 *      leaves a fingerprint for records that are not there.
 *
 * Commits happen after each changed source and every `batch` records
 * within one (Xapian holds uncommitted changes in memory), so a reader
 * always sees a whole commit, a crash loses at most the current batch,
 * and the next run finishes the work.  The result is the same as a fresh
 * build from the same sources (`full`), which tests/cli/equivalence.py
 * checks step by step.
 *
 * A rebuild (full, an index of an older layout, jobs > 1) is built in a
 * work directory beside the index, DB.full-PID or DB.jobs-PID, and takes
 * the index's place in one step (swap_in); the old index stays locked and
 * untouched until then.  Several workers are threads of this process,
 * each with its own handle on a shard of its own: a library must not fork
 * behind its caller's back.  They share the sources line by line (every
 * worker reads every source, and decodes every n-th line of JSON lines:
 * corpus/reader.h), or, with many files of like sizes, file by file
 * (plan_sources).  Either way each record belongs to one worker, chosen
 * by its folded title (merge_route_hash), so that the records of one
 * work from different sources meet in one shard and merge there as in
 * one pass; a worker sends the others the records it decoded of theirs
 * (indexer/exchange.c).  A page or an XML file is decoded by every
 * worker, each keeping its own records.  The shards are merged by
 * Xapian's compactor, the few works still split across them (records of
 * one work with different titles) merged again in the merged index
 * (remerge_built), and only then is it swapped in.
 *
 * With compact, a run that changed any record ends the same way: a
 * compacted copy of the updated index is written beside it
 * (DB.compact-PID, by Xapian's compactor) and swapped in
 * (compact_beside).  Glass copies every block a commit changes and
 * splits a full one to insert, so a compacted index grows by a third to
 * three quarters at its first update, and little after (the arXiv 101k:
 * 444 MB, then 776 and 790 MB; compacted after each update, 440 and 436
 * MB, for 6.0 and 3.6 s of compaction on top of 5.7 and 7.4 s of
 * update: bench/RESULTS.md, "Compacting after an update").
 *
 * Everything the run has to say goes through the caller's progress
 * function as pdx_sync_event reports (the CLI prints them); nothing here
 * writes to stdout or stderr.
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

/* The places (merge_place_hash) of the records read from one file this
 * run, or (shared_lines.routes) the place keys of every file the workers
 * share: open addressing, 16 bytes a record at most (40 MB for the full
 * arXiv snapshot's 2.5M records in one file). */
typedef struct placeset {
    uint64_t *v;
    size_t cap, n;
    int has_zero;
} placeset;

/* A place's key (place hash mixed with its file) and the last line of
 * it a worker put: open addressing on nonzero keys, 32 bytes a record
 * the worker put at most (40 MB a worker of two for the full arXiv
 * snapshot). */
typedef struct placeline {
    uint64_t *key, *line;
    size_t cap, n;
} placeline;

/* What the workers of a run that share the lines of its files
 * (corpus/reader.h) share: the worker of each place, given by its first
 * record decoded by any of them (under mu); and for each source, the
 * records all of them decoded and how many are done with it, so that
 * the last one done reports the source's end with its whole count, and
 * run_jobs stores that count in its fingerprint. */
typedef struct shared_lines {
    pthread_mutex_t mu;
    placeset routes;
    _Atomic uint64_t *records;
    _Atomic unsigned *done;
} shared_lines;

typedef struct run {
    pdx_index *ix;
    const pdx_sync_options *o;
    pdx_sync_summary *s;
    pdx_reader_options ro;
    size_t batch;
    int full;
    int upgrade;  /* the index had this older layout: rebuilt beside it */
    int keep_tmp; /* the work directory holds the old index */
    /* Reports from several threads are serialised by this (NULL: one). */
    pthread_mutex_t *lock;
    int source_errors; /* report a source's read errors (worker 0 only) */
    int *stop;         /* the progress function asked to stop */
    /* sources found now */
    char **files;
    size_t n_files, cap_files;
    /* named locations */
    char **roots;
    int *root_is_dir;
    size_t n_roots;
    /* places that could not be listed or read this run (a named source
     * missing or unreadable, a directory that could not be read, an entry
     * that could not be looked at): the sources the index knows at or
     * below them keep their records (kept_places) */
    write_strlist kept;
    uint64_t since_commit;
    int fatal;
    /* jobs > 1: this is worker part_k of n_workers, and puts the records
     * whose merge_route_hash() % n_workers is part_k.  Every worker reads
     * every source, or, with xchg, each reads sources of its own (owner)
     * and sends the others their records through xchg. */
    unsigned part_k, n_workers;
    exchange *xchg;
    /* jobs > 1: the records indexed by every worker so far, which the
     * first worker's progress reports give */
    _Atomic uint64_t *indexed_all;
    /* jobs > 1, sources shared by file (plan_sources): the worker that
     * reads files[i] is owner[i]; the bytes of all files, and those read
     * so far by every worker, for progress reports.  NULL, 0: every
     * worker reads every source. */
    const unsigned char *owner;
    uint64_t bytes_total;
    _Atomic uint64_t *bytes_all;
    /* jobs > 1, every worker reading every source: files of JSON lines
     * are shared line by line, each line decoded by one worker, which
     * sends the records routed elsewhere through xchg (sl non-NULL).
     * order: the last line of each place this worker put, so that a
     * place read twice keeps its later record, as in one pass, though
     * two workers decoded its two lines and either may arrive first. */
    shared_lines *sl;
    placeline order;
    /* PDX_OPEN_BUILDER for the handles this run writes through: one job
     * on a machine with a core to spare (several jobs keep every core
     * busy already) */
    unsigned builder;
    /* PDX_OPEN_XAPIAN_POSITIONS for the indexes this run creates
     * (pdx_sync_options.xapian_positions), or 0 */
    unsigned positions;
} run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Hand one report to the caller. */
static void emit(run *r, const pdx_sync_event *ev)
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

static void emit_path(run *r, pdx_sync_kind kind, const char *path)
{
    pdx_sync_event ev = {.kind = kind, .path = path};
    emit(r, &ev);
}

static void emit_msg(run *r, pdx_sync_kind kind, const char *path,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void emit_msg(run *r, pdx_sync_kind kind, const char *path,
                     const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pdx_sync_event ev = {.kind = kind, .path = path, .message = msg};
    emit(r, &ev);
}

/* The run cannot go on: code and message kept for the summary, and
 * reported.  The first failure's message is the one kept. */
static void fail(run *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(run *r, int code, const char *fmt, ...)
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
    emit(r, &ev);
}

/* A source could not be read (to its end); the run goes on. */
static void source_failed(run *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void source_failed(run *r, const char *path, const char *fmt, ...)
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
        emit(r, &ev);
    }
}

static int commit(run *r)
{
    int rc = pdx_commit(r->ix);
    if (rc)
        fail(r, rc, "commit failed: %s", pdx_errmsg(r->ix));
    r->since_commit = 0;
    return rc;
}

/* "a//b/./c/" -> "a/b/c": one spelling per path, so that a source is
 * known by the same name on every run. */
static char *normalize(const char *p)
{
    size_t n = strlen(p);
    char *s = malloc(n + 2), *o = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < n;) {
        if (p[i] == '/' && o > s && o[-1] == '/') {
            i++;
            continue;
        }
        if (p[i] == '.' && (i == 0 || p[i - 1] == '/') &&
            (i + 1 == n || p[i + 1] == '/') && n > 1) {
            i += 2; /* a "./" component */
            continue;
        }
        *o++ = p[i++];
    }
    while (o > s + 1 && o[-1] == '/')
        o--;
    *o = '\0';
    if (!*s) {
        s[0] = '.';
        s[1] = '\0';
    }
    return s;
}

static int add_file(run *r, const char *path)
{
    if (r->n_files == r->cap_files) {
        size_t cap = r->cap_files ? r->cap_files * 2 : 64;
        char **nf = realloc(r->files, cap * sizeof *nf);
        if (!nf)
            return -1;
        r->files = nf;
        r->cap_files = cap;
    }
    r->files[r->n_files] = strdup(path);
    return r->files[r->n_files++] ? 0 : -1;
}

static int name_wanted(const run *r, const char *name)
{
    if (name[0] == '.')
        return 0;
    for (size_t i = 0; i < r->o->n_exclude; i++)
        if (!fnmatch(r->o->exclude[i], name, 0))
            return 0;
    if (!r->o->n_include)
        return 1;
    for (size_t i = 0; i < r->o->n_include; i++)
        if (!fnmatch(r->o->include[i], name, 0))
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Keep what the index holds at or below `path` this run: it could not be
 * listed or read, so its absence says nothing.  0, or -1 out of memory
 * (the run fails: removing what may still be there is not safe). */
static int keep_place(run *r, const char *path)
{
    if (write_strlist_add(&r->kept, path, strlen(path)) == 0)
        return 0;
    fail(r, PDX_ENOMEM, "out of memory");
    return -1;
}

/* Is `path` at or below a place kept this run? */
static int in_kept_place(const run *r, const char *path)
{
    for (size_t i = 0; i < r->kept.n; i++) {
        const char *k = r->kept.v[i];
        size_t n = strlen(k);
        if (!strcmp(k, ".") ||
            (!strncmp(path, k, n) &&
             (path[n] == '\0' || path[n] == '/')))
            return 1;
    }
    return 0;
}

/* Every wanted regular file below dir.  Symbolic links to directories are
 * not followed (no loops); links to files are read.  A directory that
 * cannot be read, or an entry that cannot be looked at, is an error, and
 * what the index holds below it is kept. */
static void walk(run *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        source_failed(r, dir, "%s: cannot read the directory: %s; what the "
                      "index holds from it is kept", dir, strerror(errno));
        keep_place(r, dir);
        return;
    }
    struct dirent *de;
    for (;;) {
        errno = 0;
        if (!(de = readdir(d))) {
            if (errno) {
                source_failed(r, dir, "%s: cannot read the directory to "
                              "its end: %s; what the index holds from it "
                              "is kept", dir, strerror(errno));
                keep_place(r, dir);
            }
            break;
        }
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        size_t n = strlen(dir) + strlen(de->d_name) + 2;
        char *p = malloc(n);
        if (!p)
            break;
        snprintf(p, n, "%s/%s", dir, de->d_name);
        struct stat lst, st;
        if (lstat(p, &lst) != 0) {
            if (de->d_name[0] != '.') {
                source_failed(r, p, "%s: cannot read: %s; what the index "
                              "holds from it is kept", p, strerror(errno));
                keep_place(r, p);
            }
        } else if (S_ISDIR(lst.st_mode)) {
            if (de->d_name[0] != '.')
                walk(r, p);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
                   name_wanted(r, de->d_name)) {
            add_file(r, p);
        }
        free(p);
    }
    closedir(d);
}

/* Is `path` at or below one of the named locations? */
static int under_roots(const run *r, const char *path)
{
    for (size_t i = 0; i < r->n_roots; i++) {
        size_t n = strlen(r->roots[i]);
        if (!strcmp(path, r->roots[i]))
            return 1;
        if (r->root_is_dir[i] &&
            (!strcmp(r->roots[i], ".") ||
             (!strncmp(path, r->roots[i], n) && path[n] == '/')))
            return 1;
    }
    return 0;
}

static int is_listed(const run *r, const char *path)
{
    return bsearch(&path, r->files, r->n_files, sizeof *r->files, cmp_str) !=
           NULL;
}

/* FNV-1a 64 of the file's bytes: the content part of a fingerprint. */
static int hash_file(const char *path, uint64_t *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t h = 1469598103934665603ULL;
    unsigned char buf[1 << 16];
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < k; i++) {
            h ^= buf[i];
            h *= 1099511628211ULL;
        }
    close(fd);
    if (k < 0)
        return -1;
    *out = h;
    return 0;
}

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

static void pl_free(placeline *m)
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
        fail(r, rc, "%s: %s", path, pdx_errmsg(r->ix));
    for (size_t i = 0; i < ab.terms.n; i++) {
        if (!r->fatal && !*r->stop) {
            arena a = {0};
            const char *id = "";
            if ((rc = write_remove_record(r->ix, path, ab.terms.v[i], &a, &id))) {
                fail(r, rc, "%s: %s", path, pdx_errmsg(r->ix));
            } else {
                r->s->records_removed++;
                pdx_sync_event ev = {.kind = PDX_SYNC_RECORD_REMOVE,
                                     .path = path, .message = id};
                emit(r, &ev);
                if (++r->since_commit >= r->batch)
                    commit(r);
            }
            arena_free(&a);
        }
    }
    write_strlist_free(&ab.terms);
    if (*r->stop && !r->fatal)
        fail(r, PDX_ERROR, "stopped by the caller");
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
        fail(r, PDX_ENOMEM, "out of memory");
        return -1;
    }
    int rc = later ? pdx_put(r->ix, w) : 0;
    if (rc == PDX_EINVAL) {
        s->invalid++;
        s->records_skipped++;
        char msg[1400];
        snprintf(msg, sizeof msg, "%s:%llu: %s, skipped", path,
                 (unsigned long long)line, pdx_errmsg(r->ix));
        pdx_sync_event ev = {.kind = PDX_SYNC_SKIP, .path = path,
                             .line = line, .skip = PDX_SKIP_NONE,
                             .message = msg};
        emit(r, &ev);
        return 0;
    }
    if (rc) {
        fail(r, rc, "%s:%llu: %s", path, (unsigned long long)line,
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
        emit(r, &ev);
    }
    if (++r->since_commit >= r->batch && commit(r))
        return -1;
    return 0;
}

/* Put the records other workers sent r (sources shared by file): one
 * batch, or with `all`, every batch until no worker reads any more.
 * After a failure or a stop they are dropped: the run has failed, and
 * the senders must not wait on a mailbox nobody empties.  1 if a batch
 * was taken, else 0. */
static int put_received(run *r, int all)
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
        if (!put_received(r, 0))
            xchg_wait(r->xchg);
    if (rc) {
        fail(r, PDX_ENOMEM, "out of memory");
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

/* The records of one source that could not be read as written
 * (reader_skip_damages): how many, and the first one's line and reason;
 * and the records that stand in the place of an earlier record of the
 * file (one citation key, id or DOI twice): how many, the first's line. */
typedef struct damage {
    uint64_t n, line;
    char why[512];
    uint64_t twice, twice_line;
} damage;

/* Read one source (r->files[fi], or standard input) and put its records;
 * with `seen`, only those the index does not hold as they are (their
 * places noted in seen).  Records that could not be read are counted in
 * *dmg.  Returns the number of records: with r->sl, those this worker
 * decoded. */
static uint64_t read_source(run *r, size_t fi, const char *path,
                            placeset *seen, damage *dmg)
{
    pdx_reader *raw = NULL;
    prefetch *rd = NULL;
    uint64_t records = 0;
    int rc = pdx_reader_open(&raw, path, &r->ro);
    if (rc) {
        source_failed(r, path, "%s", pdx_reader_errmsg(raw));
        pdx_reader_free(raw);
        return 0;
    }
    if (r->sl)
        reader_share_lines(raw, r->part_k, r->n_workers);
    /* Decoding runs ahead on a thread of its own where the builder
     * thread runs: one job, a core to spare. */
    if (prefetch_open(&rd, raw, path, r->builder != 0)) {
        source_failed(r, path, "%s: out of memory", path);
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
            source_failed(r, path, "%s", prefetch_errmsg(rd));
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
                fail(r, PDX_ENOMEM, "out of memory");
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
            emit(r, &ev);
            continue;
        }
        write_rec state = WRITE_REC_NEW;
        if (seen) {
            int fresh = ps_add(seen, merge_place_hash(w));
            if (fresh < 0) {
                fail(r, PDX_ENOMEM, "out of memory");
                break;
            }
            if (!fresh && dmg->twice++ == 0)
                dmg->twice_line = prefetch_line(rd);
            /* A place read twice (one id twice in the file) is put again:
             * the later record replaces the earlier, as in a fresh build. */
            if (fresh && write_record_state(r->ix, w, &state)) {
                fail(r, pdx_errcode(r->ix), "%s:%llu: %s", path,
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
            put_received(r, 0);
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
            emit(r, &ev);
        }
    }
    if (*r->stop && !r->fatal)
        fail(r, PDX_ERROR, "stopped by the caller");
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
        emit(r, &done);
    prefetch_free(rd);
    free(routes.v);
    return records;
}

/* One source found now, r->files[fi]: skip it, or read it again. */
static void update_source(run *r, size_t fi)
{
    const char *path = r->files[fi];
    pdx_sync_summary *s = r->s;
    struct stat st;
    if (stat(path, &st) != 0) {
        source_failed(r, path, "%s: cannot read: %s", path, strerror(errno));
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
    if (hash_file(path, &cur.hash)) {
        source_failed(r, path, "%s: cannot read: %s", path, strerror(errno));
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
        emit_path(r, known ? PDX_SYNC_UPDATE : PDX_SYNC_ADD, path);
    if (known)
        s->sources_updated++;
    else
        s->sources_added++;
    if (r->o->dry_run)
        return;
    /* A source read before is compared record by record (read_source
     * with `seen`, then remove_absent): what did not change costs no
     * Xapian work, and nothing is taken out all at once.  A new source's
     * records are all put; any a killed run left of it without a
     * fingerprint are taken out first.  A worker's shard is new: it
     * holds nothing of a source but what other workers sent it, which
     * may come before the worker reads the source itself. */
    if (!known && r->n_workers < 2 && pdx_source_remove(r->ix, path)) {
        fail(r, pdx_errcode(r->ix), "%s: %s", path, pdx_errmsg(r->ix));
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
        fail(r, pdx_errcode(r->ix), "%s: %s", path, pdx_errmsg(r->ix));
        return;
    }
    unsigned failed_before = s->sources_failed;
    placeset seen = {NULL, 0, 0, 0};
    damage dmg = {0, 0, "", 0, 0};
    cur.records = read_source(r, fi, path, known ? &seen : NULL, &dmg);
    /* Records are taken out only after a clean read to the end: a file
     * that broke off, ends inside a record (an export caught half
     * written) or holds a record that cannot be read keeps every record
     * the index has of it, in its earlier version where it was not read
     * now.  Its fingerprint is stored as usual: the next change to the
     * file (the export finished, the bad byte mended) reads it again. */
    if (dmg.n && known && !r->fatal && (r->owner || r->part_k == 0))
        emit_msg(r, PDX_SYNC_WARNING, path,
                 "%s was not read cleanly: %llu record%s could not be read "
                 "(the first: %s); nothing indexed from it was removed",
                 path, (unsigned long long)dmg.n, dmg.n == 1 ? "" : "s",
                 dmg.why);
    /* One place twice: the later record is the one indexed, as in a
     * fresh build; the earlier is put and replaced again at every read
     * of the file, since the index keeps the later's content only. */
    if (dmg.twice && !r->fatal && (r->owner || r->part_k == 0))
        emit_msg(r, PDX_SYNC_WARNING, path,
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
        fail(r, pdx_errcode(r->ix), "%s: %s", path, pdx_errmsg(r->ix));
        return;
    }
    /* A source that broke off keeps its provisional fingerprint: the next
     * run reads it again.  Either way its records so far are committed. */
    commit(r);
}

typedef struct vanished {
    run *r;
    char **paths;
    size_t n, cap;
} vanished;

static int on_known(void *ctx, const pdx_source *s)
{
    vanished *v = ctx;
    if (!under_roots(v->r, s->path) || is_listed(v->r, s->path) ||
        in_kept_place(v->r, s->path))
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

static void remove_vanished(run *r)
{
    vanished v = {r, NULL, 0, 0};
    int rc = pdx_source_foreach(r->ix, on_known, &v);
    if (rc)
        fail(r, rc, "listing the known sources: %s", pdx_errmsg(r->ix));
    if (v.n)
        qsort(v.paths, v.n, sizeof *v.paths, cmp_str);
    for (size_t i = 0; i < v.n; i++) {
        if (!r->fatal) {
            emit_path(r, PDX_SYNC_REMOVE, v.paths[i]);
            r->s->sources_removed++;
            if (!r->o->dry_run) {
                if (pdx_source_remove(r->ix, v.paths[i]))
                    fail(r, pdx_errcode(r->ix), "%s: %s", v.paths[i],
                         pdx_errmsg(r->ix));
                else
                    commit(r);
            }
        }
        free(v.paths[i]);
    }
    free(v.paths);
}

/* Open db for this run, waiting up to `wait` seconds for another writer's
 * lock.  An index of an older layout is opened to be rebuilt (r->upgrade,
 * r->full).  A dry run on an index that does not exist yet leaves r->ix
 * NULL: everything is new.  0, or the code with the message kept. */
static int open_index(run *r, const char *db, double wait)
{
    unsigned flags = r->o->dry_run ? PDX_OPEN_READ
                                   : PDX_OPEN_WRITE | PDX_OPEN_CREATE |
                                         r->builder | r->positions;
    double deadline = now() + wait;
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
        if (rc != PDX_ELOCKED || now() >= deadline) {
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

/* ------------------------------------------------- rebuilds beside db */


/* Put the index built in `built` in db's place.  The old index stays
 * locked by r->ix, unchanged, until db names the new one: the two
 * directories are exchanged in one step (renameat2 RENAME_EXCHANGE), so
 * db always names a whole index and no other writer can open the old one
 * and commit to it while it is being moved away.  Only then is the old
 * handle closed (it has nothing to commit) and the new index opened for
 * writing; a writer that gets there first has the new index and makes
 * this run fail with PDX_ELOCKED.  Where the file system cannot exchange,
 * db is renamed aside (to `old`) and the new index renamed in, still
 * under the old lock, and put back if that fails.  0, or -1 with the
 * failure kept: s->kept_old if the old index is still in db, else the new
 * one is there and could not be opened (or, after a failed rename back,
 * neither: r->keep_tmp). */
static int swap_in(run *r, const char *db, const char *built, const char *old)
{
    if (renameat2(AT_FDCWD, built, AT_FDCWD, db, RENAME_EXCHANGE) != 0) {
        if (errno != EINVAL && errno != ENOSYS) {
            fail(r, PDX_EIO, "%s: cannot replace it with the new index: %s",
                 db, strerror(errno));
            r->s->kept_old = 1;
            return -1;
        }
        if (rename(db, old) != 0) {
            fail(r, PDX_EIO, "%s: cannot move it aside: %s", db,
                 strerror(errno));
            r->s->kept_old = 1;
            return -1;
        }
        if (rename(built, db) != 0) {
            int err = errno;
            if (rename(old, db) != 0) {
                fail(r, PDX_EIO, "%s: cannot put the new index in place (%s), "
                     "nor the old one back: it is at %s", db, strerror(err),
                     old);
                r->keep_tmp = 1;
            } else {
                fail(r, PDX_EIO, "%s: cannot put the new index in place: %s",
                     db, strerror(err));
                r->s->kept_old = 1;
            }
            return -1;
        }
    }
    pdx_close(r->ix);
    r->ix = NULL;
    int rc = open_index(r, db, 0);
    if (rc) {
        char msg[sizeof r->s->message];
        snprintf(msg, sizeof msg, "%s", r->s->message);
        r->s->message[0] = '\0';
        fail(r, rc, "%s", msg);
        return -1;
    }
    return 0;
}

/* db_arg without trailing slashes, in db: "ix/" names the directory ix. */
static void dir_name(char db[PATH_MAX], const char *db_arg)
{
    snprintf(db, PATH_MAX, "%s", db_arg);
    for (size_t len = strlen(db); len > 1 && db[len - 1] == '/'; len--)
        db[len - 1] = '\0';
}

/* The kinds of work directory a run makes beside the index, DB.KIND-PID:
 * make_work_dir takes one, remove_orphans knows them all by this list. */
static const char *const work_dir_kinds[] = {"full", "jobs", "compact"};

/* In `rest`, what follows "KIND-" for a kind of work directory: where
 * its PID begins, or NULL. */
static const char *work_dir_pid(const char *rest)
{
    for (size_t i = 0; i < sizeof work_dir_kinds / sizeof *work_dir_kinds;
         i++) {
        size_t k = strlen(work_dir_kinds[i]);
        if (!strncmp(rest, work_dir_kinds[i], k) && rest[k] == '-')
            return rest + k + 1;
    }
    return NULL;
}

/* dir_name(db_arg) in db, and a new work directory beside it in tmp:
 * DB.KIND-PID, on the same file system, so that what is built there can be
 * renamed into db's place.  0, or -1 with errno set. */
static int make_work_dir(const char *db_arg, const char *kind,
                         char db[PATH_MAX], char tmp[PATH_MAX + 32])
{
    dir_name(db, db_arg);
    snprintf(tmp, PATH_MAX + 32, "%s.%s-%ld", db, kind, (long)getpid());
    if (mkdir(tmp, 0777) != 0)
        return -1;
    /* Until the swap: removed if Xapian's failure ends the process. */
    shim_fatal_work_dir(tmp);
    return 0;
}

/* A run that cannot go on without the work directory tmp (errno says
 * why): the failure kept, and s->kept_old (nothing was touched). */
static void work_dir_failed(run *r, const char *tmp, const char *kind)
{
    fail(r, PDX_EIO, "%s: cannot create: %s (a rebuild is made beside the "
         "index%s)", tmp, strerror(errno),
         strcmp(kind, "full") ? "" : "; in_place (--in-place) rebuilds it "
                                     "where it is");
    r->s->kept_old = 1;
}

/* Work directories that runs killed before they could remove them left
 * beside db (DB.KIND-PID, work_dir_kinds): removed, with a NOTE.  Called with
 * the index lock held, so no live run of ours is using one -- unless its
 * PID is still alive (a run between its swap and reopening the index),
 * which is left alone.  One holding "old" is where a failed swap left the
 * old index (swap_in said so): kept, and pointed at again (WARNING). */
static void remove_orphans(run *r, const char *db_arg)
{
    char db[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 300];
    dir_name(db, db_arg);
    const char *slash = strrchr(db, '/');
    const char *base = slash ? slash + 1 : db;
    if (slash == db)
        snprintf(dir, sizeof dir, "/");
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - db), db);
    else
        snprintf(dir, sizeof dir, ".");
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name, *rest;
        if (strncmp(n, base, blen) || n[blen] != '.')
            continue;
        rest = n + blen + 1;
        const char *pid_at = work_dir_pid(rest);
        if (!pid_at)
            continue;
        char *end;
        errno = 0;
        long pid = strtol(pid_at, &end, 10);
        if (*end || pid <= 0 || errno ||
            (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        snprintf(path, sizeof path, "%s/%s/old", dir, n);
        struct stat st;
        if (lstat(path, &st) == 0) {
            emit_msg(r, PDX_SYNC_WARNING, NULL, "%s/%s holds the index a "
                     "failed run moved aside; look at it, then remove it",
                     dir, n);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, n);
        shim_remove_tree(path);
        emit_msg(r, PDX_SYNC_NOTE, NULL, "removed %s, left by a run that "
                 "was killed", path);
    }
    closedir(d);
}

/* full on an index that holds something: the new index is built from the
 * sources in a work directory beside db, by the same steps as any run,
 * and exchanged for the old one (swap_in) only when it is whole.  Until
 * then the old index stays locked and untouched, so searches see it whole
 * throughout, and a run that fails or is killed leaves it as it was.
 * in_place ends the build at once: an empty index is swapped in and the
 * old one deleted, so the rebuild needs no room for two copies.
 * Exchanging directories is one step and costs nothing, where deleting
 * every document (pdx_clear) costs more time than the rebuild and holds
 * every removed posting in memory until the commit (10,000 arXiv works:
 * 25 s and 0.8 GB). */
typedef struct beside {
    char db[PATH_MAX], tmp[PATH_MAX + 32], fresh[PATH_MAX + 64],
        old[PATH_MAX + 64];
    pdx_index *old_ix;
} beside;

/* Make r->ix a new, empty index in DB.full-PID, the old handle kept in b,
 * so that every later step of the run writes there.  0 (with r->fatal set
 * if the new index could not be made), or -1 with errno and nothing
 * changed if no work directory can be made. */
static int begin_beside(run *r, const char *db_arg, beside *b)
{
    if (make_work_dir(db_arg, "full", b->db, b->tmp) != 0)
        return -1;
    snprintf(b->fresh, sizeof b->fresh, "%s/new", b->tmp);
    snprintf(b->old, sizeof b->old, "%s/old", b->tmp);
    b->old_ix = r->ix;
    r->ix = NULL;
    /* Nobody reads the new index before the swap: its commits skip the
     * fsync and write in place (PDX_OPEN_NOSYNC), and end_beside syncs
     * it once before swapping it in; a failed run removes it. */
    int rc = pdx_open(&r->ix, b->fresh,
                      PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC |
                          r->builder | r->positions);
    if (rc)
        fail(r, rc, "%s", pdx_errmsg(r->ix));
    return 0;
}

/* Close the new index and, unless the run failed, exchange it for the old
 * one.  On return r->ix is the new index, or the old one with r->fatal
 * and s->kept_old set. */
static void end_beside(run *r, beside *b)
{
    pdx_close(r->ix);
    r->ix = b->old_ix;
    if (!r->fatal && pdx_sync_dir(b->fresh) != 0)
        fail(r, PDX_EIO, "%s: cannot sync the new index: %s", b->fresh,
             strerror(errno));
    shim_fatal_work_dir(NULL);
    if (r->fatal)
        r->s->kept_old = 1;
    else
        swap_in(r, b->db, b->fresh, b->old);
    if (!r->keep_tmp)
        shim_remove_tree(b->tmp);
}

/* Write a compacted copy of the index beside it, in DB.compact-PID, and
 * exchange it for the index (swap_in), under the run's lock: what
 * pdx_sync_options.compact asks for after a run that changed the index.
 * Readers see the updated index throughout, first uncompacted, then
 * compacted.  A copy that cannot be made leaves the index as the run
 * left it (updated, uncompacted) with a WARNING: the update itself is
 * done.  The summary gets the sizes before and after, and the time. */
static void compact_beside(run *r, const char *db_arg)
{
    char db[PATH_MAX], tmp[PATH_MAX + 32], fresh[PATH_MAX + 64],
        old[PATH_MAX + 64];
    double t0 = now();
    if (make_work_dir(db_arg, "compact", db, tmp) != 0) {
        emit_msg(r, PDX_SYNC_WARNING, NULL, "%s: cannot create: %s; the index "
                 "is updated, but not compacted", tmp, strerror(errno));
        return;
    }
    snprintf(fresh, sizeof fresh, "%s/new", tmp);
    snprintf(old, sizeof old, "%s/old", tmp);
    uint64_t before = handle_bytes(db);
    int rc = pdx_compact(r->ix, fresh);
    if (rc)
        emit_msg(r, PDX_SYNC_WARNING, NULL, "%s; the index is updated, but "
                 "not compacted", pdx_errmsg(r->ix));
    else if (pdx_sync_dir(fresh) != 0) {
        emit_msg(r, PDX_SYNC_WARNING, NULL, "%s: cannot sync the compacted "
                 "copy: %s; the index is updated, but not compacted", fresh,
                 strerror(errno));
        rc = -1;
    }
    shim_fatal_work_dir(NULL);
    if (!rc && swap_in(r, db, fresh, old) == 0) {
        r->s->compact_before = before;
        r->s->compact_after = handle_bytes(db);
        r->s->compact_seconds = now() - t0;
    }
    if (!r->keep_tmp)
        shim_remove_tree(tmp);
}

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
    if (rc) {
        fail(w, rc, "%s", pdx_errmsg(w->ix));
    } else {
        for (size_t i = 0; i < w->n_files && !w->fatal; i++)
            if (!w->owner || w->owner[i] == w->part_k)
                update_source(w, i);
    }
    if (w->xchg) {
        /* Whatever happened, the others may be sending to this worker
         * and waiting on it: the exchange is seen through to its end. */
        while (xchg_flush(w->xchg, w->part_k) == XCHG_FULL)
            if (!put_received(w, 0))
                xchg_wait(w->xchg);
        xchg_done_reading(w->xchg, w->part_k);
        put_received(w, 1);
    }
    if (w->ix && !w->fatal)
        commit(w);
    pdx_close(w->ix);
    w->ix = NULL;
    pl_free(&w->order);
    return NULL;
}

/* How n workers share the sources.  Each reading every source balances
 * any sources, even one file; the lines of a file of JSON lines are
 * shared (each decoded by one worker, corpus/reader.h), but the gunzip
 * is everyone's, and a page or an XML file is decoded by every worker,
 * which keeps the records routed to it.  Sources of like sizes are
 * shared by file instead, each read by one worker: largest first, each
 * to the worker with the fewest bytes so far (a static plan, so that a
 * run always shares them the same way).  With two workers that saved 2%
 * of the time on paperdex's JSON lines and 9% on OpenAlex works
 * (bench/RESULTS.md), so it is chosen when the plan's busiest worker has
 * no more than 2% more bytes per other worker than an even share: the
 * least it saves.  Returns the
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
 * built index at `path` before anyone can see it (pdx_remerge), and the
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
        rc = pdx_remerge(ix, &r->s->regrouped);
    if (!rc)
        rc = count_shared(r, ix, sl, n);
    if (!rc)
        rc = pdx_commit(ix);
    if (rc)
        fail(r, rc, "%s: merging works split across shards: %s", path,
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
static void run_jobs(run *r, const char *db_arg, unsigned n)
{
    char db[PATH_MAX], tmp[PATH_MAX + 32], merged[PATH_MAX + 64],
        old[PATH_MAX + 64];
    if (make_work_dir(db_arg, "jobs", db, tmp) != 0) {
        work_dir_failed(r, tmp, "jobs");
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
        fail(r, PDX_ENOMEM, "out of memory");
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
            fail(r, PDX_ERROR, "cannot start worker %u: %s", k + 1,
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
        emit(r, &ev);
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
            fail(r, rc, "merging the shards: %s", pdx_errmsg(sh));
        else if (remerge_built(r, merged, sl, n) != 0)
            ; /* said */
        else if (pdx_sync_dir(merged) != 0)
            fail(r, PDX_EIO, "%s: cannot sync the merged index: %s", merged,
                 strerror(errno));
        pdx_close(sh);
        free(paths);
    }
    shim_fatal_work_dir(NULL);
    if (r->fatal) {
        s->kept_old = 1;
    } else {
        swap_in(r, db, merged, old);
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

/* ------------------------------------------------------------ pdx_sync */

/* Version 1 of each struct ends where `compact` and `compact_before`
 * begin, version 2 of the options where `xapian_positions` does, version
 * 3 where `forget_missing` does: an older caller's is that long. */
#define OPTIONS_V1_SIZE offsetof(pdx_sync_options, compact)
#define OPTIONS_V2_SIZE offsetof(pdx_sync_options, xapian_positions)
#define OPTIONS_V3_SIZE offsetof(pdx_sync_options, forget_missing)

/* The bytes of an options struct of `version` (1 to the current). */
static size_t options_size(unsigned version)
{
    return version == 1   ? OPTIONS_V1_SIZE
           : version == 2 ? OPTIONS_V2_SIZE
           : version == 3 ? OPTIONS_V3_SIZE
                          : sizeof(pdx_sync_options);
}
#define SUMMARY_V1_SIZE offsetof(pdx_sync_summary, compact_before)

int pdx_sync_options_init(pdx_sync_options *o, unsigned int version)
{
    if (!o)
        return PDX_EINVAL;
    if (version < 1 || version > PDX_SYNC_OPTIONS_VERSION)
        return PDX_EVERSION;
    memset(o, 0, options_size(version));
    o->version = version;
    o->format = PDX_FORMAT_AUTO;
    return 0;
}

int pdx_sync_summary_init(pdx_sync_summary *s, unsigned int version)
{
    if (!s)
        return PDX_EINVAL;
    if (version < 1 || version > PDX_SYNC_SUMMARY_VERSION)
        return PDX_EVERSION;
    memset(s, 0, version == 1 ? SUMMARY_V1_SIZE : sizeof *s);
    s->version = version;
    return 0;
}

/* Refuse what the run cannot do, before touching anything: 0, or
 * PDX_EINVAL / PDX_EVERSION with the message in s. */
static int check_options(pdx_sync_summary *s, const char *db,
                         const char *const *sources, size_t n,
                         const pdx_sync_options *o, int *use_stdin)
{
#define REFUSE(code, ...)                                                  \
    do {                                                                   \
        snprintf(s->message, sizeof s->message, __VA_ARGS__);              \
        return code;                                                       \
    } while (0)
    if (!o)
        REFUSE(PDX_EINVAL, "no sync options given");
    if (o->version != PDX_SYNC_OPTIONS_VERSION)
        REFUSE(PDX_EVERSION, "pdx_sync_options version %u is not %d "
               "(initialise it with PDX_SYNC_OPTIONS_INIT or "
               "pdx_sync_options_init)", o->version, PDX_SYNC_OPTIONS_VERSION);
    if (!db || !*db)
        REFUSE(PDX_EINVAL, "no index path given");
    if (!sources || !n)
        REFUSE(PDX_EINVAL, "no sources (files or directories; '-' for "
               "standard input)");
    if ((o->n_include && !o->include) || (o->n_exclude && !o->exclude))
        REFUSE(PDX_EINVAL, "a glob list has a count but no items");
    if (o->jobs > PDX_MAX_JOBS)
        REFUSE(PDX_EINVAL, "jobs takes 1 to %d workers, not %u", PDX_MAX_JOBS,
               o->jobs);
    if (o->batch > 10000000)
        REFUSE(PDX_EINVAL, "batch takes 1 to 10000000 records");
    if (o->wait < 0 || o->wait > 86400)
        REFUSE(PDX_EINVAL, "wait takes seconds, from 0 to 86400");
    if ((unsigned)o->format >= PDX_FORMAT__COUNT)
        REFUSE(PDX_EINVAL, "unknown format %d", (int)o->format);
    if (o->in_place && (!o->full || o->jobs > 1))
        REFUSE(PDX_EINVAL, "in_place (--in-place) goes with full (--full), "
               "and not with several jobs (--jobs)");
    if (o->in_place && o->compact)
        REFUSE(PDX_EINVAL, "compact (--compact) needs room for a second "
               "copy of the index, which in_place (--in-place) is for "
               "doing without");
    *use_stdin = 0;
    for (size_t i = 0; i < n; i++) {
        if (!sources[i] || !*sources[i])
            REFUSE(PDX_EINVAL, "source %zu is empty", i + 1);
        if (!strcmp(sources[i], "-"))
            *use_stdin = 1;
    }
    if (o->jobs > 1 && (*use_stdin || o->dry_run))
        REFUSE(PDX_EINVAL, "several jobs (--jobs) read files, not standard "
               "input, and do not combine with a dry run");
    return 0;
#undef REFUSE
}

static int sync_run(pdx_sync_summary *out, const char *db,
                    const char *const *sources, size_t n_sources,
                    const pdx_sync_options *opts);

int pdx_sync(pdx_sync_summary *out, const char *db,
             const char *const *sources, size_t n_sources,
             const pdx_sync_options *opts)
{
    if (!out)
        return PDX_EINVAL;
    if (out->version < 1 || out->version > PDX_SYNC_SUMMARY_VERSION)
        return PDX_EVERSION;
    /* An older caller's structs: its options read as far as they go (the
     * rest as pdx_sync_options_init leaves it), its summary written as
     * far as it goes. */
    pdx_sync_options o2;
    if (opts && opts->version >= 1 &&
        opts->version < PDX_SYNC_OPTIONS_VERSION) {
        pdx_sync_options_init(&o2, PDX_SYNC_OPTIONS_VERSION);
        memcpy(&o2, opts, options_size(opts->version));
        o2.version = PDX_SYNC_OPTIONS_VERSION;
        opts = &o2;
    }
    if (out->version == PDX_SYNC_SUMMARY_VERSION)
        return sync_run(out, db, sources, n_sources, opts);
    pdx_sync_summary s2;
    pdx_sync_summary_init(&s2, PDX_SYNC_SUMMARY_VERSION);
    int rc = sync_run(&s2, db, sources, n_sources, opts);
    s2.version = out->version;
    memcpy(out, &s2, SUMMARY_V1_SIZE);
    return rc;
}

static int on_any_source(void *ctx, const pdx_source *s)
{
    (void)s;
    *(int *)ctx = 1;
    return 1; /* one is enough */
}

/* Does ix hold no work and know no source?  (On failure: no.) */
static int index_is_empty(pdx_index *ix)
{
    uint64_t works = 1;
    int any = 0;
    if (pdx_count_works(&works, ix) || works)
        return 0;
    return pdx_source_foreach(ix, on_any_source, &any) == 0 && !any;
}

/* pdx_sync with structs of this version. */
static int sync_run(pdx_sync_summary *out, const char *db,
                    const char *const *sources, size_t n_sources,
                    const pdx_sync_options *opts)
{
    pdx_sync_summary_init(out, PDX_SYNC_SUMMARY_VERSION);
    double start = now();
    int use_stdin = 0;
    int rc = check_options(out, db, sources, n_sources, opts, &use_stdin);
    if (rc)
        return rc;
    int stop = 0;
    run r;
    memset(&r, 0, sizeof r);
    r.o = opts;
    r.s = out;
    r.stop = &stop;
    r.source_errors = 1;
    r.full = opts->full;
    r.batch = opts->batch ? opts->batch : PDX_DEFAULT_BATCH;
    pdx_reader_options_init(&r.ro, PDX_READER_OPTIONS_VERSION);
    r.ro.format = opts->format;
    r.ro.page_date = opts->page_date;
    unsigned jobs = opts->jobs ? opts->jobs : 1;
    if (jobs == 1 && sysconf(_SC_NPROCESSORS_ONLN) >= 2)
        r.builder = PDX_OPEN_BUILDER;
    r.positions = opts->xapian_positions ? PDX_OPEN_XAPIAN_POSITIONS : 0;

    struct stat before;
    const int existed = lstat(db, &before) == 0;
    if ((rc = open_index(&r, db, opts->wait)))
        return rc;
    /* An index made with Xapian's positions (for xapian-tcpsrv) is
     * rebuilt so (--full, --jobs). */
    if (r.ix && !opts->dry_run && !r.upgrade &&
        shim_xapian_positions(r.ix->db) == 1)
        r.positions = PDX_OPEN_XAPIAN_POSITIONS;
    if (r.ix && !opts->dry_run && opts->xapian_positions && !r.full &&
        jobs == 1 && !shim_xapian_positions(r.ix->db)) {
        /* An index keeps the way it was made (an empty one was just
         * made over by the open). */
        snprintf(out->message, sizeof out->message,
                 "%s keeps paperdex's own positions; --xapian-positions "
                 "(xapian_positions) makes a new index, or this one again "
                 "with --full (full)", db);
        rc = PDX_EINVAL;
        goto done;
    }
    if (r.ix && !opts->dry_run)
        remove_orphans(&r, db);
    if (!r.ix)
        r.full = 1; /* dry run on an index not created yet */

    /* The sources as they are now, and the named locations. */
    r.roots = calloc(n_sources, sizeof *r.roots);
    r.root_is_dir = calloc(n_sources, sizeof *r.root_is_dir);
    if (!r.roots || !r.root_is_dir) {
        snprintf(out->message, sizeof out->message, "out of memory");
        rc = PDX_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n_sources; i++) {
        if (!strcmp(sources[i], "-"))
            continue;
        char *p = normalize(sources[i]);
        if (!p)
            continue;
        struct stat st;
        size_t k = r.n_roots++;
        r.roots[k] = p;
        if (stat(p, &st) != 0) {
            /* A named source that cannot be found or looked at is an
             * error, and what the index holds from it stays, unless the
             * caller says a source that is gone is to be forgotten. */
            int gone = errno == ENOENT || errno == ENOTDIR;
            if (gone && opts->forget_missing) {
                r.root_is_dir[k] = 1; /* a directory that was, or a file */
                emit_msg(&r, PDX_SYNC_NOTE, p, "%s is gone: what the index "
                         "holds from it is taken out", p);
            } else {
                source_failed(&r, p, "%s: cannot read: %s; what the index "
                              "holds from it is kept%s", p, strerror(errno),
                              gone ? " (--forget-missing takes it out)"
                                   : "");
                keep_place(&r, p);
            }
        } else if (S_ISDIR(st.st_mode)) {
            r.root_is_dir[k] = 1;
            walk(&r, p);
        } else if (S_ISREG(st.st_mode)) {
            add_file(&r, p);
        } else {
            /* A pipe, FIFO or device: a source is read twice (its
             * fingerprint, then its records) and again at the next run
             * to compare, which such a file cannot give; opening a FIFO
             * with no writer would hang holding the lock. */
            source_failed(&r, p, "%s is not a regular file (a %s): paperdex "
                          "reads a source more than once; give '-' to "
                          "index standard input once, or save it to a "
                          "file", p,
                          S_ISFIFO(st.st_mode)  ? "pipe or FIFO"
                          : S_ISCHR(st.st_mode) ? "character device"
                          : S_ISBLK(st.st_mode) ? "block device"
                          : S_ISSOCK(st.st_mode) ? "socket"
                                                 : "special file");
            keep_place(&r, p);
        }
    }
    if (r.n_files)
        qsort(r.files, r.n_files, sizeof *r.files, cmp_str);
    size_t uniq = 0; /* a file named twice is read once */
    for (size_t i = 0; i < r.n_files; i++) {
        if (uniq && !strcmp(r.files[uniq - 1], r.files[i]))
            free(r.files[i]);
        else
            r.files[uniq++] = r.files[i];
    }
    r.n_files = uniq;

    if (jobs > 1 && !r.full) {
        pdx_stats st = PDX_STATS_INIT;
        if (pdx_stats_get(&st, r.ix) || st.works || st.sources) {
            snprintf(out->message, sizeof out->message,
                     "several jobs (--jobs) build an index from scratch: give "
                     "a new index, or rebuild this one (full, --full)");
            rc = PDX_EINVAL;
            goto done;
        }
    }
    out->started = 1;
    /* full builds the new index beside the old one and swaps it in
     * (begin_beside ... end_beside; run_jobs for several jobs); an index
     * that holds nothing yet is simply filled.  Where no work directory
     * can be made, in_place falls back to emptying the index inside. */
    beside bs;
    int building_beside = 0;
    if (r.full && r.ix && !opts->dry_run && jobs == 1) {
        pdx_stats st = PDX_STATS_INIT;
        if ((rc = pdx_stats_get(&st, r.ix))) {
            fail(&r, rc, "%s", pdx_errmsg(r.ix));
        } else if (!st.works && !st.sources) {
            /* nothing to keep */
        } else if (begin_beside(&r, db, &bs) == 0) {
            building_beside = 1;
            if (opts->in_place) {
                end_beside(&r, &bs); /* the empty index is DIR now */
                building_beside = 0;
            }
        } else if (!opts->in_place) {
            work_dir_failed(&r, bs.tmp, "full");
        } else {
            emit_msg(&r, PDX_SYNC_NOTE, NULL, "%s: cannot create: %s; "
                     "emptying the index inside instead (slower)", bs.tmp,
                     strerror(errno));
            if ((rc = pdx_clear(r.ix))) {
                fail(&r, rc, "%s", pdx_errmsg(r.ix));
                out->kept_old = 1;
            }
        }
    }
    if (r.ix && !r.full && !r.fatal)
        remove_vanished(&r);
    if (jobs > 1 && !r.fatal)
        run_jobs(&r, db, jobs);
    for (size_t i = 0; jobs == 1 && i < r.n_files && !r.fatal; i++)
        update_source(&r, i);
    if (use_stdin && !r.fatal && !opts->dry_run)
        read_source(&r, (size_t)-1, "-", NULL, &(damage){0, 0, "", 0, 0});
    if (r.ix && !opts->dry_run && !r.fatal) {
        pdx_mark_reindexed(r.ix);
        commit(&r);
    }
    if (building_beside)
        end_beside(&r, &bs);
    if (opts->compact && r.ix && !opts->dry_run && !r.fatal && jobs == 1 &&
        (out->records_added || out->records_updated || out->records_removed))
        compact_beside(&r, db);
    out->upgraded_from = out->kept_old ? 0 : r.upgrade;
    rc = r.fatal;
done:
    /* A run that made the index and then could read nothing leaves no
     * empty index behind (`index --db NEW /missing`): it had no works
     * and no sources when it failed, and it was not there before. */
    if (!existed && r.ix && !opts->dry_run && (rc || out->sources_failed) &&
        !out->records_indexed && index_is_empty(r.ix)) {
        pdx_close(r.ix);
        r.ix = NULL;
        shim_remove_tree(db);
    }
    pdx_close(r.ix);
    for (size_t i = 0; i < r.n_files; i++)
        free(r.files[i]);
    for (size_t i = 0; i < r.n_roots; i++)
        free(r.roots[i]);
    write_strlist_free(&r.kept);
    free(r.files);
    free(r.roots);
    free(r.root_is_dir);
    out->seconds = now() - start;
    return rc;
}
