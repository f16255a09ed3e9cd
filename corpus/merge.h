/*
 * merge.h -- one work from many records (merge.c).  The same paper reaches
 * paperdex from several sources (an arXiv snapshot, a JSONL file, profile
 * pages), each with part of its metadata; the index keeps one document per
 * work, holding every source's record, and shows their merge.
 *
 * Internal to libpaperdex.
 */
#ifndef PDX_MERGE_H
#define PDX_MERGE_H

#include "record.h"

/* One source's record of a work.  `file` is NULL for a record the caller
 * built (pdx_put without a source). */
typedef struct merge_src {
    pdx_work rec;
    int set_aside; /* set by merge_view: a later version or a withdrawal
                      sets this record aside (see merge.c) */
} merge_src;

/* A stored work: its merged view and its sources, in (file, place)
 * order (see merge_same_source). */
typedef struct merge_work {
    pdx_work view;
    merge_src *src;
    size_t n_src;
} merge_work;

/* The terms a record is found by when a later record of the same work
 * arrives (prefix XM, see common/layout.h), plus XI<id> for an id the
 * source gave and XS<source position>.  Up to MERGE_MAX_KEYS, allocated in a.  (Not
 * XP<file>: every record of a file shares it, so looking it up for each
 * record would be quadratic.) */
#define MERGE_MAX_KEYS 12
/* The DOIs of one record that are merge keys (a field may hold several:
 * record_doi_normalize); the rest are kept, not keyed. */
#define MERGE_MAX_DOIS 4
size_t merge_keys(arena *a, const pdx_work *w, const char *keys[]);

/* For key XMA<x> or XI<x>: x, inside key; NULL for another key. */
const char *merge_stood_for(const char *key);
/* The term that stands for key XMA<x> or XI<x> in the work whose id is
 * x: Q<x> (allocated in a); NULL for another key, or out of memory. */
char *merge_stand_in(arena *a, const char *key);

/* The keys of source record w that the document of the work whose id is
 * work_id holds: merge_keys() but XMA<work_id> and XI<work_id>, for which
 * Q<work_id> stands (merge_lookup_of and merge_id_keys look Q<x> up
 * beside XMA<x> and XI<x>).  Layout 5: an arXiv record's work holds its
 * id once, not three times (a work with an arXiv id has it as its id). */
size_t merge_stored_keys(arena *a, const pdx_work *w, const char *work_id,
                         const char *keys[]);

/* The class terms of work m (XMCa, XMCd, XMCi, XMCt; see the layout in
 * common/layout.h): static strings, up to MERGE_MAX_CLASS. */
#define MERGE_MAX_CLASS 4
size_t merge_class_terms(const merge_work *m, const char *out[]);

/* How record r finds the works it may belong to: plain[] holds every key
 * of merge_keys() but the title and abstract keys, which come apart with
 * the class terms that exclude a work from each (see merge_matches: a
 * work holding one of them is decided by an earlier rule, and found by
 * that rule's key when it matches), and Q<x> beside each XMA<x> and XI<x>
 * (merge_stand_in; they fit, as the title and abstract keys and XS are
 * not among the plain ones).  Keys allocated in a; 0 or -1. */
typedef struct merge_lookup {
    const char *plain[MERGE_MAX_KEYS];
    size_t n_plain;
    const char *title, *abstract; /* NULL when r has none */
    const char *title_not[3], *abstract_not[4];
    size_t n_title_not, n_abstract_not;
} merge_lookup;
int merge_lookup_of(arena *a, const pdx_work *r, merge_lookup *l);

/* The terms a work known by `id` is found by, whichever id it goes by
 * and however it is written (merge_id_form): Q<id> (its own), XMA (an
 * arXiv id), XMD (a DOI), XMP (a PMID), XMO (an OpenAlex id), XI<id>
 * (an id a source gave), and Q<arXiv id without its version>.  Up to MERGE_MAX_KEYS + 1,
 * allocated in a; 0 on out-of-memory.  What pdx_get and pdx_delete look
 * a work up by. */
size_t merge_id_keys(arena *a, const char *id, const char *keys[]);

/* The term (XS<16 hex>) that places a record whose key in its file is
 * `key` (a BibTeX citation key, a RIS ID) in the source file `source`,
 * as the writer placed it (merge_keys): how a work is found by a key,
 * which names a record only within its file.  Allocated in a; NULL out
 * of memory. */
char *merge_place_term(arena *a, const char *source, const char *key);

/* What an id as people paste it names (trimmed, a trailing '/' and
 * ".pdf" dropped; the schemes ignore case; an address of the hosts below
 * may come without its https://):
 *   arXiv    2103.00823, 2103.00823v2, arXiv:2103.00823, hep-th/9901001,
 *            https://arxiv.org/abs/..., .../pdf/....pdf, .../html/...,
 *            "arXiv:2103.00823 [cs.CV]", "arXiv: 2103.00823",
 *            "arXiv preprint arXiv:2103.00823" (Scholar's reference),
 *            "CoRR abs/2103.00823" (DBLP's), huggingface.co/papers/...,
 *            alphaxiv.org/abs/...
 *   DOI      10.1234/x, doi:10.1234/x, doi: 10.1234/x, https://doi.org/...,
 *            dx.doi.org
 *            (arXiv's, 10.48550/arXiv.ID, names ID's work too:
 *            merge_id_keys, record_arxiv_doi)
 *   PMID     PMID:123, PMID: 123, pmid 123, pubmed.ncbi.nlm.nih.gov/123,
 *            ncbi.nlm.nih.gov/pubmed/123
 *   PMCID    PMC123, PMCID:PMC123, the PMC article URLs
 *   OpenAlex W123, https://openalex.org/W123
 * each also wrapped in (), [] or <> and followed by '.', ',' or ';', as a
 * sentence or a reference leaves it ("(arXiv:2103.00823).").
 * *value (in a, or inside id) is the id without its wrapping (a DOI as
 * record_doi_normalize writes it); MERGE_ID_NONE for anything else (a
 * paperdex id, a BibTeX key), *value NULL. */
typedef enum merge_id_kind {
    MERGE_ID_NONE = 0,
    MERGE_ID_ARXIV,
    MERGE_ID_DOI,
    MERGE_ID_PMID,
    MERGE_ID_PMCID,
    MERGE_ID_OPENALEX
} merge_id_kind;
merge_id_kind merge_id_form(arena *a, const char *id, const char **value);

/* The n bytes at *s without what a sentence or a reference leaves around
 * an id: a trailing '.', ',' or ';', and an outer pair of (), [] or <>
 * ("(arXiv:2103.00823)." is arXiv:2103.00823), as merge_id_form reads
 * it.  Returns the length kept; *s is moved past an opening bracket. */
size_t merge_id_unwrapped(const char **s, size_t n);

/* XP<16 hex>: the term of every work with a record from `file`. */
char *merge_file_key(arena *a, const char *file);

/* 1 if record r is a record of work m: the arXiv ids decide when both
 * have one, else the DOIs, else the ids of the sources' own (r's against
 * every source's), else the folded titles (real titles only), else the
 * folded abstracts. */
int merge_matches(arena *a, const pdx_work *r, const merge_work *m);

/* 1 if two records come from the same place in the same file: the same
 * identity when they have one -- their own id, else their arXiv id, else
 * their DOI; a record that moves to another line is still itself -- else
 * the same line.  Records without a source never do. */
int merge_same_source(const pdx_work *x, const pdx_work *y);

/* 1 if record w is placed in its file by its identity (its own id, arXiv
 * id or DOI), else 0: by its line. */
int merge_has_own_place(const pdx_work *w);

/* A hash of record w's place in its file: its identity, else its line. */
unsigned long long merge_place_hash(const pdx_work *w);

/* Which worker a record goes to when several build one index (`paperdex
 * index --jobs`): a hash that records of one work share as often as can
 * be, so that they meet in one worker and merge there as in one pass,
 * instead of being merged again after (write_remerge, a few ms a work).
 * Records of one work from different sources nearly always share the
 * folded title (rule 4's key) while their ids differ in kind (an arXiv
 * id, a DOI, an OpenAlex id): the folded real title, else the folded
 * abstract, else the record's place.  Records of one work whose titles
 * differ (a withdrawal has none) may still land apart. */
unsigned long long merge_route_hash(const pdx_work *w);

/* A hash of record w's content: every field but its id and where it was
 * read.  What tells a re-read record unchanged. */
unsigned long long merge_content_hash(const pdx_work *w);

/* XR<file 16 hex><place 16 hex><content 16 hex>: one term per record of a
 * file, on the work that holds it (w->source set).  A re-run finds a
 * record unchanged when some work holds its term, and the records gone
 * from a file among the terms under merge_record_prefix(file, NULL).
 * Allocated in a. */
char *merge_record_key(arena *a, const pdx_work *w);
/* XR<file 16 hex>, and with w, its place's 16 hex: the prefix of the
 * record terms of a file, or of one record whatever its content. */
char *merge_record_prefix(arena *a, const char *file, const pdx_work *w);

/* Compute m->view from m->src (sorted here): the fullest value of each
 * field; see merge.c.  0, or -1 with the reason in why. */
int merge_view(arena *a, merge_work *m, strbuf *why);

/* The stored JSON of m (its view computed by merge_view): the view's
 * fields, plus "sources": [{"file",
 * "line"[, "id"][, "set_aside"][, "record"]}] ("set_aside": true for a
 * record a later version or a withdrawal sets aside; "line" only for a
 * record without an id of
 * its own, which its line places; the record is kept only when there are
 * several sources; a single source's record is the view, under the id in
 * "id" when the source gave another).  malloc'd. */
char *merge_to_json(const merge_work *m);

/* Read a stored work back (strings in a).  0 or -1. */
int merge_from_json(arena *a, merge_work *m, const char *json, size_t len);

#endif
