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
 *      when the caller says so (forget_missing) (write_source_remove: its
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
 * three quarters at its first update, and little after; compacting
 * after each update keeps it at its first size, for about as much time
 * again as the update itself.
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
#include "sync_run.h"

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

/* Does ix hold a work or know a source?  0 with *holds set, or the
 * error code (the message on ix).  Two counts and at most one metadata
 * entry read: no walk of the vocabulary. */
static int index_holds(pdx_index *ix, int *holds)
{
    uint64_t works = 0;
    int any = 0;
    int rc = pdx_count_works(&works, ix);
    if (!rc && !works)
        rc = pdx_source_foreach(ix, on_any_source, &any);
    *holds = works || any;
    return rc;
}

/* Does ix hold no work and know no source?  (On failure: no.) */
static int index_is_empty(pdx_index *ix)
{
    int holds = 1;
    return index_holds(ix, &holds) == 0 && !holds;
}

/* pdx_sync with structs of this version. */
static int sync_run(pdx_sync_summary *out, const char *db,
                    const char *const *sources, size_t n_sources,
                    const pdx_sync_options *opts)
{
    pdx_sync_summary_init(out, PDX_SYNC_SUMMARY_VERSION);
    double start = sync_now();
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
    if ((rc = sync_open_index(&r, db, opts->wait)))
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
        sync_remove_orphans(&r, db);
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
        char *p = sync_normalize(sources[i]);
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
                sync_emit_msg(&r, PDX_SYNC_NOTE, p, "%s is gone: what the index "
                         "holds from it is taken out", p);
            } else {
                sync_source_failed(&r, p, "%s: cannot read: %s; what the index "
                              "holds from it is kept%s", p, strerror(errno),
                              gone ? " (--forget-missing takes it out)"
                                   : "");
                sync_keep_place(&r, p);
            }
        } else if (S_ISDIR(st.st_mode)) {
            r.root_is_dir[k] = 1;
            sync_walk(&r, p);
        } else if (S_ISREG(st.st_mode)) {
            sync_add_file(&r, p);
        } else {
            /* A pipe, FIFO or device: a source is read twice (its
             * fingerprint, then its records) and again at the next run
             * to compare, which such a file cannot give; opening a FIFO
             * with no writer would hang holding the lock. */
            sync_source_failed(&r, p, "%s is not a regular file (a %s): paperdex "
                          "reads a source more than once; give '-' to "
                          "index standard input once, or save it to a "
                          "file", p,
                          S_ISFIFO(st.st_mode)  ? "pipe or FIFO"
                          : S_ISCHR(st.st_mode) ? "character device"
                          : S_ISBLK(st.st_mode) ? "block device"
                          : S_ISSOCK(st.st_mode) ? "socket"
                                                 : "special file");
            sync_keep_place(&r, p);
        }
    }
    if (r.n_files)
        qsort(r.files, r.n_files, sizeof *r.files, sync_cmp_str);
    size_t uniq = 0; /* a file named twice is read once */
    for (size_t i = 0; i < r.n_files; i++) {
        if (uniq && !strcmp(r.files[uniq - 1], r.files[i]))
            free(r.files[i]);
        else
            r.files[uniq++] = r.files[i];
    }
    r.n_files = uniq;

    if (jobs > 1 && !r.full) {
        if (!index_is_empty(r.ix)) {
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
        int holds = 1;
        if ((rc = index_holds(r.ix, &holds))) {
            sync_fail(&r, rc, "%s", pdx_errmsg(r.ix));
        } else if (!holds) {
            /* nothing to keep */
        } else if (sync_begin_beside(&r, db, &bs) == 0) {
            building_beside = 1;
            if (opts->in_place) {
                sync_end_beside(&r, &bs); /* the empty index is DIR now */
                building_beside = 0;
            }
        } else if (!opts->in_place) {
            sync_work_dir_failed(&r, bs.tmp, "full");
        } else {
            sync_emit_msg(&r, PDX_SYNC_NOTE, NULL, "%s: cannot create: %s; "
                     "emptying the index inside instead (slower)", bs.tmp,
                     strerror(errno));
            if ((rc = write_clear(r.ix))) {
                sync_fail(&r, rc, "%s", pdx_errmsg(r.ix));
                out->kept_old = 1;
            }
        }
    }
    if (r.ix && !r.full && !r.fatal)
        sync_remove_vanished(&r);
    if (jobs > 1 && !r.fatal)
        sync_run_jobs(&r, db, jobs);
    for (size_t i = 0; jobs == 1 && i < r.n_files && !r.fatal; i++)
        sync_update_source(&r, i);
    if (use_stdin && !r.fatal && !opts->dry_run)
        sync_read_source(&r, (size_t)-1, "-", NULL, &(damage){0, 0, "", 0, 0});
    if (r.ix && !opts->dry_run && !r.fatal) {
        write_mark_reindexed(r.ix);
        sync_commit(&r);
    }
    if (building_beside)
        sync_end_beside(&r, &bs);
    if (opts->compact && r.ix && !opts->dry_run && !r.fatal && jobs == 1 &&
        (out->records_added || out->records_updated || out->records_removed))
        sync_compact_beside(&r, db);
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
    out->seconds = sync_now() - start;
    return rc;
}
