/*
 * shim.h -- the C-only face of xapian_shim.cc, the one file that includes
 * <xapian.h>.
 *
 * Everything here is plain C: the C side (index.c) prepares folded keys and
 * the stored JSON, and the shim turns them into Xapian terms, values and
 * queries following the layout described at the top of xapian_shim.cc.  No
 * C++ exception leaves the shim: every function catches everything and
 * reports a pdx_error code plus a message in a shim_err.
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
#define SHIM_NOSYNC 4u /* Xapian::DB_NO_SYNC */
#define SHIM_UPGRADE 8u /* an older layout too, only to hold its lock */

/* Open the Xapian database at path.  Refuses (PDX_ENOTINDEX) a directory
 * that holds something other than a paperdex index.  *out is owned by the
 * caller (shim_close). */
int shim_open(shim_db **out, const char *path, unsigned mode, shim_err *e);
/* Search the index at path (a directory, or tcp://HOST:PORT served by
 * xapian-tcpsrv) together with those already in the read-only h: one
 * Xapian database of several, with global BM25 statistics. */
int shim_add_shard(shim_db *h, const char *path, shim_err *e);
/* Compact what h reads (one index or its shards) into the new dest. */
int shim_compact(shim_db *h, const char *dest, shim_err *e);
/* The layout version of what h opened. */
int shim_layout(const shim_db *h);
/* Close; a writer's pending changes are committed (errors dropped). */
void shim_close(shim_db *db);

/* One author's matching keys (see text_name_keys).  Empty strings mean
 * "no such key". */
typedef struct shim_author {
    const char *name;    /* display name, indexed as free text */
    const char *family;  /* folded family name                 */
    const char *initial; /* "family i"                         */
    const char *full;    /* "family given"                     */
} shim_author;

typedef struct shim_doc {
    const char *id;
    const char *title;      /* NULL when absent or derived */
    const char *abstract;   /* may be NULL                 */
    const shim_author *authors;
    size_t n_authors;
    const char *const *cat_keys; /* folded category keys, archives too */
    size_t n_cat_keys;
    int year;               /* 0 = unknown                 */
    const char *date_key;   /* "YYYYMMDD" with 00 for unknown parts, or "" */
    const char *data;       /* stored record (JSON)        */
    size_t data_len;
    const char *const *categories; /* as written, for facets */
    size_t n_categories;
    const char *const *terms; /* more boolean terms, prefix included
                                 (merge keys); over-long ones are left out */
    size_t n_terms;
    const char *const *delete_ids; /* works this one absorbs: deleted first */
    size_t n_delete_ids;
    int fresh; /* no document has Q<id> (the caller looked): add, don't
                  replace -- replace_document() would search for it */
} shim_doc;


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

int shim_put(shim_db *db, const shim_doc *d, shim_err *e);
/* Every term starting with prefix that more than one work holds. */
int shim_shared_terms(shim_db *db, const char *prefix, shim_data_fn fn,
                      void *ctx, shim_err *e);
int shim_delete(shim_db *db, const char *id, shim_err *e);

/* Metadata keys written by index.c and read here (see the layout). */
#define SHIM_META_REINDEXED "paperdex.reindexed"
#define SHIM_META_SOURCE "paperdex.src:"

/* Metadata (paperdex.* keys; see the layout).  get: PDX_ENOTFOUND when
 * absent (no message).  list: every non-empty value whose key starts with
 * prefix, in key order.  set "" deletes. */
int shim_meta_set(shim_db *db, const char *key, const char *value,
                  shim_err *e);
int shim_meta_get(shim_db *db, const char *key, shim_data_fn fn, void *ctx,
                  shim_err *e);
int shim_meta_list(shim_db *db, const char *prefix, shim_data_fn fn,
                   void *ctx, shim_err *e);
/* Delete every work, and every metadata key starting with meta_prefix. */
int shim_clear(shim_db *db, const char *meta_prefix, shim_err *e);
int shim_commit(shim_db *db, shim_err *e);

/* Kinds of author filter key. */
enum { SHIM_AUTHOR_FAMILY, SHIM_AUTHOR_INITIAL, SHIM_AUTHOR_FULL };
typedef struct shim_author_key {
    int kind;
    const char *key;
} shim_author_key;

enum { SHIM_SORT_RELEVANCE, SHIM_SORT_NEWEST, SHIM_SORT_OLDEST };

typedef struct shim_query {
    const char *text;        /* "" for a filter-only query */
    int year_min, year_max;  /* 0 = open */
    const char *const *cat_keys; /* OR */
    size_t n_cat_keys;
    const shim_author_key *author_keys; /* OR */
    size_t n_author_keys;
    double k1, b;
    size_t offset, limit;
    int sort;
    int exact_total;
    unsigned facets;         /* SHIM_FACET_* bits: count over all matches */
    size_t facet_limit;      /* top values per facet                    */
    int explain;             /* nonzero: each hit's score, term by term */
    int suggest;             /* nonzero: offer a spelling correction    */
    size_t snippet_bytes;    /* 0: no snippets; else about this long, the
                                matched words between SHIM_HI_START and
                                SHIM_HI_END bytes */
    int lenient;             /* unparsable text is read as plain words  */
    size_t expand_docs;      /* 0: no feedback; else RM3-style, see
                                pdx_query */
    size_t expand_terms;
    double expand_weight;
    double title_weight, author_weight; /* field boosts; 0 = none */
} shim_query;

#define SHIM_HI_START '\x01'
#define SHIM_HI_END '\x02'
#define SHIM_OMIT "\xE2\x80\xA6" /* ... */

/* Called once per hit, in rank order, after the match has succeeded.
 * Returns 0, or nonzero to abort with PDX_ENOMEM. */
typedef int (*shim_hit_fn)(void *ctx, double score, const char *data,
                           size_t len, const char *snippet,
                           const char *explain);

enum { SHIM_FACET_YEAR = 1, SHIM_FACET_CATEGORY = 2, SHIM_FACET_AUTHOR = 4 };

/* Called for each facet value kept, most frequent first (ties by value),
 * after the hits.  0 to go on, nonzero for PDX_ENOMEM. */
typedef int (*shim_facet_fn)(void *ctx, unsigned facet, const char *value,
                             uint64_t count);

typedef struct shim_totals {
    size_t estimated, lower, upper;
    char suggestion[4200]; /* the query with misspelt words corrected, or "" */
} shim_totals;

/* Implemented by index.c, called by the shim's `category:` field: the
 * filter key of a category as a user writes it.  0, or -1 if none. */
int shim_category_key(const char *value, char *out, size_t n);

int shim_search(shim_totals *totals, shim_db *db, const shim_query *q,
                shim_hit_fn fn, shim_facet_fn facet_fn, void *ctx,
                shim_err *e);

/* Works like the one with unique term Q<id>: the best `n_terms` terms of
 * its title and abstract by Xapian's expand set (relevance feedback), run
 * as a BM25 query; the work itself is left out.  PDX_ENOTFOUND when no
 * work has that id. */
int shim_similar(shim_totals *totals, shim_db *db, const char *id,
                 size_t n_terms, double k1, double b, size_t limit,
                 shim_hit_fn fn, void *ctx, shim_err *e);

typedef struct shim_stats {
    uint64_t docs, terms, postings;
    double avg_length;
    int64_t last_updated;
    int layout;
    int64_t last_reindex;
    uint64_t sources;
} shim_stats;

int shim_stats_get(shim_stats *out, shim_db *db, shim_err *e);

#ifdef __cplusplus
}
#endif

#endif
