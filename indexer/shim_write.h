/*
 * shim_write.h -- the write side of the shim (indexer/shim_write.cc):
 * a work in, works out, metadata written, commits, compaction.  Plain C,
 * for indexer/write.c; the common part is common/shim.h.
 */
#ifndef PDX_SHIM_WRITE_H
#define PDX_SHIM_WRITE_H

#include "../common/shim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One author's matching keys (see text_name_keys).  Empty strings mean
 * "no such key". */
typedef struct shim_author {
    const char *name;    /* display name, indexed as free text */
    const char *family;  /* folded family name                 */
    const char *full;    /* "family given", "family i" when only
                            initials are known                 */
    const char *bare;    /* the family name without its opening
                            particles, or the last two words of
                            a name of three, or "" (name rules
                            3: name_keys' bare, family2)       */
    const char *full_bare; /* "bare given", or ""              */
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
    const char *const *subject_keys; /* folded subject keys (XK) */
    size_t n_subject_keys;
    const char *const *subjects; /* as written, for facets */
    size_t n_subjects;
    const char *const *terms; /* more boolean terms, prefix included
                                 (merge keys); over-long ones are left out */
    size_t n_terms;
    const char *const *delete_ids; /* works this one absorbs: deleted first */
    size_t n_delete_ids;
    int fresh; /* no document has Q<id> (the caller looked): add, don't
                  replace -- replace_document() would search for it */
} shim_doc;


/* Compact what h reads (one index or its shards) into the new dest. */
int shim_compact(shim_db *h, const char *dest, shim_err *e);

int shim_put(shim_db *db, const shim_doc *d, shim_err *e);
int shim_delete(shim_db *db, const char *id, shim_err *e);

/* Set a metadata key; "" deletes it. */
int shim_meta_set(shim_db *db, const char *key, const char *value,
                  shim_err *e);
/* Delete every work, and every metadata key starting with meta_prefix. */
int shim_clear(shim_db *db, const char *meta_prefix, shim_err *e);
int shim_commit(shim_db *db, shim_err *e);

#ifdef __cplusplus
}
#endif

#endif
