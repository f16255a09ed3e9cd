/*
 * merge.c -- records of one work become one work; see merge.h.
 *
 * Matching.  Two records are of the same work when, in this order of
 * precedence (the first rule both records can answer decides):
 *   1. both have an arXiv id (version suffix ignored): the ids are equal;
 *   2. both have a DOI: the DOIs are equal, ignoring case;
 *   2a. both have a PMID: the PMIDs are equal;
 *   2b. both have an OpenAlex id: the ids are equal;
 *   3. both have an id of their source's own (not one paperdex derived,
 *      nor an arXiv id standing as the id): the ids are equal -- so two
 *      JSONL records with different ids never merge;
 *   4. both have a real title (not one derived from the abstract): the
 *      folded titles are equal (case, accents, punctuation, spacing);
 *   5. both have an abstract: the folded abstracts are equal, which
 *      tolerates white space, line wraps, case and punctuation but not a
 *      different sentence, so works that share only boilerplate stay apart.
 * The index finds candidates through the terms of merge_keys(); this
 * function makes the decision.
 *
 * The merged view takes the fullest value of each field: a real title over
 * a derived one (the longest real title), the longest abstract, the full
 * author list over a truncated one (the longest when all are truncated)
 * plus, in source order, every author the other sources name that it
 * lacks (the same person: family name, and given name or its initial),
 * the most precise date (day over month over year), the union of
 * categories and subjects, and the first value any source has of the
 * rest.  Sources are taken in (file, line) order, so the view does not
 * depend on the order records arrived in.
 *
 * Versions and withdrawals.  A versioned record (pdx_work.versioned: a
 * PubMed citation, an OpenAlex work, an arXiv OAI-PMH record) is its
 * source's current version of the work its identity names.  Of the
 * versioned records of one work with the same identity, only the one
 * whose file sorts last by path stands: PubMed names its update files so
 * that this is the order they were published in.  The others are set
 * aside: kept as sources (so that a re-run finds them, and the one that
 * stands is known again if the later file goes), but the view ignores
 * them.  A withdrawal (pdx_work.withdrawn) stands for nothing itself,
 * and sets aside the records of its identity in files before its own --
 * or in every file, for PDX_WITHDRAWN_EVERYWHERE (an OpenAlex merged id,
 * whose file's name says nothing of when it was merged).
 * A work whose every source is set aside is a tombstone: its view holds
 * only its ids, and it is indexed without text, so no search finds it;
 * it remains so that a record of an earlier file read later (a rebuild,
 * a baseline file added after its update files) is set aside too, and
 * the index stays what a fresh build gives.
 */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/layout.h"
#include "../common/text.h"
#include "record.h"

static int explicit_id(const pdx_work *w)
{
    return w->id && strncmp(w->id, "pdx:", 4) != 0;
}

/* An id of the source's own, not an arXiv id standing as the id. */
static int own_id(const pdx_work *w)
{
    return explicit_id(w) && !(w->arxiv_id && !strcmp(w->id, w->arxiv_id));
}

/* arXiv id without its version: "2103.00823v2" -> "2103.00823". */
static char *arxiv_key(arena *a, const char *id)
{
    size_t n = strlen(id);
    size_t k = n;
    while (k > 0 && id[k - 1] >= '0' && id[k - 1] <= '9')
        k--;
    if (k > 0 && k < n && id[k - 1] == 'v')
        n = k - 1;
    char *s = arena_strndup(a, id, n);
    for (char *p = s; p && *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return s;
}

/* An OpenAlex id in upper case without its URL: "https://openalex.org/
 * w123" -> "W123". */
static char *openalex_key(arena *a, const char *id)
{
    const char *slash = strrchr(id, '/');
    char *s = arena_strdup(a, slash ? slash + 1 : id);
    for (char *p = s; p && *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return s;
}

static char *hash_key(arena *a, const char *prefix, const char *text)
{
    unsigned long long h;
    char *k = arena_alloc(a, 32);
    if (!k || text_fold_hash64(text, strlen(text), &h) != 1)
        return NULL;
    snprintf(k, 32, "%s%016llx", prefix, h);
    return k;
}

/* The identity a record carries, which places it in its file: its key
 * in the source (a BibTeX citation key: two entries of one file may
 * share a DOI or a PMID, and so the id made of it, never a key), else
 * its own id, else its arXiv id, else its DOI (tag 'k', 'i', 'a', 'd' in
 * *tag, so that an id never equals a DOI); 0 when it has none, and its
 * line places it.
 * A record that moves to another line (a snapshot regenerated in another
 * order, lines deleted above it) is still itself. */
static int identity(const pdx_work *w, char *tag, const char **id)
{
    *tag = 0;
    *id = "";
    if (w->source_key && *w->source_key) {
        *tag = 'k';
        *id = w->source_key;
    } else if (explicit_id(w)) {
        *tag = 'i';
        *id = w->id;
    } else if (w->arxiv_id && *w->arxiv_id) {
        *tag = 'a';
        *id = w->arxiv_id;
    } else if (w->doi && *w->doi) {
        *tag = 'd';
        *id = w->doi;
    } else {
        return 0;
    }
    return 1;
}

int merge_has_own_place(const pdx_work *w)
{
    char tag;
    const char *id;
    return identity(w, &tag, &id);
}

unsigned long long merge_place_hash(const pdx_work *w)
{
    char tag;
    const char *id;
    if (identity(w, &tag, &id)) {
        unsigned long long h = text_hash64(id, strlen(id));
        return h * 0x9E3779B97F4A7C15ULL + (unsigned char)tag;
    }
    return w->source_line * 0x9E3779B97F4A7C15ULL;
}

unsigned long long merge_route_hash(const pdx_work *w)
{
    const char *text = w->title && !w->title_derived ? w->title : w->abstract;
    unsigned long long h = merge_place_hash(w);
    if (text)
        text_fold_hash64(text, strlen(text), &h); /* h kept if it folds to "" */
    /* FNV's low bits are weak: mixed (splitmix64's finaliser) so that
     * h % n shares evenly. */
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

static char *source_key(arena *a, const pdx_work *w)
{
    char tmp[64];
    unsigned long long h = text_hash64(w->source, strlen(w->source));
    h ^= merge_place_hash(w);
    snprintf(tmp, sizeof tmp, LAYOUT_P_SOURCE_POS "%016llx", h);
    return arena_strdup(a, tmp);
}

char *merge_place_term(arena *a, const char *source, const char *key)
{
    pdx_work probe = PDX_WORK_INIT;
    probe.source = source;
    probe.source_key = key;
    return source_key(a, &probe);
}

/* FNV-1a 64 over a record's content (every field but its id, which is
 * its identity, and where it was read), each field with a tag and a
 * separator so that moving text between fields changes the hash. */
static unsigned long long mix(unsigned long long h, int tag, const char *s)
{
    h ^= (unsigned char)tag;
    h *= 1099511628211ULL;
    for (const char *p = s ? s : ""; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 1099511628211ULL;
    }
    h ^= 0x1f;
    return h * 1099511628211ULL;
}

unsigned long long merge_content_hash(const pdx_work *w)
{
    char num[64];
    unsigned long long h = 1469598103934665603ULL;
    h = mix(h, 't', w->title);
    h = mix(h, 'b', w->abstract);
    for (size_t i = 0; i < w->n_authors; i++)
        h = mix(h, 'a', w->authors[i]);
    for (size_t i = 0; i < w->n_categories; i++)
        h = mix(h, 'c', w->categories[i]);
    snprintf(num, sizeof num, "%d %d %d %d", w->title_derived ? 1 : 0,
             w->authors_truncated ? 1 : 0, w->year, w->code_available ? 1 : 0);
    h = mix(h, 'n', num);
    h = mix(h, 'd', w->date);
    h = mix(h, 'o', w->doi);
    h = mix(h, 'x', w->arxiv_id);
    h = mix(h, 'v', w->venue);
    h = mix(h, 'm', w->comments);
    h = mix(h, 'f', w->affiliation);
    h = mix(h, 'p', w->pmid);
    h = mix(h, 'P', w->pmcid);
    h = mix(h, 'O', w->openalex_id);
    for (size_t i = 0; i < w->n_subjects; i++)
        h = mix(h, 's', w->subjects[i]);
    snprintf(num, sizeof num, "%d %d", w->versioned ? 1 : 0,
             w->withdrawn ? 1 : 0);
    h = mix(h, 'w', num);
    if (w->merged_into) /* (absent: the hash of records before it) */
        h = mix(h, 'j', w->merged_into);
    return h;
}

char *merge_record_prefix(arena *a, const char *file, const pdx_work *w)
{
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, LAYOUT_P_RECORD "%016llx",
                     text_hash64(file, strlen(file)));
    if (w)
        snprintf(tmp + n, sizeof tmp - (size_t)n, "%016llx", merge_place_hash(w));
    return arena_strdup(a, tmp);
}

char *merge_record_key(arena *a, const pdx_work *w)
{
    char tmp[80];
    snprintf(tmp, sizeof tmp, LAYOUT_P_RECORD "%016llx%016llx%016llx",
             text_hash64(w->source, strlen(w->source)), merge_place_hash(w),
             merge_content_hash(w));
    return arena_strdup(a, tmp);
}

char *merge_file_key(arena *a, const char *file)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, LAYOUT_P_SOURCE_FILE "%016llx", text_hash64(file, strlen(file)));
    return arena_strdup(a, tmp);
}

size_t merge_keys(arena *a, const pdx_work *w, const char *keys[])
{
    size_t n = 0;
    char *k;
    if (w->arxiv_id && (k = arxiv_key(a, w->arxiv_id)) && (k = arena_concat(a, LAYOUT_P_ARXIV, k)))
        keys[n++] = k;
    const char *dois[MERGE_MAX_DOIS];
    size_t nd = w->doi ? record_dois(a, w->doi, dois, MERGE_MAX_DOIS) : 0;
    for (size_t i = 0; i < nd; i++)
        if ((k = arxiv_key(a, dois[i])) && (k = arena_concat(a, LAYOUT_P_DOI, k)))
            keys[n++] = k;
    if (w->pmid && (k = arena_concat(a, LAYOUT_P_PMID, w->pmid)))
        keys[n++] = k;
    if (w->openalex_id && (k = openalex_key(a, w->openalex_id)) &&
        (k = arena_concat(a, LAYOUT_P_OPENALEX, k)))
        keys[n++] = k;
    if (w->title && !w->title_derived && (k = hash_key(a, LAYOUT_P_TITLE_HASH, w->title)))
        keys[n++] = k;
    if (w->abstract && (k = hash_key(a, LAYOUT_P_ABSTRACT_HASH, w->abstract)))
        keys[n++] = k;
    if (explicit_id(w) && (k = arena_concat(a, LAYOUT_P_SOURCE_ID, w->id)))
        keys[n++] = k;
    if (w->source && (k = source_key(a, w)))
        keys[n++] = k;
    return n;
}

const char *merge_stood_for(const char *key)
{
    static const char *const prefixes[] = {LAYOUT_P_ARXIV, LAYOUT_P_SOURCE_ID};
    for (size_t i = 0; key && i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
            return key + strlen(prefixes[i]);
    return NULL;
}

char *merge_stand_in(arena *a, const char *key)
{
    const char *x = merge_stood_for(key);
    return x ? arena_concat(a, LAYOUT_P_ID, x) : NULL;
}

/* After keys[0..*n): Q<x> for each XMA<x> or XI<x> among them, but for
 * x == own (NULL: none), whose Q<own> the caller has.  0, or -1 out of
 * memory. */
static int add_stand_ins(arena *a, const char *keys[], size_t *n,
                         const char *own)
{
    const size_t n0 = *n;
    for (size_t i = 0; i < n0; i++) {
        const char *x = merge_stood_for(keys[i]);
        if (x && !(own && !strcmp(x, own)) &&
            !(keys[(*n)++] = arena_concat(a, LAYOUT_P_ID, x)))
            return -1;
    }
    return 0;
}

size_t merge_stored_keys(arena *a, const pdx_work *w, const char *work_id,
                         const char *keys[])
{
    size_t n = merge_keys(a, w, keys), kept = 0;
    for (size_t i = 0; i < n; i++) {
        const char *x = merge_stood_for(keys[i]);
        if (!x || !work_id || strcmp(x, work_id))
            keys[kept++] = keys[i];
    }
    return kept;
}

/* s starts with prefix, ignoring case: the rest, or NULL. */
static const char *after(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncasecmp(s, prefix, n) ? NULL : s + n;
}

static int all_digits(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* An arXiv id, new style (2103.00823, 0704.0001) or old (hep-th/9901001,
 * math.GT/0309136), with or without its version (v2)? */
static int arxiv_id_like(const char *s, size_t n)
{
    size_t k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k > 0 && k < n && s[k - 1] == 'v')
        n = k - 1; /* the version */
    const char *dot = memchr(s, '.', n), *slash = memchr(s, '/', n);
    if (!slash)
        return dot && dot - s == 4 && all_digits(s, 4) &&
               (n - 5 == 4 || n - 5 == 5) && all_digits(dot + 1, n - 5);
    size_t arch = (size_t)(slash - s);
    if (arch < 2 || n - arch - 1 != 7 || !all_digits(slash + 1, 7))
        return 0;
    for (size_t i = 0; i < arch; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              s[i] == '-' || s[i] == '.'))
            return 0;
    return 1;
}

size_t merge_id_unwrapped(const char **s, size_t n)
{
    for (;;) {
        while (n && ((*s)[n - 1] == '.' || (*s)[n - 1] == ',' || (*s)[n - 1] == ';'))
            n--;
        if (n >= 2 && (((*s)[0] == '(' && (*s)[n - 1] == ')') ||
                       ((*s)[0] == '[' && (*s)[n - 1] == ']') ||
                       ((*s)[0] == '<' && (*s)[n - 1] == '>'))) {
            (*s)++;
            n -= 2;
            continue;
        }
        return n;
    }
}

merge_id_kind merge_id_form(arena *a, const char *in, const char **value)
{
    *value = NULL;
    while (*in == ' ' || *in == '\t')
        in++;
    size_t n = strlen(in);
    for (;;) {
        while (n && (in[n - 1] == ' ' || in[n - 1] == '\t' || in[n - 1] == '/'))
            n--;
        const size_t kept = merge_id_unwrapped(&in, n);
        if (kept == n)
            break;
        n = kept;
    }
    char *s = arena_strndup(a, in, n);
    if (!s || !n)
        return MERGE_ID_NONE;
    const char *r;
    /* a reference's arXiv line as Google Scholar and DBLP write it:
     * "arXiv preprint arXiv:2103.00823", "CoRR abs/2103.00823" (the
     * period that ends the reference left out) */
    if ((r = after(s, "arxiv preprint ")) || (r = after(s, "corr abs/")) ||
        (r = after(s, "corr, abs/"))) {
        char *id = arena_strndup(a, r, strlen(r) - (s[n - 1] == '.'));
        if (!id)
            return MERGE_ID_NONE;
        const merge_id_kind k = merge_id_form(a, id, value);
        return k == MERGE_ID_ARXIV ? k : (*value = NULL, MERGE_ID_NONE);
    }
    /* an address copied without its scheme, as a browser's bar shows it */
    static const char *const hosts[] = {
        "arxiv.org/", "www.arxiv.org/", "export.arxiv.org/", "doi.org/",
        "dx.doi.org/", "pubmed.ncbi.nlm.nih.gov/", "openalex.org/",
        "huggingface.co/papers/", "www.alphaxiv.org/", "alphaxiv.org/"};
    int bare = 0;
    for (size_t h = 0; h < sizeof hosts / sizeof hosts[0]; h++)
        bare |= after(s, hosts[h]) != NULL;
    if ((r = after(s, "https://")) || (r = after(s, "http://")) ||
        (bare && (r = s))) {
        const char *host = after(r, "www.") ? r + 4 : r;
        /* arXiv's abstract, PDF and HTML pages, and the pages of a
         * preprint that Hugging Face and alphaXiv keep under its id */
        if ((r = after(host, "arxiv.org/abs/")) ||
            (r = after(host, "arxiv.org/pdf/")) ||
            (r = after(host, "arxiv.org/html/")) ||
            (r = after(host, "export.arxiv.org/abs/")) ||
            (r = after(host, "huggingface.co/papers/")) ||
            (r = after(host, "alphaxiv.org/abs/"))) {
            size_t m = strlen(r);
            if (m > 4 && !strcasecmp(r + m - 4, ".pdf"))
                m -= 4;
            if (!arxiv_id_like(r, m))
                return MERGE_ID_NONE;
            *value = arena_strndup(a, r, m);
            return *value ? MERGE_ID_ARXIV : MERGE_ID_NONE;
        }
        if ((r = after(host, "doi.org/")) || (r = after(host, "dx.doi.org/")))
            return (*value = record_doi_normalize(a, r)) ? MERGE_ID_DOI
                                                         : MERGE_ID_NONE;
        if ((r = after(host, "pubmed.ncbi.nlm.nih.gov/")) ||
            (r = after(host, "ncbi.nlm.nih.gov/pubmed/")))
            return record_pmid_valid(r) ? (*value = r, MERGE_ID_PMID)
                                        : MERGE_ID_NONE;
        if ((r = after(host, "ncbi.nlm.nih.gov/pmc/articles/")) ||
            (r = after(host, "pmc.ncbi.nlm.nih.gov/articles/")))
            return (*value = r, MERGE_ID_PMCID);
        if ((r = after(host, "openalex.org/")) ||
            (r = after(host, "api.openalex.org/works/"))) {
            if (after(r, "works/"))
                r += 6;
            return (r[0] == 'W' || r[0] == 'w') && all_digits(r + 1, strlen(r + 1))
                       ? (*value = r, MERGE_ID_OPENALEX)
                       : MERGE_ID_NONE;
        }
        return MERGE_ID_NONE;
    }
    if ((r = after(s, "arxiv:"))) {
        /* as arXiv's listings and Scholar cite it: "arXiv:2103.00823
         * [cs.CV]", and with a space after the colon */
        while (*r == ' ')
            r++;
        char *b = strstr(r, " [");
        if (b && b[strlen(b) - 1] == ']')
            *b = '\0';
        return arxiv_id_like(r, strlen(r)) ? (*value = r, MERGE_ID_ARXIV)
                                           : MERGE_ID_NONE;
    }
    if ((r = after(s, "doi:")) || (s[0] == '1' && s[1] == '0' && s[2] == '.' &&
                                   strchr(s, '/') && (r = s))) {
        while (*r == ' ') /* "doi: 10.1000/x" */
            r++;
        return (*value = record_doi_normalize(a, r)) ? MERGE_ID_DOI
                                                     : MERGE_ID_NONE;
    }
    if ((r = after(s, "pmid:")) || (r = after(s, "pmid "))) {
        while (*r == ' ') /* "PMID: 12345678", as PubMed's citations write it */
            r++;
        return record_pmid_valid(r) ? (*value = r, MERGE_ID_PMID)
                                    : MERGE_ID_NONE;
    }
    if ((r = after(s, "pmcid:")))
        return (*value = r, MERGE_ID_PMCID);
    if ((r = after(s, "pmc")) && all_digits(r, strlen(r)))
        return (*value = s, MERGE_ID_PMCID);
    if ((s[0] == 'W' || s[0] == 'w') && all_digits(s + 1, n - 1))
        return (*value = s, MERGE_ID_OPENALEX);
    if (arxiv_id_like(s, n))
        return (*value = s, MERGE_ID_ARXIV);
    return MERGE_ID_NONE;
}

size_t merge_id_keys(arena *a, const char *id, const char *keys[])
{
    pdx_work probe = PDX_WORK_INIT;
    probe.id = id;
    probe.arxiv_id = id;
    const char *v;
    switch (merge_id_form(a, id, &v)) {
    case MERGE_ID_ARXIV: probe.arxiv_id = v; break;
    case MERGE_ID_DOI: { /* arXiv's DOI is its arXiv id too (record_finish) */
        size_t len;
        const char *ax = record_arxiv_doi(v, strlen(v), &len);
        probe.doi = v;
        probe.arxiv_id = ax ? arena_strndup(a, ax, len) : NULL;
        if (ax && !probe.arxiv_id)
            return 0;
        break;
    }
    case MERGE_ID_PMID: probe.pmid = v; break;
    case MERGE_ID_OPENALEX: probe.openalex_id = v; break;
    case MERGE_ID_PMCID: /* not a key the index holds: the id as given */
    case MERGE_ID_NONE: break;
    }
    size_t n = merge_keys(a, &probe, keys); /* XMA, XMD, XMP, XMO, XI<id> */
    char *q = arena_concat(a, LAYOUT_P_ID, id);
    if (!q)
        return 0;
    keys[n++] = q;
    /* Q<arXiv id without its version>, which XMA<it> is in its work */
    return add_stand_ins(a, keys, &n, id) ? 0 : n;
}

size_t merge_class_terms(const merge_work *m, const char *out[])
{
    size_t n = 0;
    int own = 0;
    for (size_t i = 0; i < m->n_src; i++)
        own |= own_id(&m->src[i].rec);
    if (m->view.arxiv_id)
        out[n++] = LAYOUT_CLASS_ARXIV;
    if (m->view.doi)
        out[n++] = LAYOUT_CLASS_DOI;
    if (own)
        out[n++] = LAYOUT_CLASS_ID;
    if (m->view.title && !m->view.title_derived)
        out[n++] = LAYOUT_CLASS_TITLE;
    return n;
}

int merge_lookup_of(arena *a, const pdx_work *r, merge_lookup *l)
{
    const char *keys[MERGE_MAX_KEYS];
    size_t nk = merge_keys(a, r, keys);
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < nk; i++) {
        if (!keys[i])
            return -1;
        if (!strncmp(keys[i], LAYOUT_P_TITLE_HASH,
                     sizeof LAYOUT_P_TITLE_HASH - 1))
            l->title = keys[i];
        else if (!strncmp(keys[i], LAYOUT_P_ABSTRACT_HASH,
                          sizeof LAYOUT_P_ABSTRACT_HASH - 1))
            l->abstract = keys[i];
        else
            l->plain[l->n_plain++] = keys[i];
    }
    /* Q<x> stands for XMA<x> and XI<x> in the work whose id is x
     * (merge_stored_keys): looked up beside them. */
    if (add_stand_ins(a, l->plain, &l->n_plain, NULL))
        return -1;
    /* What decides before the title rule, when both sides have it. */
    if (r->arxiv_id)
        l->title_not[l->n_title_not++] = LAYOUT_CLASS_ARXIV;
    if (r->doi)
        l->title_not[l->n_title_not++] = LAYOUT_CLASS_DOI;
    if (own_id(r))
        l->title_not[l->n_title_not++] = LAYOUT_CLASS_ID;
    memcpy(l->abstract_not, l->title_not, sizeof l->title_not);
    l->n_abstract_not = l->n_title_not;
    if (r->title && !r->title_derived) /* then the titles decide */
        l->abstract_not[l->n_abstract_not++] = LAYOUT_CLASS_TITLE;
    return 0;
}

static int folded_equal(arena *a, const char *x, const char *y)
{
    char *fx = text_fold(a, x, strlen(x)), *fy = text_fold(a, y, strlen(y));
    return fx && fy && *fx && !strcmp(fx, fy);
}

int merge_matches(arena *a, const pdx_work *r, const merge_work *m)
{
    const pdx_work *v = &m->view;
    if (r->arxiv_id && v->arxiv_id) {
        char *x = arxiv_key(a, r->arxiv_id), *y = arxiv_key(a, v->arxiv_id);
        return x && y && !strcmp(x, y);
    }
    if (r->doi && v->doi) { /* any DOI of one is one of the other's */
        const char *x[MERGE_MAX_DOIS], *y[MERGE_MAX_DOIS];
        size_t nx = record_dois(a, r->doi, x, MERGE_MAX_DOIS);
        size_t ny = record_dois(a, v->doi, y, MERGE_MAX_DOIS);
        for (size_t i = 0; i < nx; i++)
            for (size_t j = 0; j < ny; j++)
                if (!strcasecmp(x[i], y[j]))
                    return 1;
        return 0;
    }
    if (r->pmid && v->pmid)
        return !strcmp(r->pmid, v->pmid);
    if (r->openalex_id && v->openalex_id)
        return !strcasecmp(r->openalex_id, v->openalex_id);
    if (own_id(r)) { /* against the own ids of all the work's sources */
        int any = 0;
        for (size_t i = 0; i < m->n_src; i++)
            if (own_id(&m->src[i].rec)) {
                if (!strcmp(r->id, m->src[i].rec.id))
                    return 1;
                any = 1;
            }
        if (any)
            return 0;
    }
    if (r->title && !r->title_derived && v->title && !v->title_derived)
        return folded_equal(a, r->title, v->title);
    if (r->abstract && v->abstract)
        return folded_equal(a, r->abstract, v->abstract);
    return 0;
}

int merge_same_source(const pdx_work *x, const pdx_work *y)
{
    if (!x->source || !y->source || strcmp(x->source, y->source))
        return 0;
    char tx = 0, ty = 0;
    const char *ix = "", *iy = "";
    int hx = identity(x, &tx, &ix), hy = identity(y, &ty, &iy);
    if (hx || hy) /* the place is the identity */
        return hx && hy && tx == ty && !strcmp(ix, iy);
    return x->source_line == y->source_line;
}

/* ------------------------------------------------------------- view */

static int src_cmp(const void *pa, const void *pb)
{
    const pdx_work *a = &((const merge_src *)pa)->rec;
    const pdx_work *b = &((const merge_src *)pb)->rec;
    if (!a->source || !b->source) {
        if (a->source || b->source)
            return !a->source - !b->source;
        return strcmp(a->id ? a->id : "", b->id ? b->id : "");
    }
    int c = strcmp(a->source, b->source);
    if (c)
        return c;
    /* Within a file, by place: records with an identity by it (their
     * line is not kept), before those placed by their line. */
    char ta = 0, tb = 0;
    const char *ia = "", *ib = "";
    int ea = identity(a, &ta, &ia), eb = identity(b, &tb, &ib);
    if (ea != eb)
        return eb - ea;
    if (ea)
        return ta != tb ? (ta > tb) - (ta < tb) : strcmp(ia, ib);
    return (a->source_line > b->source_line) - (a->source_line < b->source_line);
}

static const char *longest(const char *cur, const char *s)
{
    return s && (!cur || strlen(s) > strlen(cur)) ? s : cur;
}

static const char *first(const char *cur, const char *s)
{
    return cur ? cur : s;
}

static int precision(const pdx_work *w)
{
    return w->date ? (int)strlen(w->date) : w->year ? 4 : 0;
}

/* Two spellings of one author: the same family name, and the same first
 * given name or one the initial of the other ("Zhihua Wu", "Z. Wu").
 * "Yida Wang" and "Yue Wang" stay two people. */
static int same_author(const name_keys *x, const name_keys *y)
{
    if (strcmp(x->family, y->family))
        return 0;
    if (!*x->given || !*y->given)
        return 1;
    if (x->given_is_initial || y->given_is_initial)
        return !strcmp(x->initial, y->initial);
    return !strcmp(x->given, y->given);
}

/* Append `name` unless an author already there is the same person.  The
 * leading list is appended whole (check == 0): within one list, two
 * similar names are two people. */
static int add_author(arena *a, const char **v, name_keys *keys, size_t *n,
                      const char *name, int check)
{
    name_keys k;
    if (text_name_keys(a, name, &k))
        return -1;
    for (size_t i = 0; check && i < *n; i++)
        if (same_author(&keys[i], &k))
            return 0;
    keys[*n] = k;
    v[(*n)++] = name;
    return 0;
}

/* Is source i of m set aside: a withdrawal, or a versioned record with a
 * later file's version of the same identity? */
static int set_aside(const merge_work *m, size_t i)
{
    const pdx_work *r = &m->src[i].rec;
    if (r->withdrawn)
        return 1;
    if (!r->versioned || !r->source)
        return 0;
    char tr, tx;
    const char *ir, *ix;
    if (!identity(r, &tr, &ir))
        return 0;
    for (size_t j = 0; j < m->n_src; j++) {
        const pdx_work *x = &m->src[j].rec;
        if (j != i && x->versioned && x->source &&
            (strcmp(x->source, r->source) > 0 ||
             x->withdrawn == PDX_WITHDRAWN_EVERYWHERE) &&
            identity(x, &tx, &ix) && tx == tr && !strcmp(ix, ir))
            return 1;
    }
    return 0;
}

/* The view of a work whose every source is set aside: its ids. */
static int tombstone_view(merge_work *m)
{
    const pdx_work init = PDX_WORK_INIT;
    pdx_work v = init;
    if (m->n_src == 1) {
        v = m->src[0].rec; /* stored as the view: all of it, as it is */
    } else {
        for (size_t i = 0; i < m->n_src; i++) {
            const pdx_work *r = &m->src[i].rec;
            v.arxiv_id = first(v.arxiv_id, r->arxiv_id);
            v.doi = first(v.doi, r->doi);
            v.pmid = first(v.pmid, r->pmid);
            v.openalex_id = first(v.openalex_id, r->openalex_id);
            v.source = first(v.source, r->source);
            if (!v.id && r->withdrawn)
                v.id = r->id;
            if (r->withdrawn)
                v.merged_into = first(v.merged_into, r->merged_into);
        }
        if (!v.id)
            v.id = m->src[0].rec.id;
    }
    if (!v.withdrawn)
        v.withdrawn = 1;
    v.versioned = 1;
    m->view = v;
    return v.id ? 0 : -1;
}

int merge_view(arena *a, merge_work *m, strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    pdx_work v = init;
    qsort(m->src, m->n_src, sizeof *m->src, src_cmp);
    const pdx_work *base = NULL; /* whose author list leads */
    size_t n_auth = 0, n_cat = 0, n_subj = 0, n_live = 0;
    for (size_t i = 0; i < m->n_src; i++)
        m->src[i].set_aside = set_aside(m, i);
    for (size_t i = 0; i < m->n_src; i++)
        n_live += !m->src[i].set_aside;
    if (n_live == 0) {
        if (tombstone_view(m) == 0)
            return 0;
        sb_puts(why, "a withdrawn work without an id");
        return -1;
    }
    for (size_t i = 0; i < m->n_src; i++) {
        const pdx_work *r = &m->src[i].rec;
        if (m->src[i].set_aside)
            continue;
        if (r->title && !r->title_derived)
            v.title = longest(v.title, r->title);
        v.abstract = longest(v.abstract, r->abstract);
        if (!v.id && explicit_id(r))
            v.id = r->id;
        v.arxiv_id = first(v.arxiv_id, r->arxiv_id);
        v.doi = first(v.doi, r->doi);
        v.venue = first(v.venue, r->venue);
        v.comments = first(v.comments, r->comments);
        v.affiliation = first(v.affiliation, r->affiliation);
        v.pmid = first(v.pmid, r->pmid);
        v.pmcid = first(v.pmcid, r->pmcid);
        v.openalex_id = first(v.openalex_id, r->openalex_id);
        v.code_available |= r->code_available;
        v.source = first(v.source, r->source);
        if (v.source == r->source)
            v.source_line = v.source_line ? v.source_line : r->source_line;
        if (precision(r) > precision(&v)) {
            v.date = r->date;
            v.year = r->year ? r->year : (r->date ? atoi(r->date) : 0);
        }
        n_auth += r->n_authors;
        n_cat += r->n_categories;
        n_subj += r->n_subjects;
        if (r->n_authors &&
            (!base || (base->authors_truncated && !r->authors_truncated) ||
             (base->authors_truncated == r->authors_truncated &&
              r->n_authors > base->n_authors)))
            base = r;
    }
    if (v.arxiv_id) /* the work's id: its arXiv id without a version */
        v.id = arxiv_key(a, v.arxiv_id);
    if (v.arxiv_id && !v.id)
        goto oom;
    /* Authors: the leading list, then the others' missing names. */
    const char **authors = arena_alloc(a, (n_auth + 1) * sizeof *authors);
    name_keys *keys = arena_alloc(a, (n_auth + 1) * sizeof *keys);
    const char **cats = arena_alloc(a, (n_cat + 1) * sizeof *cats);
    const char **subj = arena_alloc(a, (n_subj + 1) * sizeof *subj);
    if (!authors || !keys || !cats || !subj)
        goto oom;
    size_t na = 0;
    if (base)
        for (size_t j = 0; j < base->n_authors; j++)
            if (add_author(a, authors, keys, &na, base->authors[j], 0))
                goto oom;
    for (size_t i = 0; i < m->n_src; i++) {
        const pdx_work *r = &m->src[i].rec;
        if (m->src[i].set_aside)
            continue;
        for (size_t j = 0; j < r->n_subjects; j++) {
            size_t k = 0;
            while (k < v.n_subjects && strcasecmp(subj[k], r->subjects[j]))
                k++;
            if (k == v.n_subjects)
                subj[v.n_subjects++] = r->subjects[j];
        }
        for (size_t j = 0; r != base && j < r->n_authors; j++)
            if (add_author(a, authors, keys, &na, r->authors[j], 1))
                goto oom;
        for (size_t j = 0; j < r->n_categories; j++) {
            size_t k = 0;
            while (k < v.n_categories && strcasecmp(cats[k], r->categories[j]))
                k++;
            if (k == v.n_categories)
                cats[v.n_categories++] = r->categories[j];
        }
    }
    v.authors = authors;
    v.n_authors = na;
    v.authors_truncated = base && base->authors_truncated;
    v.categories = cats;
    v.subjects = subj;
    if (v.date)
        v.year = atoi(v.date);
    if (m->n_src == 1) {
        /* A single source's record is stored as the view (merge_to_json):
         * what places and versions it goes with it. */
        v.source_key = m->src[0].rec.source_key;
        v.versioned = m->src[0].rec.versioned;
    }
    m->view = v;
    /* A title derived from the abstract, and an id when no source gave
     * one, exactly as for a single record. */
    return record_finish(a, &m->view, why) == PDX_SKIP_NONE ? 0 : -1;
oom:
    sb_puts(why, "out of memory");
    return -1;
}

/* ------------------------------------------------------------- JSON */

char *merge_to_json(const merge_work *m)
{
    cJSON *o = record_to_cjson(&m->view);
    char *out = NULL;
    cJSON *arr = o ? cJSON_AddArrayToObject(o, "sources") : NULL;
    if (!arr)
        goto done;
    for (size_t i = 0; i < m->n_src; i++) {
        const pdx_work *r = &m->src[i].rec;
        cJSON *s = cJSON_CreateObject();
        if (!s || !cJSON_AddItemToArray(arr, s))
            goto done;
        /* A record with an identity is placed by it: its line is not
         * kept, so that moving within its file changes nothing. */
        if (r->source && (!cJSON_AddStringToObject(s, "file", r->source) ||
                          (!merge_has_own_place(r) &&
                           !cJSON_AddNumberToObject(s, "line",
                                                    (double)r->source_line))))
            goto done;
        /* The id the source gave, when the work goes by another. */
        if (m->n_src == 1 && r->id && strcmp(r->id, m->view.id) &&
            !cJSON_AddStringToObject(s, "id", r->id))
            goto done;
        /* Said, as merge_view decided; decided again when read back. */
        if (m->n_src > 1 && m->src[i].set_aside &&
            !cJSON_AddTrueToObject(s, "set_aside"))
            goto done;
        if (m->n_src > 1) {
            cJSON *rec = record_to_cjson(r);
            if (!rec || !cJSON_AddItemToObject(s, "record", rec)) {
                cJSON_Delete(rec);
                goto done;
            }
        }
    }
    out = cJSON_PrintUnformatted(o);
done:
    cJSON_Delete(o);
    return out;
}

int merge_from_json(arena *a, merge_work *m, const char *json, size_t len)
{
    memset(m, 0, sizeof *m);
    cJSON *o = cJSON_ParseWithLength(json, len);
    if (!o || record_from_cjson(a, &m->view, o)) {
        cJSON_Delete(o);
        return -1;
    }
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "sources");
    int n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
    m->src = arena_alloc(a, (size_t)(n > 0 ? n : 1) * sizeof *m->src);
    if (!m->src) {
        cJSON_Delete(o);
        return -1;
    }
    const cJSON *s;
    int rc = 0;
    cJSON_ArrayForEach(s, arr)
    {
        merge_src *e = &m->src[m->n_src];
        e->set_aside = 0; /* merge_view decides */
        const cJSON *rec = cJSON_GetObjectItemCaseSensitive(s, "record");
        if (rec) {
            if ((rc = record_from_cjson(a, &e->rec, rec)) != 0)
                break;
        } else {
            e->rec = m->view; /* a single source: its record is the view */
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(s, "id");
            if (cJSON_IsString(id))
                e->rec.id = arena_strdup(a, id->valuestring);
        }
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(s, "file");
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(s, "line");
        e->rec.source = cJSON_IsString(f) ? arena_strdup(a, f->valuestring) : NULL;
        e->rec.source_line = cJSON_IsNumber(l) ? (uint64_t)l->valuedouble : 0;
        m->n_src++;
    }
    if (!rc && m->n_src) {
        m->view.source = m->src[0].rec.source;
        m->view.source_line = m->src[0].rec.source_line;
    }
    if (!rc && m->n_src == 0) { /* written before sources were kept */
        m->src[0].rec = m->view;
        m->n_src = 1;
    }
    cJSON_Delete(o);
    return rc ? -1 : 0;
}
