/*
 * pdx_qbench.c -- the paperdex side of bench/compare.py's query
 * benchmark: one open handle (as an embedding program keeps one), the
 * queries of a file run one after another, each timed around pdx_search().
 *
 *   pdx_qbench QUERIES REPEAT DB [DB...]
 *
 * QUERIES lines are "kind<TAB>words<TAB>filter" (see fts5_bench.c): the
 * words are OR-ed (paperdex's default), a "phrase" kind is quoted, filter
 * "year=Y" (or a range, "year=2015..2020"), "cat=C" or "author=NAME"
 * becomes pdx_query's year, category
 * or author filter (words may then be empty: the filter alone).  Top
 * 10, BM25 with the library's defaults, no snippet (unless
 * PDX_QBENCH_SNIPPET=N) and no spelling suggestion (FTS5 makes neither).  Several DBs are searched as one
 * (pdx_open_shards; tcp://HOST:PORT for xapian-tcpsrv).  Prints one JSON
 * line with every query's latency in microseconds.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../common/paperdex.h"
#include "bench_queries.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: pdx_qbench QUERIES REPEAT DB [DB...]\n");
        return 2;
    }
    int repeat = atoi(argv[2]);
    /* PDX_QBENCH_SNIPPET=N: each hit with an N-byte snippet, as the CLI
     * shows it (compare.py's whole-title run measures what they cost). */
    const char *snip = getenv("PDX_QBENCH_SNIPPET");
    size_t snippet_bytes = snip ? (size_t)atol(snip) : 0;
    /* PDX_QBENCH_RANK=bm25|default, PDX_QBENCH_PROXIMITY=X,
     * PDX_QBENCH_TITLE=X: pdx_query's rank, proximity_weight and
     * title_weight, as --rank, --proximity-weight and --title-weight set
     * them (bench/titles.py compares rankings); unset, the defaults. */
    const char *rank_s = getenv("PDX_QBENCH_RANK");
    const char *prox_s = getenv("PDX_QBENCH_PROXIMITY");
    const char *title_s = getenv("PDX_QBENCH_TITLE");
    int rank = rank_s && !strcmp(rank_s, "bm25") ? PDX_RANK_BM25
                                                 : PDX_RANK_DEFAULT;
    double proximity = prox_s ? atof(prox_s) : -1.0;
    double title_weight = title_s ? atof(title_s) : -1.0;
    /* PDX_QBENCH_COUNT=N: pdx_query.count_limit (the total exact up to N;
     * 10 is about what a top-10 match counts by itself); unset, the
     * default (PDX_DEFAULT_COUNT_LIMIT). */
    const char *count_s = getenv("PDX_QBENCH_COUNT");
    size_t count_limit = count_s ? (size_t)atol(count_s) : 0;
    /* PDX_QBENCH_FACETS=N: every facet counted, N values kept each, as
     * the search page asks (bench/serve_load.py's page mix); unset, none. */
    const char *facets_s = getenv("PDX_QBENCH_FACETS");
    size_t facet_limit = facets_s ? (size_t)atol(facets_s) : 0;
    /* PDX_QBENCH_BUDGET=MS: pdx_query.time_limit, as paperdex serve's
     * --time-budget sets it (1,000 ms by default there); unset, none. */
    const char *budget_s = getenv("PDX_QBENCH_BUDGET");
    double budget = budget_s ? atof(budget_s) / 1000.0 : 0.0;
    pdx_index *ix = NULL;
    if (pdx_open_shards(&ix, (const char *const *)argv + 3,
                        (size_t)(argc - 3))) {
        fprintf(stderr, "pdx_qbench: %s\n", pdx_errmsg(ix));
        return 1;
    }
    bench_query *qs = NULL;
    long nq = read_queries(argv[1], &qs);
    if (nq < 0)
        return 1;
    /* PDX_QBENCH_IDS=FILE: the first pass's hits, one line a query, their
     * ids tab-separated (bench/matcher.py compares them with
     * xapian_floor's). */
    const char *ids_path = getenv("PDX_QBENCH_IDS");
    FILE *ids = NULL;
    if (ids_path && !(ids = fopen(ids_path, "w"))) {
        perror(ids_path);
        return 1;
    }
    /* PDX_QBENCH_HITS=FILE: the last pass's answers, one line a query:
     * the total's estimate and bounds, then each hit's id and score (to
     * 17 digits), tab-separated: a handle's later passes may be scored
     * another way than its first (searcher/bm25.cc), and must give
     * the same answers. */
    const char *hits_path = getenv("PDX_QBENCH_HITS");
    FILE *hitsf = NULL;
    if (hits_path && !(hitsf = fopen(hits_path, "w"))) {
        perror(hits_path);
        return 1;
    }
    printf("{\"latency_us\": [");
    long long hits = 0;
    double t0 = now();
    for (int r = 0; r < repeat; r++)
        for (long i = 0; i < nq; i++) {
            const char *kind = qs[i].kind, *words = qs[i].words,
                       *filter = qs[i].filter;
            char text[2048];
            if (!strcmp(kind, "phrase"))
                snprintf(text, sizeof text, "\"%s\"", words);
            else
                snprintf(text, sizeof text, "%s", words);
            pdx_query q = PDX_QUERY_INIT;
            const char *cat[1], *author[1];
            q.text = text;
            q.limit = 10;
            q.snippet_bytes = snippet_bytes;
            q.no_suggest = 1;
            q.rank = rank;
            q.count_limit = count_limit;
            q.time_limit = budget;
            q.proximity_weight = proximity;
            q.title_weight = title_weight;
            if (facet_limit) {
                q.facets = PDX_FACET_YEAR | PDX_FACET_CATEGORY |
                           PDX_FACET_AUTHOR | PDX_FACET_SUBJECT;
                q.facet_limit = facet_limit;
            }
            if (!strncmp(filter, "year=", 5)) {
                /* a year or a range ("2015..2020", "2015..") */
                if (pdx_parse_year_range(filter + 5, &q.year_min,
                                         &q.year_max))
                    q.year_min = q.year_max = atoi(filter + 5);
            } else if (!strncmp(filter, "cat=", 4)) {
                cat[0] = filter + 4;
                q.categories = cat;
                q.n_categories = 1;
            } else if (!strncmp(filter, "author=", 7)) {
                author[0] = filter + 7;
                q.authors = author;
                q.n_authors = 1;
            }
            pdx_results *res = NULL;
            double q0 = now();
            int rc = pdx_search(&res, ix, &q);
            double q1 = now();
            if (rc) {
                fprintf(stderr, "pdx_qbench: %s: %s\n", text, pdx_errmsg(ix));
                return 1;
            }
            hits += (long long)pdx_results_count(res);
            if (ids && r == 0) {
                for (size_t k = 0; k < pdx_results_count(res); k++)
                    fprintf(ids, "%s%s", k ? "\t" : "",
                            pdx_results_hit(res, k)->work->id);
                fputc('\n', ids);
            }
            if (hitsf && r == repeat - 1) {
                fprintf(hitsf, "%zu %zu %zu", pdx_results_total(res),
                        pdx_results_total_lower(res),
                        pdx_results_total_upper(res));
                for (size_t k = 0; k < pdx_results_count(res); k++)
                    fprintf(hitsf, "\t%s:%.17g", pdx_results_hit(res, k)->work->id,
                            pdx_results_hit(res, k)->score);
                fputc('\n', hitsf);
            }
            pdx_results_free(res);
            printf("%s%.1f", r || i ? ", " : "", (q1 - q0) * 1e6);
        }
    double t1 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("], \"seconds\": %.3f, \"hits\": %lld, \"peak_rss_kb\": %ld}\n",
           t1 - t0, hits, ru.ru_maxrss);
    pdx_close(ix);
    if (ids && fclose(ids) != 0) {
        perror(ids_path);
        return 1;
    }
    if (hitsf && fclose(hitsf) != 0) {
        perror(hits_path);
        return 1;
    }
    return 0;
}
