/*
 * shim.h -- the C-only face of the C++ shim: the common part, which
 * common/shim.cc (the handle, errors), shim_lookup.cc (metadata reads,
 * lookups by key) and fatal.cc (the terminate handler) implement.  The
 * write side adds indexer/shim_write.h, the read side
 * searcher/shim_read.h.  Only C++ files include <xapian.h>: the shim's
 * (common/shim.cc, shim_lookup.cc, fatal.cc, indexer/shim_write.cc,
 * searcher/shim_read.cc) and the
 * parts they use (common/positions.cc, record_store.cc,
 * indexer/text_terms.cc, searcher/bm25.cc); no C file does.
 *
 * Everything here is plain C: the C side prepares folded keys and the
 * stored JSON, and the shim turns them into Xapian terms, values and
 * queries following the layout described in layout.h.  No C++ exception
 * leaves the shim: every function catches everything and reports a
 * pdx_error code plus a message in a shim_err.
 */
#ifndef PDX_SHIM_H
#define PDX_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called once per stored value found; 0 to go on, nonzero to stop with
 * PDX_ENOMEM. */
typedef int (*shim_data_fn)(void *ctx, const char *data, size_t len);

typedef struct shim_err {
    int code;        /* a pdx_error code, 0 if none */
    char msg[1024];  /* human-readable, "" if none  */
} shim_err;

typedef struct shim_db shim_db;

#define SHIM_WRITE 1u
#define SHIM_CREATE 2u
#define SHIM_NOSYNC 4u /* Xapian::DB_NO_SYNC | DB_DANGEROUS (shim.cc) */
#define SHIM_UPGRADE 8u /* an older layout too, only to hold its lock */
#define SHIM_BUILDER 16u /* documents built on a thread of the writer's own */
#define SHIM_XAPIAN_POSITIONS 32u /* a new index keeps Xapian's positions */

/* Open the Xapian database at path.  Refuses (PDX_ENOTINDEX) a directory
 * that holds something other than a paperdex index.  *out is owned by the
 * caller (shim_close). */
int shim_open(shim_db **out, const char *path, unsigned mode, shim_err *e);
/* Search the index at path (a directory, or tcp://HOST:PORT served by
 * xapian-tcpsrv) together with those already in the read-only h: one
 * Xapian database of several, with global BM25 statistics. */
int shim_add_shard(shim_db *h, const char *path, shim_err *e);
/* The layout version of what h opened. */
int shim_layout(const shim_db *h);
/* The name rules the index was built with (LAYOUT_META_NAMES; 1 when it
 * says none: built before they were recorded). */
int shim_name_rules(const shim_db *h);
/* Where a writer puts positions: 0 in the positions value; 1 in Xapian's
 * position table, as the index was made (SHIM_XAPIAN_POSITIONS), which a
 * rebuild keeps; 2 in Xapian's table because the index was of an older
 * layout (LAYOUT_POSITIONS_INHERITED), which a rebuild does not keep. */
int shim_xapian_positions(const shim_db *h);
/* Close; a writer's pending changes are committed (errors dropped). */
void shim_close(shim_db *db);

/* Every work holding at least one of the terms, each once, in docid
 * order.  A writer sees its own uncommitted changes. */
int shim_lookup(shim_db *db, const char *const *terms, size_t n,
                shim_data_fn fn, void *ctx, shim_err *e);

/* A lookup key that finds a work only if the work holds none of the
 * `not` terms (Xapian: key AND_NOT (not[0] OR ...)). */
typedef struct shim_pruned {
    const char *key;
    const char *const *not_terms;
    size_t n_not;
} shim_pruned;

/* As shim_lookup, over the plain terms and the pruned keys together. */
int shim_lookup_pruned(shim_db *db, const char *const *terms, size_t n,
                       const shim_pruned *p, size_t np, shim_data_fn fn,
                       void *ctx, shim_err *e);

/* Every term starting with prefix that at least min_works works hold, in
 * term order (a writer's pending changes included). */
int shim_terms(shim_db *db, const char *prefix, unsigned min_works,
               shim_data_fn fn, void *ctx, shim_err *e);

/* How many works hold term (0 for none, or a term over Xapian's limit):
 * *out.  A writer answers from its pending changes as they are. */
int shim_termfreq(shim_db *db, const char *term, uint64_t *out, shim_err *e);

/* Metadata (paperdex.* keys; see layout.h).  get: PDX_ENOTFOUND when
 * absent (no message).  list: every non-empty value whose key starts with
 * prefix, in key order. */
int shim_meta_get(shim_db *db, const char *key, shim_data_fn fn, void *ctx,
                  shim_err *e);
int shim_meta_list(shim_db *db, const char *prefix, shim_data_fn fn,
                   void *ctx, shim_err *e);
/* How many works the index holds (its documents but tombstones): two
 * counts Xapian keeps, no walk. */
int shim_count_works(uint64_t *out, shim_db *db, shim_err *e);

/* rm -rf of a directory paperdex made (a rebuild's work directory). */
void shim_remove_tree(const char *dir);

/* The work directory a rebuild is being made in (DB.full-PID,
 * DB.jobs-PID), or NULL when none: if Xapian's failure ends the process
 * meanwhile (pdx_exit_on_fatal), the directory is removed and the message
 * says the rebuild failed and the index is as it was.  Copied;
 * process-wide, as the end it prepares for. */
void shim_fatal_work_dir(const char *dir);

#ifdef __cplusplus
}
#endif

#endif
