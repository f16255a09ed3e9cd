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

#endif
