/*
 * serve_params.c -- GET /search's parameters into a pdx_query (see
 * serve_params.h).  Every number is a whole decimal in its range ("1e30",
 * "-1", "nan" are refused), every word one of its list.
 */
#include "serve_params.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int refuse(serve_query *sq, const char *param, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(serve_query *sq, const char *param, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sq->msg, sizeof sq->msg, fmt, ap);
    va_end(ap);
    sq->bad = param;
    return -1;
}

/* 1/true/yes or 0/false/no ("" is 0).  0 or -1. */
static int flag(const char *s, int *out)
{
    if (!strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "yes"))
        *out = 1;
    else if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "no") || !*s)
        *out = 0;
    else
        return -1;
    return 0;
}

int serve_parse_params(serve_query *sq, const char *const *keys,
                       const char *const *values, size_t n)
{
    static const char *const single[] = {"q", "year", "sort", "limit",
                                         "offset", "facets", "snippet",
                                         "explain", "expand", "k1", "b",
                                         "rank", "proximity", "count",
                                         "suggest", "facet_limit",
                                         "format"};
    enum { NS = sizeof single / sizeof single[0] };
    const char *val[NS] = {0};
    memset(sq, 0, sizeof *sq);
    sq->q = (pdx_query)PDX_QUERY_INIT;
    sq->q.filters_all = 1; /* a facet click narrows */
    size_t nc = 0, na = 0, ns = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i] ? keys[i] : "", *v = values[i] ? values[i] : "";
        if (!strcmp(k, "category") || !strcmp(k, "author") ||
            !strcmp(k, "subject")) {
            size_t *cnt = k[0] == 'c' ? &nc : k[0] == 'a' ? &na : &ns;
            const char **list = k[0] == 'c'   ? sq->cats
                                : k[0] == 'a' ? sq->authors
                                              : sq->subjects;
            if (*cnt == SERVE_MAX_FILTERS)
                return refuse(sq, k, "at most %d %s filters",
                              SERVE_MAX_FILTERS, k);
            list[(*cnt)++] = v;
            continue;
        }
        size_t j = 0;
        while (j < NS && strcmp(k, single[j]))
            j++;
        if (j == NS) /* a misspelt name must not quietly widen a search */
            return refuse(sq, k, "unknown parameter '%.40s': /search takes q, "
                          "year, category, author, subject, sort, limit, "
                          "offset, facets, snippet, explain, expand, k1, b, "
                          "rank, proximity, count, suggest, facet_limit, format",
                          k);
        val[j] = v; /* the last one counts */
    }
    pdx_query *q = &sq->q;
    q->categories = sq->cats;
    q->n_categories = nc;
    q->authors = sq->authors;
    q->n_authors = na;
    q->subjects = sq->subjects;
    q->n_subjects = ns;
    q->text = val[0];
    const char *v;
    if ((v = val[1]) && *v && pdx_parse_year_range(v, &q->year_min, &q->year_max))
        return refuse(sq, "year", "year takes 2020, 2019..2021, 2019.., "
                      "..2021 or >=2019, not '%.60s'", v);
    if ((v = val[2]) && *v) {
        if (!strcmp(v, "relevance"))
            q->sort = PDX_SORT_RELEVANCE;
        else if (!strcmp(v, "newest"))
            q->sort = PDX_SORT_NEWEST;
        else if (!strcmp(v, "oldest"))
            q->sort = PDX_SORT_OLDEST;
        else
            return refuse(sq, "sort", "sort takes relevance, newest or "
                          "oldest, not '%.60s'", v);
    }
    if ((v = val[3]) && cli_size(v, PDX_MAX_LIMIT, &q->limit))
        return refuse(sq, "limit", "limit takes a whole number from 0 to %d",
                      PDX_MAX_LIMIT);
    if ((v = val[4]) && cli_size(v, 100000000, &q->offset))
        return refuse(sq, "offset", "offset takes a whole number from 0 to "
                      "100000000");
    if ((v = val[5]) && *v) {
        const char *p = v;
        while (*p) {
            size_t len = strcspn(p, ",");
            if (len == 4 && !strncmp(p, "year", 4))
                q->facets |= PDX_FACET_YEAR;
            else if (len == 8 && !strncmp(p, "category", 8))
                q->facets |= PDX_FACET_CATEGORY;
            else if (len == 6 && !strncmp(p, "author", 6))
                q->facets |= PDX_FACET_AUTHOR;
            else if (len == 7 && !strncmp(p, "subject", 7))
                q->facets |= PDX_FACET_SUBJECT;
            else
                return refuse(sq, "facets", "facets takes year, category, "
                              "author and subject, comma-separated");
            p += len + (p[len] == ',');
        }
    }
    if ((v = val[6]) && cli_size(v, 100000, &q->snippet_bytes))
        return refuse(sq, "snippet", "snippet takes a length in bytes from 0 "
                      "to 100000");
    if ((v = val[7]) && flag(v, &q->explain))
        return refuse(sq, "explain", "explain takes 1 or 0");
    if ((v = val[8]) && *v) {
        int on;
        if (!flag(v, &on))
            q->expand_docs = on ? PDX_DEFAULT_EXPAND_DOCS : 0;
        else if (cli_size(v, 1000, &q->expand_docs))
            return refuse(sq, "expand", "expand takes 1 or 0, or the number "
                          "of works to learn from (at most 1000)");
    }
    for (int i = 0; i < 2; i++) {
        double *d = i ? &q->b : &q->k1;
        if ((v = val[9 + i]) && *v &&
            (cli_double(v, d) || !isfinite(*d) || *d < 0 ||
             *d > (i ? 1.0 : 1000.0)))
            return refuse(sq, i ? "b" : "k1", "%s takes a number from 0 to %s",
                          i ? "b" : "k1", i ? "1" : "1000");
    }
    if ((v = val[11]) && *v) {
        if (!strcmp(v, "default"))
            q->rank = PDX_RANK_DEFAULT;
        else if (!strcmp(v, "bm25"))
            q->rank = PDX_RANK_BM25;
        else
            return refuse(sq, "rank", "rank takes default or bm25, not "
                          "'%.60s'", v);
    }
    if ((v = val[12]) && *v &&
        (cli_double(v, &q->proximity_weight) ||
         !isfinite(q->proximity_weight) || q->proximity_weight < 0 ||
         q->proximity_weight > 100))
        return refuse(sq, "proximity", "proximity takes a weight from 0 to "
                      "100");
    /* count=N: the total exact up to N (pdx_query.count_limit), as
     * Elasticsearch's track_total_hits; count=all counts every match. */
    if ((v = val[13]) && *v) {
        if (!strcmp(v, "all"))
            q->exact_total = 1;
        else if (cli_size(v, 100000000, &q->count_limit) || !q->count_limit)
            return refuse(sq, "count", "count takes a whole number from 1 to "
                          "100000000, or all");
    }
    /* suggest=0: no "did you mean" for this request (the library bounds
     * its work anyway: the first words, within the time budget). */
    int suggest = 1;
    if ((v = val[14]) && *v && flag(v, &suggest))
        return refuse(sq, "suggest", "suggest takes 1 or 0");
    q->no_suggest = !suggest;
    /* facet_limit=N: values a facet lists (the page asks for more than it
     * shows, for its "more"); each author listed is one count. */
    if ((v = val[15]) && *v &&
        (cli_size(v, SERVE_MAX_FACET_LIMIT, &q->facet_limit) || !q->facet_limit))
        return refuse(sq, "facet_limit", "facet_limit takes a whole number "
                      "from 1 to %d", SERVE_MAX_FACET_LIMIT);
    /* format=bibtex|ris|csljson: the page's works as citations */
    sq->format = OUT_JSON_COMPACT;
    if ((v = val[16]) && *v) {
        if (!strcmp(v, "bibtex"))
            sq->format = OUT_BIBTEX;
        else if (!strcmp(v, "ris"))
            sq->format = OUT_RIS;
        else if (!strcmp(v, "csljson"))
            sq->format = OUT_CSLJSON;
        else if (strcmp(v, "json"))
            return refuse(sq, "format", "format takes json, bibtex, ris or "
                          "csljson, not '%.40s'", v);
    }
    return 0;
}
