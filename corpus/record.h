/*
 * record.h -- what every source format shares once a record is decoded:
 * checking a pdx_work, deriving what a record lacks (a title from the
 * abstract, an id from the text, a year from the date), and the JSON codec
 * of paperdex's own schema, which is also the stored form of a work.
 *
 * Internal to libpaperdex.
 */
#ifndef PDX_RECORD_H
#define PDX_RECORD_H

#include <cjson/cJSON.h>

#include "../common/arena.h"
#include "../common/paperdex.h"

/* Longest derived title, in bytes (cut at a word boundary). */
#define RECORD_DERIVED_TITLE_MAX 160

/* A decoder's result: PDX_SKIP_NONE, or why the record is refused, with
 * the reason written to `why`. */

/* A list of strings gathered for one record (its authors, its
 * subjects), NUL-separated in one buffer.  At most RECORD_LIST_MAX: the
 * rest are dropped, so that one record's memory stays bounded. */
#define RECORD_LIST_MAX 10000
typedef struct record_list {
    strbuf b;
    size_t n;
} record_list;
#define RECORD_LIST_INIT {STRBUF_INIT, 0}
/* Add s[0..n) (an empty one is not added). */
void record_list_add(record_list *l, const char *s, size_t n);
void record_list_clear(record_list *l);
/* l's strings in a, each with its white space collapsed (text_collapse)
 * or, with tex, TeX decoded too (text_clean), the empty ones left out;
 * their count into *n.  NULL when there are none (or out of memory). */
const char *const *record_list_out(arena *a, const record_list *l, int tex,
                                   size_t *n);
/* b's text in a, collapsed (or TeX-cleaned, with tex); NULL when that
 * leaves nothing. */
const char *record_text(arena *a, const strbuf *b, int tex);

/* How the streamed readers (xmlrec.c, bibtex.c) get a file's bytes from
 * reader.c: fill buf with up to cap bytes, return the count, 0 at the
 * end, -1 when the stream broke (the reader has the message). */
typedef int (*record_read_fn)(void *ctx, char *buf, int cap);

/* Map an object of paperdex's own schema onto w (strings in a). */
pdx_skip jsonl_decode(arena *a, pdx_work *w, const cJSON *obj, strbuf *why);
/* Map an arXiv metadata snapshot object onto w. */
pdx_skip arxiv_decode(arena *a, pdx_work *w, const cJSON *obj, strbuf *why);
/* OpenAlex (openalex.c): 1 if obj looks like an OpenAlex work; decode
 * it; the merged_ids CSV's header line, and one of its lines as a
 * withdrawal of the merged id. */
int openalex_looks_like(const cJSON *obj);
pdx_skip openalex_decode(arena *a, pdx_work *w, const cJSON *obj,
                         strbuf *why);
int openalex_merged_header(const char *s, size_t n);
pdx_skip openalex_merged_decode(arena *a, pdx_work *w, const char *line,
                                size_t n, strbuf *why);

/* An arXiv version date, "Mon, 2 Apr 2007 19:18:42 GMT", as "YYYY-MM-DD"
 * in out; 0, or -1 when it is not one. */
int arxiv_version_date(const char *s, char out[32]);
/* 1 if obj has keys of the arXiv snapshot schema (an OpenAlex work has
 * "versions" too: ask openalex_looks_like first). */
int arxiv_looks_like(const cJSON *obj);

/* How a decoded string is cleaned (text_clean, text_collapse, or not at
 * all for stored records, which were cleaned when indexed). */
enum { REC_AS_IS, REC_COLLAPSE, REC_TEX };

/* A string field, cleaned per `mode`.  Returns 0 and sets *out (NULL if
 * absent, null or blank), or -1 with the reason in why. */
int rec_string(arena *a, const cJSON *obj, const char *key, int mode,
               const char **out, strbuf *why);

/* A list given as a JSON array of strings, or as one string split on white
 * space and commas -- or, when `authors` is 1, on commas, semicolons and
 * " and ", with parenthesised affiliations dropped; when it is
 * REC_LIST_SEMICOLONS, on semicolons alone (subjects: "Drug Therapy;
 * Humans"). */
#define REC_LIST_SEMICOLONS 2
int rec_list(arena *a, const cJSON *obj, const char *key, int authors,
             int mode, const char *const **out, size_t *count, strbuf *why);

/* Complete a decoded record: derive a missing title from the abstract
 * (marked title_derived), a missing id from the title or abstract, a
 * missing year from the date; then check it.  Refuses a record with
 * neither title nor abstract (PDX_SKIP_EMPTY). */
pdx_skip record_finish(arena *a, pdx_work *w, strbuf *why);

/* Check a work handed to pdx_put(): version, UTF-8 everywhere, id length
 * and characters, a title or abstract, year and date syntax.
 * PDX_SKIP_NONE (0) if fine, else the kind of fault (PDX_SKIP_UTF8 for
 * text that is not UTF-8, PDX_SKIP_ID for the id, PDX_SKIP_EMPTY,
 * PDX_SKIP_FIELD for the rest) with the reason in why. */
pdx_skip record_check(const pdx_work *w, strbuf *why);

/* A DOI field as people and tools write it ("doi:10.x/y",
 * "https://doi.org/10.x/y", "http://dx.doi.org/...", two DOIs in one
 * field separated by a space, a comma or a semicolon) in one spelling:
 * each DOI without its prefix, separated by one space (in a); NULL when
 * it holds no DOI.  record_finish applies it to every reader's DOI. */
const char *record_doi_normalize(arena *a, const char *doi);

/* The DOIs of a normalised DOI field, each in a, at most max of them;
 * their number. */
size_t record_dois(arena *a, const char *dois, const char *out[], size_t max);

/* The arXiv id named by the DOI arXiv gives its preprints (10.48550/
 * arXiv.2103.00823, any case) among the n bytes of doi: its bytes in
 * *len, or NULL for another DOI. */
const char *record_arxiv_doi(const char *doi, size_t n, size_t *len);

/* A PubMed id: 1 to 12 digits? */
int record_pmid_valid(const char *s);

/* "YYYY", "YYYY-MM" or "YYYY-MM-DD" with a real month and day? */
int record_date_valid(const char *d);
/* The month of "Mar", "march" or "03": 1 to 12, else 0 (NULL too). */
int record_month_number(const char *m);
/* A date as MEDLINE writes it where it has no parts (MedlineDate, and
 * the DP field of its text format): "2019 Mar 15", "1998 Dec-1999 Jan",
 * "2000 Spring", "1999-2000": the first year, the month right after it
 * and that month's day, as "YYYY[-MM[-DD]]" into out; "" without a
 * year. */
void record_medline_date(const char *s, char out[16]);
/* Year, month (a name or a number) and day as "YYYY[-MM[-DD]]" into
 * out, each part kept only when it and those before it are valid; ""
 * without a four-digit year.  month and day may be NULL. */
void record_ymd(const char *y, const char *month, const char *day,
                char out[16]);
/* Write the "YYYYMMDD" sort key of a valid date ("" if d is NULL). */
void record_date_key(const char *d, char out[9]);

/* The same as a cJSON object, owned by the caller; NULL on OOM. */
cJSON *record_to_cjson(const pdx_work *w);

/* *dst as a copy of *src whose every string and list is in a, so that
 * it outlives whatever src's were in (a reader's next record).  0, or
 * -1 on out-of-memory (dst then partly copied: drop it). */
int record_copy(arena *a, pdx_work *dst, const pdx_work *src);

/* Read a stored JSON record back into w (strings in a); 0 or -1. */
int record_from_json(arena *a, pdx_work *w, const char *json, size_t len);
/* The same from a parsed object (borrowed). */
int record_from_cjson(arena *a, pdx_work *w, const cJSON *obj);

#endif
