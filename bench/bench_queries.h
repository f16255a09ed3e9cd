/*
 * bench_queries.h -- what the query benchmarks (pdx_qbench.c,
 * fts5_bench.c) share: the clock, and the query file compare.py writes,
 * one query per line "kind<TAB>words<TAB>filter" (kind w1, w2, w4, phrase
 * or filter; filter "year=Y", "cat=C" or empty), read and split once
 * before any timing.
 */
#ifndef PDX_BENCH_QUERIES_H
#define PDX_BENCH_QUERIES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct bench_query {
    const char *kind, *words, *filter; /* never NULL; "" when absent */
} bench_query;

/* Read the queries of path into *out (malloc'd, with the strings; never
 * freed: the process ends with the benchmark).  The count, or -1 with a
 * message on stderr. */
static inline long read_queries(const char *path, bench_query **out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t n = 0, cap = 0;
    bench_query *v = NULL;
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        if (n == cap) {
            cap = cap ? 2 * cap : 512;
            bench_query *nv = (bench_query *)realloc(v, cap * sizeof *v);
            if (!nv) {
                fclose(f);
                return -1;
            }
            v = nv;
        }
        char *line = strdup(buf), *save = NULL;
        if (!line) {
            fclose(f);
            return -1;
        }
        const char *kind = strtok_r(line, "\t", &save);
        const char *words = strtok_r(NULL, "\t", &save);
        const char *filter = strtok_r(NULL, "\t", &save);
        bench_query q = {kind ? kind : "", words ? words : "",
                         filter ? filter : ""};
        v[n++] = q;
    }
    fclose(f);
    *out = v;
    return (long)n;
}

#endif
