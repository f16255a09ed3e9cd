/*
 * shim_read.h -- the read side of the shim (searcher/shim_read.cc):
 * search, similar works, statistics.  Plain C, for searcher/search.c;
 * the common part is common/shim.h.
 */
#ifndef PDX_SHIM_READ_H
#define PDX_SHIM_READ_H

#include "../common/paperdex.h"
#include "../common/shim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of author filter key: a folded family name (XAL), "family i"
 * (every XAF it begins), "family given" (XAF).  `initials`, when not
 * NULL, are the filter's two or more initials ("mh"), which the works'
 * author names are checked against (searcher/author_keys.c).
 * `strict_if`: for the first given name's key of a name written with two
 * given names apart ("Ming Hsuan Yang": "yang ming"), the key of the two
 * joined ("yang minghsuan"), as the index keys "Ming-Hsuan"; while the
 * index holds it, an author with full given names answers the key only
 * when their initials open with `initials` ("Ming-Hsuan", "Ming H.", not
 * "Ming": another person), and shim_author_keys_held clears it, and
 * the initials, where it does not ("Yann André LeCun" finds Yann
 * LeCun). */
enum { SHIM_AUTHOR_FAMILY, SHIM_AUTHOR_INITIAL, SHIM_AUTHOR_FULL };
typedef struct shim_author_key {
    int kind;
    const char *key;
    const char *initials;
    unsigned group;  /* which filter value it came from (filters_all) */
    const char *strict_if;
} shim_author_key;

/* keys[0..n)'s strict_if cleared where the index h does not hold it
 * (see above).  0, or an error code with e set. */
int shim_author_keys_held(shim_db *h, shim_author_key *keys, size_t n,
                          shim_err *e);

/* The author: values of one query, as written (the first few). */
#define SHIM_QUERY_AUTHORS 4

enum { SHIM_SORT_RELEVANCE, SHIM_SORT_NEWEST, SHIM_SORT_OLDEST };

/* pdx_query.count_limit's default (PDX_DEFAULT_COUNT_LIMIT). */
#define SHIM_DEFAULT_COUNT_LIMIT 10000
/* The longest a count may take past the ranking match, in seconds. */
#define SHIM_COUNT_SECONDS 1.0

typedef struct shim_query {
    const char *text;        /* "" for a filter-only query */
    int year_min, year_max;  /* 0 = open */
    /* Filter keys: alternatives (OR), or with filters_all one group of
     * alternatives for each value given (the keys' group numbers), every
     * group holding (AND). */
    const char *const *cat_keys;
    const unsigned *cat_groups;
    size_t n_cat_keys;
    const shim_author_key *author_keys;
    size_t n_author_keys;
    const char *const *author_names; /* the author filters as given, by
                                        group ("A|B": alternatives); for
                                        the note on a filter no work
                                        passes */
    size_t n_author_names;
    const char *const *subject_keys; /* folded (text_fold) */
    const unsigned *subject_groups;
    size_t n_subject_keys;
    const char *const *subject_names; /* the subject filters as given, by
                                         group: for the notes */
    size_t n_subject_names;
    int filters_all;
    double k1, b;
    size_t offset, limit;
    int sort;
    int exact_total;         /* count every match                       */
    size_t count_limit;      /* else count exactly up to this many      */
    unsigned facets;         /* SHIM_FACET_* bits: count over all matches */
    size_t facet_limit;      /* top values per facet                    */
    int explain;             /* nonzero: each hit's score, term by term */
    int suggest;             /* nonzero: offer a spelling correction    */
    size_t snippet_bytes;    /* 0: no snippets; else about this long, the
                                matched words between SHIM_HI_START and
                                SHIM_HI_END bytes */
    int lenient;             /* unparsable text is read as plain words  */
    int words;               /* the text is read as plain words         */
    size_t expand_docs;      /* 0: no feedback; else pseudo-relevance
                                feedback with Xapian's Bo1 scheme, see
                                pdx_query */
    size_t expand_terms;
    double expand_weight;
    double title_weight, author_weight; /* field boosts; 0 = none */
    double proximity_weight; /* the proximity bonus (proximity.cc); 0 = none */
    unsigned proximity_window;
    double time_limit;       /* seconds for the match; 0 = none        */
} shim_query;

#define SHIM_HI_START '\x01'
#define SHIM_HI_END '\x02'
#define SHIM_OMIT "\xE2\x80\xA6" /* ... */

/* Called once per hit, in rank order, after the match has succeeded,
 * with the stored record (data, len) and the hit's explanation (or NULL).
 * The callee decodes the record -- the one time it is decoded -- and sets
 * *abstract and *title (each may be NULL to pass) to its abstract and
 * title (or NULL), borrowed until the next call: the shim makes the hit's
 * snippet and marks its title from them and hands them over with
 * snip_fn.  Returns 0, or nonzero to abort with PDX_ENOMEM. */
typedef int (*shim_hit_fn)(void *ctx, double score, const char *data,
                           size_t len, const char *explain,
                           const char **abstract, const char **title);
/* The snippet of the hit just given and its whole title, their matched
 * words between SHIM_HI_START and SHIM_HI_END; only with snippet_bytes
 * and text.  0, or nonzero for PDX_ENOMEM. */
typedef int (*shim_snippet_fn)(void *ctx, const char *marked,
                               const char *title_marked);

enum { SHIM_FACET_YEAR = 1, SHIM_FACET_CATEGORY = 2, SHIM_FACET_AUTHOR = 4,
       SHIM_FACET_SUBJECT = 8, SHIM_N_FACETS = 4 };

/* Called for each facet value kept, most frequent first (ties by value),
 * after the hits.  0 to go on, nonzero for PDX_ENOMEM. */
typedef int (*shim_facet_fn)(void *ctx, unsigned facet, const char *value,
                             uint64_t count);

typedef struct shim_totals {
    size_t estimated, lower, upper; /* Xapian's estimate and its bounds */
    size_t total;            /* exact, or a lower bound when gte        */
    int gte;                 /* the total is a lower bound              */
    char suggestion[PDX_MAX_QUERY_BYTES + 1024]; /* the query with misspelt
                                words corrected, or "" (also when longer) */
    char note[512]; /* how the query was searched, when not as written
                       (terms left out), or "" */
    char query_authors[SHIM_QUERY_AUTHORS][256]; /* its author: values */
    size_t n_query_authors;
} shim_totals;

/* The paths of the source files the index keeps fingerprints of (over
 * several databases, the first one's), each handed to fn, at most `most`
 * of them (0: all); *n_all (when not NULL) is how many there are.  The
 * list is kept on the handle while the index stays at one revision.  0,
 * or an error code with e set. */
int shim_source_paths(shim_db *db, size_t most, shim_data_fn fn, void *ctx,
                      size_t *n_all, shim_err *e);

int shim_search(shim_totals *totals, shim_db *db, const shim_query *q,
                shim_hit_fn fn, shim_snippet_fn snip_fn,
                shim_facet_fn facet_fn, void *ctx, shim_err *e);

/* The author name the index holds nearest to an author filter that
 * matched nothing: `family` and `given` are the filter's folded keys
 * (text_name_filter_keys; given "" for a family name alone, one letter
 * for an initial).  Written to out[0..n) as a work holding it writes it,
 * or "" when no name is within reach (suggest.cc says how near), or the
 * nearest is the name given.  *family_held (when not NULL) is set to
 * whether some author of the index has that family name, as it is, and
 * it is a name there more than a word (suggest.cc, NAME_SHARE);
 * *given_held (when not NULL) to whether `given`, written in full, is so
 * held as the name of some author ("Edward"), not a word ("Deep"). */
int shim_suggest_author(shim_db *db, const char *family, const char *given,
                        char *out, size_t n, int *family_held,
                        int *given_held, shim_err *e);

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
