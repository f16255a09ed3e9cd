/*
 * write.h -- what the write side offers sync.c beyond the public API:
 * the record-level diff of a changed source (issue: a re-run costs what
 * changed in a file, not the whole file).  Each record of a file is
 * marked on the work that holds it by its record term (XR, see
 * merge_record_key in corpus/merge.h): its file, its place (its own id,
 * else its line) and a hash of its content.  Private to the library.
 */
#ifndef PDX_WRITE_H
#define PDX_WRITE_H

#include "../common/arena.h"
#include "../common/paperdex.h"

/* A growable list of malloc'd strings: terms collected from a walk, to
 * act on after it. */
typedef struct write_strlist {
    char **v;
    size_t n, cap;
} write_strlist;
/* Append a copy of s[0..n).  0, or -1 on out-of-memory. */
int write_strlist_add(write_strlist *l, const char *s, size_t n);
/* Free every string and the list's array; the list is empty again. */
void write_strlist_free(write_strlist *l);

typedef enum write_rec {
    WRITE_REC_NEW,       /* no record at this place of its file           */
    WRITE_REC_CHANGED,   /* one with other content: pdx_put replaces it   */
    WRITE_REC_UNCHANGED  /* exactly this record: nothing to do            */
} write_rec;

/* What the index holds of record w (w->source set), by its record term:
 * one termfreq, and for a record not held as it is, one prefix walk.
 * No document is read.  0 or a code (message on ix). */
int write_record_state(pdx_index *ix, const pdx_work *w, write_rec *state);

/* fn(ctx, term, len) for every record term of file `path` some work holds,
 * in term order; the place is the 16 hex digits after "XR" and the
 * file's 16.  A nonzero fn return stops with PDX_ENOMEM. */
int write_file_records(pdx_index *ix, const char *path,
                       int (*fn)(void *, const char *, size_t), void *ctx);

/* Take the record of `path` whose record term is `term` out of the work
 * holding it: the work is merged again from its other records, or
 * deleted.  *id (may be NULL) is the record's id, copied into out. */
int write_remove_record(pdx_index *ix, const char *path, const char *term,
                        arena *out, const char **id);

/* ---- the write side's own steps (the library's callers are sync*.c) */

/*
 * Merge again the works that share a merge key (arXiv id, DOI, a source's
 * id, folded title or abstract): after indexes built apart are compacted
 * into one (`paperdex index --jobs`), records of one work may sit in two
 * works.  Each such group is taken out and its records put back with
 * pdx_put(), which applies the usual rules.  Needs a writable handle;
 * durable with the next pdx_commit().  *regrouped (may be NULL) counts
 * the groups put back.
 */
int write_remerge(pdx_index *ix, size_t *regrouped);

/* Record that a reindex finished now (pdx_stats.last_reindex); durable
 *  with the next pdx_commit(). */
int write_mark_reindexed(pdx_index *ix);

/*
 * Make everything in the index directory `path` durable: fsync of each
 * file in it and of the directory.  For an index written with
 * PDX_OPEN_NOSYNC and closed, before it is renamed where readers look.
 * 0, or PDX_EIO (errno says why) or PDX_EINVAL for a NULL path.
 */
int write_sync_dir(const char *path);

/* Delete every work and every fingerprint.  Readers keep seeing the last
 *  commit until the next one.  Every posting of every work is removed in
 *  this one transaction, so time and memory grow with the index (10,000
 *  arXiv works: 25 s and 0.8 GB, more than building them); to rebuild a
 *  big index, build a new one beside it and exchange the directories, as
 *  `paperdex index --full` does. */
int write_clear(pdx_index *ix);

/* Take every record read from `path` out of the works it fed -- a work
 *  fed by other sources too keeps them and is merged again from them; a
 *  work fed only by `path` is deleted -- and forget its fingerprint.  A
 *  path never read is not an error. */
int write_source_remove(pdx_index *ix, const char *path);

#endif
