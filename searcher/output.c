/*
 * output.c -- printing search results; see output.h.  JSON is built with
 * cJSON from each hit's stored record, so the fields a program sees are
 * exactly the fields that were indexed.
 */
#include "output.h"

#include <stdlib.h>

#include "../common/arxiv_categories.h"
#include "cite.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#define TEXT_MAX_AUTHORS 6

int out_parse_format(const char *s, out_format *f)
{
    if (!strcmp(s, "text"))
        *f = OUT_TEXT;
    else if (!strcmp(s, "json"))
        *f = OUT_JSON;
    else if (!strcmp(s, "jsonl"))
        *f = OUT_JSONL;
    else if (!strcmp(s, "bibtex"))
        *f = OUT_BIBTEX;
    else if (!strcmp(s, "ris"))
        *f = OUT_RIS;
    else if (!strcmp(s, "csljson"))
        *f = OUT_CSLJSON;
    else
        return -1;
    return 0;
}

static cite_format cite_of(out_format fmt)
{
    return fmt == OUT_BIBTEX ? CITE_BIBTEX : fmt == OUT_RIS ? CITE_RIS
                                                            : CITE_CSLJSON;
}

const char *out_media_type(out_format fmt)
{
    if (fmt >= OUT_BIBTEX)
        return cite_media_type(cite_of(fmt));
    return fmt == OUT_TEXT ? "text/plain; charset=utf-8"
                           : "application/json; charset=utf-8";
}

/* Scores are rounded to 6 decimals so that outputs compare stably. */
static double round6(double x) { return round(x * 1e6) / 1e6; }

/* o[name] = [[start, end], ...] of n byte ranges.  0, or -1 out of
 * memory. */
static int ranges_json(cJSON *o, const char *name, const size_t *r, size_t n)
{
    cJSON *arr = cJSON_AddArrayToObject(o, name);
    if (!arr)
        return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *pair = cJSON_CreateArray();
        if (!pair || !cJSON_AddItemToArray(arr, pair) ||
            !cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)r[2 * i])) ||
            !cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)r[2 * i + 1])))
            return -1;
    }
    return 0;
}

static int hide_paths;           /* out_hide_source_paths was called */
static const char *paths_root;   /* shown relative to this, or NULL */

void out_hide_source_paths(const char *root)
{
    hide_paths = 1;
    paths_root = root && *root ? root : NULL;
}

const char *out_shown_path(const char *path)
{
    if (paths_root) {
        size_t n = strlen(paths_root);
        while (n > 1 && paths_root[n - 1] == '/')
            n--;
        if (!strncmp(path, paths_root, n) && path[n] == '/' && path[n + 1])
            return path + n + 1;
    }
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

void out_hide_paths_in(cJSON *rec)
{
    if (!hide_paths)
        return;
    cJSON *src, *sources = cJSON_GetObjectItemCaseSensitive(rec, "sources");
    cJSON_ArrayForEach(src, sources) {
        cJSON *file = cJSON_GetObjectItemCaseSensitive(src, "file");
        if (cJSON_IsString(file) && file->valuestring) {
            cJSON *shown = cJSON_CreateString(out_shown_path(file->valuestring));
            if (shown)
                cJSON_ReplaceItemInObjectCaseSensitive(src, "file", shown);
        }
    }
}

/* {"rank": R, "score": S, ...the stored record's fields...} */
static cJSON *hit_json(const pdx_hit *h)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *rec = cJSON_Parse(h->json);
    if (!o || !cJSON_AddNumberToObject(o, "rank", (double)h->rank + 1) ||
        !cJSON_AddNumberToObject(o, "score", round6(h->score)))
        goto fail;
    /* Sources show where the work was read (file, line); the records
     * they hold are for `paperdex show`. */
    cJSON *src, *sources = cJSON_GetObjectItemCaseSensitive(rec, "sources");
    cJSON_ArrayForEach(src, sources)
        cJSON_DeleteItemFromObjectCaseSensitive(src, "record");
    out_hide_paths_in(rec);
    while (rec && rec->child) {
        cJSON *item = cJSON_DetachItemViaPointer(rec, rec->child);
        if (!cJSON_AddItemToObject(o, item->string, item)) {
            cJSON_Delete(item);
            goto fail;
        }
    }
    /* The authors an author filter matched, as the record writes them:
     * for a page that cuts a long author list. */
    if (h->author_matched) {
        cJSON *m = cJSON_AddArrayToObject(o, "matched_authors");
        if (!m)
            goto fail;
        for (size_t i = 0; i < h->work->n_authors; i++)
            if (h->author_matched[i] &&
                !cJSON_AddItemToArray(m, cJSON_CreateString(h->work->authors[i])))
                goto fail;
    }
    if (h->explain) {
        cJSON *ex = cJSON_Parse(h->explain);
        if (!ex || !cJSON_AddItemToObject(o, "explain", ex)) {
            cJSON_Delete(ex);
            goto fail;
        }
    }
    if (h->snippet &&
        (!cJSON_AddStringToObject(o, "snippet", h->snippet) ||
         ranges_json(o, "highlights", h->highlights, h->n_highlights)))
        goto fail;
    if (h->title_highlights &&
        ranges_json(o, "title_highlights", h->title_highlights,
                    h->n_title_highlights))
        goto fail;
    cJSON_Delete(rec);
    return o;
fail:
    cJSON_Delete(rec);
    cJSON_Delete(o);
    return NULL;
}

static int print_json(FILE *f, cJSON *o, int pretty)
{
    char *s = pretty ? cJSON_Print(o) : cJSON_PrintUnformatted(o);
    if (!s)
        return -1;
    int rc = fprintf(f, "%s\n", s) < 0 ? -1 : 0;
    cJSON_free(s);
    return rc;
}

static const struct {
    unsigned bit;
    const char *name;
} facet_names[] = {{PDX_FACET_YEAR, "year"},
                   {PDX_FACET_CATEGORY, "category"},
                   {PDX_FACET_AUTHOR, "author"},
                   {PDX_FACET_SUBJECT, "subject"}};
#define N_FACETS (sizeof facet_names / sizeof facet_names[0])

/* "facets": {"year": [{"value": "2021", "count": 3}, ...], ...}, only
 * for the facets asked for. */
/* Filters are at most this many of a kind (the command's limit). */
#define MAX_AUTHOR_FILTERS 64

/* "author_suggestions": the nearest names the index holds to author
 * filters that matched nothing, with the filter's place, when there are
 * any.  0, or -1 out of memory. */
static int author_suggestions_json(cJSON *o, const pdx_results *r)
{
    cJSON *arr = NULL;
    for (size_t i = 0; i < MAX_AUTHOR_FILTERS; i++) {
        const char *s = pdx_results_author_suggestion(r, i);
        if (!s)
            continue;
        if (!arr && !(arr = cJSON_AddArrayToObject(o, "author_suggestions")))
            return -1;
        cJSON *one = cJSON_CreateObject();
        if (!one || !cJSON_AddItemToArray(arr, one) ||
            !cJSON_AddNumberToObject(one, "filter", (double)i) ||
            !cJSON_AddStringToObject(one, "name", s))
            return -1;
    }
    return 0;
}

static int facets_json(cJSON *o, const pdx_results *r, unsigned asked)
{
    if (!asked)
        return 0;
    cJSON *fo = cJSON_AddObjectToObject(o, "facets");
    if (!fo)
        return -1;
    for (size_t k = 0; k < N_FACETS; k++) {
        if (!(asked & facet_names[k].bit))
            continue;
        cJSON *arr = cJSON_AddArrayToObject(fo, facet_names[k].name);
        if (!arr)
            return -1;
        for (size_t i = 0; i < pdx_results_facet_count(r, facet_names[k].bit); i++) {
            const pdx_facet *fv = pdx_results_facet(r, facet_names[k].bit, i);
            cJSON *v = cJSON_CreateObject();
            /* an arXiv category's name beside its code */
            const char *name = facet_names[k].bit == PDX_FACET_CATEGORY
                                   ? arxiv_category_name(fv->value)
                                   : NULL;
            if (!v || !cJSON_AddItemToArray(arr, v) ||
                !cJSON_AddStringToObject(v, "value", fv->value) ||
                !cJSON_AddNumberToObject(v, "count", (double)fv->count) ||
                (name && !cJSON_AddStringToObject(v, "name", name)))
                return -1;
        }
    }
    return 0;
}

static void facets_text(FILE *f, const pdx_results *r, unsigned asked)
{
    if (!asked)
        return;
    fputs("\nfacets (works among all matches):\n", f);
    for (size_t k = 0; k < N_FACETS; k++) {
        if (!(asked & facet_names[k].bit))
            continue;
        fprintf(f, "  %-9s", facet_names[k].name);
        size_t n = pdx_results_facet_count(r, facet_names[k].bit);
        for (size_t i = 0; i < n; i++) {
            const pdx_facet *fv = pdx_results_facet(r, facet_names[k].bit, i);
            fprintf(f, "%s%s (%llu)", i ? " · " : "", fv->value,
                    (unsigned long long)fv->count);
        }
        fputs(n ? "\n" : "(none)\n", f);
    }
}

/* n with a comma between thousands ("10,000"), as the text output
 * shows counts. */
static void out_count(char *buf, size_t size, size_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%zu", n);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < size; i++) {
        if (i && (len - i) % 3 == 0 && o + 2 < size)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

/* The total as JSON says it: "total" (exact, or a lower bound), its
 * "total_relation" ("eq" or "gte", as Elasticsearch's hits.total), and
 * Xapian's estimate with its exact bounds; and "note", how the query
 * was searched when not as written (the CLI's "note:" line).  0, or -1
 * out of memory. */
static int totals_json(cJSON *o, const pdx_results *r)
{
    const int gte = pdx_results_total_relation(r) == PDX_TOTAL_GTE;
    return cJSON_AddNumberToObject(o, "total", (double)pdx_results_total(r)) &&
                   cJSON_AddStringToObject(o, "total_relation",
                                           gte ? "gte" : "eq") &&
                   cJSON_AddNumberToObject(
                       o, "total_estimate",
                       (double)pdx_results_total_estimate(r)) &&
                   cJSON_AddNumberToObject(o, "total_lower",
                                           (double)pdx_results_total_lower(r)) &&
                   cJSON_AddNumberToObject(o, "total_upper",
                                           (double)pdx_results_total_upper(r)) &&
                   (!pdx_results_note(r) ||
                    cJSON_AddStringToObject(o, "note", pdx_results_note(r)))
               ? 0
               : -1;
}

static int out_json(FILE *f, const char *query, const pdx_results *r,
                    size_t offset, size_t limit, unsigned facets)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *hits = NULL;
    int rc = -1;
    if (!o || !cJSON_AddStringToObject(o, "query", query ? query : "") ||
        totals_json(o, r) ||
        !cJSON_AddNumberToObject(o, "offset", (double)offset) ||
        !cJSON_AddNumberToObject(o, "limit", (double)limit) ||
        (pdx_results_suggestion(r) &&
         !cJSON_AddStringToObject(o, "suggestion", pdx_results_suggestion(r))) ||
        author_suggestions_json(o, r) ||
        facets_json(o, r, facets) ||
        !(hits = cJSON_AddArrayToObject(o, "hits")))
        goto done;
    for (size_t i = 0; i < pdx_results_count(r); i++) {
        cJSON *h = hit_json(pdx_results_hit(r, i));
        if (!h || !cJSON_AddItemToArray(hits, h)) {
            cJSON_Delete(h);
            goto done;
        }
    }
    rc = print_json(f, o, 1);
done:
    cJSON_Delete(o);
    return rc;
}

/* The snippet, indented, matched words in bold on a terminal. */
/* text, its n byte ranges hl in bold on a terminal. */
static void marked_text(FILE *f, const char *text, const size_t *hl, size_t n,
                        int bold)
{
    size_t pos = 0, len = strlen(text);
    for (size_t i = 0; i < n; i++) {
        size_t s = hl[2 * i], e = hl[2 * i + 1];
        if (s < pos || e < s || e > len)
            break; /* not ours: the rest plain */
        fwrite(text + pos, 1, s - pos, f);
        fputs(bold ? "\033[1m" : "", f);
        fwrite(text + s, 1, e - s, f);
        fputs(bold ? "\033[0m" : "", f);
        pos = e;
    }
    fwrite(text + pos, 1, len - pos, f);
}

static void text_snippet(FILE *f, const pdx_hit *h, int bold)
{
    fputs("     ", f);
    marked_text(f, h->snippet, h->highlights, h->n_highlights, bold);
    fputc('\n', f);
}

/* The explanation, one line per term, then the length normalisation. */
static void text_explain(FILE *f, const pdx_hit *h)
{
    cJSON *ex = cJSON_Parse(h->explain);
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(ex, "terms"))
    {
        const cJSON *g[6] = {cJSON_GetObjectItemCaseSensitive(t, "weight"),
                             cJSON_GetObjectItemCaseSensitive(t, "field"),
                             cJSON_GetObjectItemCaseSensitive(t, "word"),
                             cJSON_GetObjectItemCaseSensitive(t, "stem"),
                             cJSON_GetObjectItemCaseSensitive(t, "wdf"),
                             cJSON_GetObjectItemCaseSensitive(t, "docfreq")};
        fprintf(f, "       %8.4f  %-8s %s%s  (wdf %g, in %g works)\n",
                g[0]->valuedouble, g[1]->valuestring, g[2]->valuestring,
                cJSON_IsTrue(g[3]) ? " (stem)" : "", g[4]->valuedouble,
                g[5]->valuedouble);
    }
    static const char *const boosts[2][2] = {
        {"title_boost", "title"}, {"author_boost", "author names"}};
    for (int i = 0; i < 2; i++) {
        const cJSON *bo = cJSON_GetObjectItemCaseSensitive(ex, boosts[i][0]);
        if (bo)
            fprintf(f, "       %8.4f  %s boost: %g x %.4f, the words' weight "
                       "in the %s\n",
                    cJSON_GetObjectItemCaseSensitive(bo, "score")->valuedouble,
                    boosts[i][1],
                    cJSON_GetObjectItemCaseSensitive(bo, "boost")->valuedouble,
                    cJSON_GetObjectItemCaseSensitive(bo, "words")->valuedouble,
                    boosts[i][1]);
    }
    const cJSON *px = cJSON_GetObjectItemCaseSensitive(ex, "proximity");
    if (px) {
        fprintf(f, "       %8.4f  proximity in the title (window %g):",
                cJSON_GetObjectItemCaseSensitive(px, "score")->valuedouble,
                cJSON_GetObjectItemCaseSensitive(px, "window")->valuedouble);
        const cJSON *p;
        int any = 0;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(px, "pairs"))
        {
            fprintf(f, "%s %s %.4f (co-occurrence %.3g)",
                    any++ ? ";" : "",
                    cJSON_GetObjectItemCaseSensitive(p, "pair")->valuestring,
                    cJSON_GetObjectItemCaseSensitive(p, "score")->valuedouble,
                    cJSON_GetObjectItemCaseSensitive(p, "title")->valuedouble);
        }
        fputs(any ? "\n" : " no pair near\n", f);
    }
    double other = cJSON_GetObjectItemCaseSensitive(ex, "other")->valuedouble;
    if (fabs(other) > 1e-9)
        fprintf(f, "       %8.4f  other (wildcard groups)\n", other);
    fprintf(f, "       = %.4f; length %g, mean %.1f: norm %.3f, k1 %g, b %g, "
               "length factor %.4f\n",
            cJSON_GetObjectItemCaseSensitive(ex, "score")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(ex, "doc_length")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(ex, "avg_length")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(ex, "norm_length")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(ex, "k1")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(ex, "b")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(ex, "length_factor")->valuedouble);
    cJSON_Delete(ex);
}

static void text_hit(FILE *f, const pdx_hit *h, int scored, int bold)
{
    const pdx_work *w = h->work;
    fprintf(f, "%3zu. %s", h->rank + 1, w->title_derived ? "[untitled] " : "");
    if (w->title)
        marked_text(f, w->title, h->title_highlights, h->n_title_highlights,
                    bold);
    else
        fputs("(no title)", f);
    fputc('\n', f);
    fputs("     ", f);
    size_t shown = w->n_authors < TEXT_MAX_AUTHORS ? w->n_authors
                                                   : TEXT_MAX_AUTHORS;
    for (size_t i = 0; i < shown; i++)
        fprintf(f, "%s%s", i ? ", " : "", w->authors[i]);
    /* An author an author filter matched is shown where the list is cut:
     * "A, B, C, D, E, F, ... Matched et al.". */
    size_t after = shown;
    for (size_t i = shown; h->author_matched && i < w->n_authors; i++)
        if (h->author_matched[i]) {
            fprintf(f, "%s%s", after == shown ? ", \xe2\x80\xa6 " : ", ",
                    w->authors[i]);
            after = i + 1;
        }
    if (w->n_authors > after || w->authors_truncated)
        fputs(shown ? " et al." : "et al.", f);
    if (!w->n_authors)
        fputs("(no authors)", f);
    if (w->year)
        fprintf(f, " · %d", w->year);
    for (size_t i = 0; i < w->n_categories; i++)
        fprintf(f, "%s%s", i ? " " : " · ", w->categories[i]);
    fprintf(f, "\n     id %s", w->id);
    if (scored)
        fprintf(f, " · score %.4f", h->score);
    fputc('\n', f);
    if (h->snippet)
        text_snippet(f, h, bold);
    if (h->explain)
        text_explain(f, h);
}

/* cJSON's own printing of one value, so that numbers and strings read
 * back exactly as in the cJSON-built documents. */
static int put_value(FILE *f, cJSON *v)
{
    char *s = v ? cJSON_PrintUnformatted(v) : NULL;
    cJSON_Delete(v);
    int rc = s && fputs(s, f) >= 0 ? 0 : -1;
    cJSON_free(s);
    return rc;
}

/* One hit, compact: hit_json's object, but the stored record is spliced in
 * as it is when it holds no per-source "record" (a work read from one
 * source, the common case) -- the library decoded it once already.  A
 * "record" key, or text that only looks like one, takes hit_json's way. */
static int hit_compact(FILE *f, const pdx_hit *h)
{
    const char *j = h->json;
    size_t n = strlen(j);
    if (n < 2 || j[0] != '{' || j[n - 1] != '}' || strstr(j, "\"record\":") ||
        (hide_paths && strstr(j, "\"file\":")))
        return put_value(f, hit_json(h));
    fprintf(f, "{\"rank\":%zu,\"score\":", h->rank + 1);
    if (put_value(f, cJSON_CreateNumber(round6(h->score))))
        return -1;
    if (n > 2) {
        fputc(',', f);
        fwrite(j + 1, 1, n - 2, f);
    }
    if (h->author_matched) {
        fputs(",\"matched_authors\":[", f);
        int first = 1;
        for (size_t i = 0; i < h->work->n_authors; i++) {
            if (!h->author_matched[i])
                continue;
            if (!first)
                fputc(',', f);
            first = 0;
            if (put_value(f, cJSON_CreateString(h->work->authors[i])))
                return -1;
        }
        fputc(']', f);
    }
    if (h->explain)
        fprintf(f, ",\"explain\":%s", h->explain);
    if (h->snippet) {
        fputs(",\"snippet\":", f);
        if (put_value(f, cJSON_CreateString(h->snippet)))
            return -1;
        fputs(",\"highlights\":[", f);
        for (size_t i = 0; i < h->n_highlights; i++)
            fprintf(f, "%s[%zu,%zu]", i ? "," : "", h->highlights[2 * i],
                    h->highlights[2 * i + 1]);
        fputc(']', f);
    }
    if (h->title_highlights) {
        fputs(",\"title_highlights\":[", f);
        for (size_t i = 0; i < h->n_title_highlights; i++)
            fprintf(f, "%s[%zu,%zu]", i ? "," : "",
                    h->title_highlights[2 * i], h->title_highlights[2 * i + 1]);
        fputc(']', f);
    }
    fputc('}', f);
    return ferror(f) ? -1 : 0;
}

/* out_json's document on one line: its head built with cJSON, the hits
 * spliced after it (hit_compact). */
static int out_json_compact(FILE *f, const char *query, const pdx_results *r,
                            size_t offset, size_t limit, unsigned facets)
{
    cJSON *o = cJSON_CreateObject();
    char *head = NULL;
    if (o && cJSON_AddStringToObject(o, "query", query ? query : "") &&
        !totals_json(o, r) &&
        cJSON_AddNumberToObject(o, "offset", (double)offset) &&
        cJSON_AddNumberToObject(o, "limit", (double)limit) &&
        (!pdx_results_suggestion(r) ||
         cJSON_AddStringToObject(o, "suggestion",
                                 pdx_results_suggestion(r))) &&
        !author_suggestions_json(o, r) && !facets_json(o, r, facets))
        head = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!head)
        return -1;
    size_t hn = strlen(head);
    fwrite(head, 1, hn - 1, f); /* without its closing brace */
    cJSON_free(head);
    fputs(",\"hits\":[", f);
    for (size_t i = 0; i < pdx_results_count(r); i++) {
        if (i)
            fputc(',', f);
        if (hit_compact(f, pdx_results_hit(r, i)))
            return -1;
    }
    fputs("]}\n", f);
    return ferror(f) ? -1 : 0;
}

int out_results(FILE *f, out_format fmt, const char *query,
                const pdx_results *r, size_t offset, size_t limit, int bold,
                unsigned facets)
{
    size_t n = pdx_results_count(r);
    if (fmt >= OUT_BIBTEX) { /* the page's works as citations */
        const pdx_work **works = malloc((n ? n : 1) * sizeof *works);
        if (!works)
            return -1;
        for (size_t i = 0; i < n; i++)
            works[i] = pdx_results_hit(r, i)->work;
        int rc = cite_works(f, cite_of(fmt), works, n);
        free(works);
        return rc;
    }
    if (fmt == OUT_JSON)
        return out_json(f, query, r, offset, limit, facets);
    if (fmt == OUT_JSON_COMPACT)
        return out_json_compact(f, query, r, offset, limit, facets);
    if (fmt == OUT_JSONL) {
        for (size_t i = 0; i < n; i++) {
            cJSON *h = hit_json(pdx_results_hit(r, i));
            int rc = h ? print_json(f, h, 0) : -1;
            cJSON_Delete(h);
            if (rc)
                return -1;
        }
        return 0;
    }
    size_t total = pdx_results_total(r);
    char count[32];
    out_count(count, sizeof count, total);
    if (pdx_results_total_relation(r) == PDX_TOTAL_GTE)
        fprintf(f, "%s+ matches", count);
    else
        fprintf(f, "%s match%s", count, total == 1 ? "" : "es");
    if (n)
        fprintf(f, "; showing %zu-%zu\n", offset + 1, offset + n);
    else
        fprintf(f, "%s\n", offset && total ? "; none on this page" : "");
    if (pdx_results_suggestion(r))
        fprintf(f, "did you mean: %s\n", pdx_results_suggestion(r));
    for (size_t i = 0; i < MAX_AUTHOR_FILTERS; i++)
        if (pdx_results_author_suggestion(r, i))
            fprintf(f, "did you mean: --author \"%s\"\n",
                    pdx_results_author_suggestion(r, i));
    if (n)
        fputc('\n', f);
    /* Scores are shown when there is something they rank by: a query
     * of filters alone (`author:Hinton`) scores every work 0. */
    int scored = 0;
    for (size_t i = 0; i < n && query && query[strspn(query, " \t")]; i++)
        scored |= pdx_results_hit(r, i)->score != 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc('\n', f);
        text_hit(f, pdx_results_hit(r, i), scored, bold);
    }
    facets_text(f, r, facets);
    return ferror(f) ? -1 : 0;
}
