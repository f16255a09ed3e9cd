/*
 * sync_run.h -- what the files of pdx_sync() share, private to indexer/:
 * the state of one run (struct run) and of the workers of a run with
 * several jobs, and the functions each file offers the others.  The
 * files are the steps of a run, described in sync.c:
 *
 *   sync.c         pdx_sync itself: options and the order of the steps;
 *   sync_run.c     what every step shares: reports (emit, fail),
 *                  commits, opening the index;
 *   sync_list.c    listing the sources named, and hashing a file;
 *   sync_diff.c    one source read and compared record by record with
 *                  what the index holds of it; sources gone;
 *   sync_beside.c  a rebuild in a work directory beside the index, the
 *                  swap, compaction after an update, orphans of a crash;
 *   sync_jobs.c    several jobs: the worker threads, how they share the
 *                  sources, and the merge of their shards.
 */
#ifndef PDX_SYNC_RUN_H
#define PDX_SYNC_RUN_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/paperdex.h"
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

/* The records of one source that could not be read as written
 * (reader_skip_damages): how many, and the first one's line and reason;
 * and the records that stand in the place of an earlier record of the
 * file (one citation key, id or DOI twice): how many, the first's line. */
typedef struct damage {
    uint64_t n, line;
    char why[512];
    uint64_t twice, twice_line;
} damage;

/* full on an index that holds something: the new index is built from the
 * sources in a work directory beside db, by the same steps as any run,
 * and exchanged for the old one (sync_swap_in) only when it is whole.  Until
 * then the old index stays locked and untouched, so searches see it whole
 * throughout, and a run that fails or is killed leaves it as it was.
 * in_place ends the build at once: an empty index is swapped in and the
 * old one deleted, so the rebuild needs no room for two copies.
 * Exchanging directories is one step and costs nothing, where deleting
 * every document (write_clear) costs more time than the rebuild and holds
 * every removed posting in memory until the commit (10,000 arXiv works:
 * 25 s and 0.8 GB). */
typedef struct beside {
    char db[PATH_MAX], tmp[PATH_MAX + 32], fresh[PATH_MAX + 64],
        old[PATH_MAX + 64];
    pdx_index *old_ix;
} beside;

/* sync_run.c */
int sync_commit(run *r);
void sync_emit(run *r, const pdx_sync_event *ev);
void sync_emit_msg(run *r, pdx_sync_kind kind, const char *path,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void sync_emit_path(run *r, pdx_sync_kind kind, const char *path);
void sync_fail(run *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
double sync_now(void);
int sync_open_index(run *r, const char *db, double wait);
void sync_source_failed(run *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* sync_list.c */
int sync_add_file(run *r, const char *path);
int sync_cmp_str(const void *a, const void *b);
int sync_hash_file(const char *path, uint64_t *out);
int sync_in_kept_place(const run *r, const char *path);
int sync_is_listed(const run *r, const char *path);
int sync_keep_place(run *r, const char *path);
char *sync_normalize(const char *p);
int sync_under_roots(const run *r, const char *path);
void sync_walk(run *r, const char *dir);

/* sync_diff.c */
void sync_pl_free(placeline *m);
int sync_put_received(run *r, int all);
uint64_t sync_read_source(run *r, size_t fi, const char *path, placeset *seen, damage *dmg);
void sync_remove_vanished(run *r);
void sync_update_source(run *r, size_t fi);

/* sync_beside.c */
int sync_begin_beside(run *r, const char *db_arg, beside *b);
void sync_compact_beside(run *r, const char *db_arg);
void sync_end_beside(run *r, beside *b);
int sync_make_work_dir(const char *db_arg, const char *kind, char db[PATH_MAX], char tmp[PATH_MAX + 32]);
void sync_remove_orphans(run *r, const char *db_arg);
int sync_swap_in(run *r, const char *db, const char *built, const char *old);
void sync_work_dir_failed(run *r, const char *tmp, const char *kind);

/* sync_jobs.c */
void sync_run_jobs(run *r, const char *db_arg, unsigned n);

#endif
