/*
 * openalex.c -- OpenAlex work objects, as the works snapshot has them (one
 * per line of its updated_date=.../part_NNN.gz partitions) and as the API
 * returns them (a saved page: {"meta": ..., "results": [...]}, which
 * reader.c takes apart), and the lines of the snapshot's merged_ids CSV.
 *
 * Fields: id (the short "W..." form), doi (without https://doi.org/),
 * title (or display_name), the abstract rebuilt from
 * abstract_inverted_index (each word at each of its positions, in
 * position order), authorships' display names, publication_date and
 * publication_year, the primary location's source as venue, topics (or,
 * in older snapshots, concepts) as subjects, ids.pmid and ids.pmcid, and
 * the arXiv id of a location whose landing page is on arxiv.org.  Each is
 * versioned: the file that sorts last holds a work's current version.
 *
 * Merged works.  When OpenAlex merges a work into another, the old id
 * leaves the works partitions and appears in merged_ids/works/DATE.csv.gz
 * ("merge_date,id,merge_into_id"): each such line is read as a
 * withdrawal of the old id, so that it does not stay as a duplicate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/text.h"
#include "record.h"

#define MAX_ABSTRACT_WORDS 20000

/* The part of s after `prefix` (case-insensitive), or s. */
static const char *after(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s && !strncasecmp(s, prefix, n) ? s + n : s;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

int openalex_looks_like(const cJSON *obj)
{
    const char *id = str(obj, "id");
    return (id && !strncmp(id, "https://openalex.org/W", 22)) ||
           cJSON_GetObjectItemCaseSensitive(obj, "abstract_inverted_index") ||
           cJSON_GetObjectItemCaseSensitive(obj, "authorships");
}

/* "W2741809807" from "https://openalex.org/W2741809807"; NULL if it is
 * not a work id. */
static const char *work_id(arena *a, const char *id)
{
    id = after(id, "https://openalex.org/");
    if (!id || (id[0] != 'W' && id[0] != 'w') || !id[1])
        return NULL;
    for (const char *p = id + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return NULL;
    char *s = arena_strdup(a, id);
    if (s)
        s[0] = 'W';
    return s;
}

typedef struct placed {
    long pos;
    const char *word;
} placed;

static int by_pos(const void *x, const void *y)
{
    long a = ((const placed *)x)->pos, b = ((const placed *)y)->pos;
    return (a > b) - (a < b);
}

/* The abstract from {"word": [positions], ...}; -1 with why set when the
 * index is malformed. */
static int rebuild_abstract(arena *a, const cJSON *inv, const char **out,
                            strbuf *why)
{
    *out = NULL;
    if (!inv || cJSON_IsNull(inv))
        return 0;
    if (!cJSON_IsObject(inv)) {
        sb_puts(why, "field \"abstract_inverted_index\" must be an object");
        return -1;
    }
    size_t n = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, inv)
    {
        if (!cJSON_IsArray(w)) {
            sb_puts(why, "abstract_inverted_index: a word's positions must "
                         "be an array");
            return -1;
        }
        n += (size_t)cJSON_GetArraySize(w);
        if (n > MAX_ABSTRACT_WORDS) {
            sb_printf(why, "abstract_inverted_index has more than %d words",
                      MAX_ABSTRACT_WORDS);
            return -1;
        }
    }
    if (!n)
        return 0;
    placed *v = malloc(n * sizeof *v);
    if (!v) {
        sb_puts(why, "out of memory");
        return -1;
    }
    size_t k = 0;
    cJSON_ArrayForEach(w, inv)
    {
        const cJSON *p;
        cJSON_ArrayForEach(p, w)
        {
            if (!cJSON_IsNumber(p) || p->valuedouble < 0 ||
                p->valuedouble > 1e7 ||
                p->valuedouble != (double)(long)p->valuedouble) {
                free(v);
                sb_puts(why, "abstract_inverted_index: a position is not a "
                             "whole number from 0");
                return -1;
            }
            v[k].pos = (long)p->valuedouble;
            v[k++].word = w->string ? w->string : "";
        }
    }
    qsort(v, k, sizeof *v, by_pos);
    strbuf b = STRBUF_INIT;
    for (size_t i = 0; i < k; i++) {
        if (i && v[i].pos == v[i - 1].pos)
            continue; /* two words at one place: the first */
        if (b.len)
            sb_putc(&b, ' ');
        sb_puts(&b, v[i].word);
    }
    free(v);
    char *s = b.ok && b.s ? text_collapse(a, b.s) : NULL;
    int ok = b.ok;
    sb_release(&b);
    if (!ok || (k && !s)) {
        sb_puts(why, "out of memory");
        return -1;
    }
    *out = s && *s ? s : NULL;
    return 0;
}

/* Names from an array of objects: item[key] (an object) [name]. */
static int names(arena *a, const cJSON *arr, const char *key,
                 const char *name, const char *const **out, size_t *n,
                 size_t max)
{
    *out = NULL;
    *n = 0;
    if (!cJSON_IsArray(arr))
        return 0;
    size_t cap = (size_t)cJSON_GetArraySize(arr);
    if (cap > max)
        cap = max;
    if (!cap)
        return 0;
    const char **v = arena_alloc(a, cap * sizeof *v);
    if (!v)
        return -1;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (*n == cap)
            break;
        const cJSON *o = key ? cJSON_GetObjectItemCaseSensitive(it, key) : it;
        const char *s = str(o, name);
        char *c = s ? text_collapse(a, s) : NULL;
        if (s && !c)
            return -1;
        if (c && *c)
            v[(*n)++] = c;
    }
    *out = v;
    return 0;
}

pdx_skip openalex_decode(arena *a, pdx_work *w, const cJSON *obj,
                         strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    w->versioned = 1;
    const char *id = str(obj, "id");
    w->openalex_id = id ? work_id(a, id) : NULL;
    w->id = w->openalex_id; /* its own id, not the PMID it cites */
    if (!w->openalex_id) {
        sb_printf(why, "an OpenAlex work without a work id (\"id\": "
                       "\"https://openalex.org/W...\")%s%.60s",
                  id ? ", not " : "", id ? id : "");
        return PDX_SKIP_ID;
    }
    const char *title = str(obj, "title");
    if (!title)
        title = str(obj, "display_name");
    const char *doi = after(str(obj, "doi"), "https://doi.org/");
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(obj, "ids");
    const char *pmid = after(str(ids, "pmid"), "https://pubmed.ncbi.nlm.nih.gov/");
    const char *pmcid = str(ids, "pmcid");
    if (pmcid) {
        const char *slash = strrchr(pmcid, '/');
        pmcid = slash && slash[1] ? slash + 1 : (slash ? NULL : pmcid);
    }
    /* Crossref's titles come with their HTML (CO<sub>2</sub>, <i>in
     * situ</i>, &amp;): plain text, as the work reads */
    const char *plain = title ? text_strip_markup(a, title) : NULL;
    if (title && (!plain || !(w->title = text_collapse(a, plain))))
        goto oom;
    if (w->title && !*w->title)
        w->title = NULL;
    if (doi && !(w->doi = text_collapse(a, doi)))
        goto oom;
    if (pmid) {
        char *p = arena_strdup(a, pmid);
        if (!p)
            goto oom;
        size_t n = strlen(p);
        while (n && p[n - 1] == '/')
            p[--n] = '\0';
        if (record_pmid_valid(p))
            w->pmid = p;
    }
    if (pmcid && !(w->pmcid = arena_strdup(a, pmcid)))
        goto oom;
    if (rebuild_abstract(a, cJSON_GetObjectItemCaseSensitive(obj,
                                                             "abstract_inverted_index"),
                         &w->abstract, why))
        return PDX_SKIP_FIELD;
    if (w->abstract && (!(w->abstract = text_strip_markup(a, w->abstract)) ||
                        !(w->abstract = text_collapse(a, w->abstract))))
        goto oom;
    if (w->abstract && !*w->abstract)
        w->abstract = NULL;
    if (names(a, cJSON_GetObjectItemCaseSensitive(obj, "authorships"), "author",
              "display_name", &w->authors, &w->n_authors, 5000))
        goto oom;
    const cJSON *topics = cJSON_GetObjectItemCaseSensitive(obj, "topics");
    if (!cJSON_IsArray(topics) || !cJSON_GetArraySize(topics))
        topics = cJSON_GetObjectItemCaseSensitive(obj, "concepts");
    if (names(a, topics, NULL, "display_name", &w->subjects, &w->n_subjects,
              100))
        goto oom;
    const char *date = str(obj, "publication_date");
    if (date && record_date_valid(date) && !(w->date = arena_strdup(a, date)))
        goto oom;
    const cJSON *year = cJSON_GetObjectItemCaseSensitive(obj, "publication_year");
    if (!w->date && cJSON_IsNumber(year) && year->valuedouble >= 1000 &&
        year->valuedouble <= 9999)
        w->year = (int)year->valuedouble;
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(obj, "primary_location");
    const char *venue = str(cJSON_GetObjectItemCaseSensitive(pl, "source"),
                            "display_name");
    if (venue && !(w->venue = text_collapse(a, venue)))
        goto oom;
    /* arXiv: a location on arxiv.org */
    const cJSON *locs = cJSON_GetObjectItemCaseSensitive(obj, "locations");
    const cJSON *loc = cJSON_IsArray(locs) ? locs->child : NULL;
    for (; loc; loc = loc->next) {
        const char *url = str(loc, "landing_page_url");
        const char *p = url ? strstr(url, "arxiv.org/abs/") : NULL;
        if (p && p[14]) {
            if (!(w->arxiv_id = arena_strdup(a, p + 14)))
                goto oom;
            break;
        }
    }
    if (!w->title && !w->abstract) {
        sb_printf(why, "OpenAlex work %s has neither a title nor an abstract",
                  w->openalex_id);
        return PDX_SKIP_EMPTY;
    }
    return PDX_SKIP_NONE;
oom:
    sb_puts(why, "out of memory");
    return PDX_SKIP_FIELD;
}

int openalex_merged_header(const char *s, size_t n)
{
    static const char h[] = "merge_date,id,merge_into_id";
    return n >= sizeof h - 1 && !memcmp(s, h, sizeof h - 1);
}

pdx_skip openalex_merged_decode(arena *a, pdx_work *w, const char *line,
                                size_t n, strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    /* merge_date,id,merge_into_id */
    const char *c1 = memchr(line, ',', n);
    const char *c2 = c1 ? memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - line)) : NULL;
    if (!c2) {
        sb_puts(why, "a merged_ids line is merge_date,id,merge_into_id");
        return PDX_SKIP_FIELD;
    }
    char *id = arena_strndup(a, c1 + 1, (size_t)(c2 - c1 - 1));
    const char *wid = id ? work_id(a, id) : NULL;
    if (!wid) {
        sb_printf(why, "merged id \"%.40s\" is not an OpenAlex work id",
                  id ? id : "");
        return PDX_SKIP_ID;
    }
    w->openalex_id = wid;
    w->id = wid;
    w->withdrawn = PDX_WITHDRAWN_EVERYWHERE;
    /* where a lookup of the merged id leads (an empty or odd target:
     * nowhere, the id is withdrawn all the same) */
    size_t rest = n - (size_t)(c2 + 1 - line);
    while (rest && (c2[rest] == '\r' || c2[rest] == ' '))
        rest--;
    char *into = arena_strndup(a, c2 + 1, rest);
    w->merged_into = into ? work_id(a, into) : NULL;
    w->versioned = 1;
    return PDX_SKIP_NONE;
}
