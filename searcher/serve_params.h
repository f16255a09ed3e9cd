/*
 * serve_params.h -- the parameters of `paperdex serve`'s GET /search, as
 * libmicrohttpd hands them over (decoded key/value pairs), turned into a
 * pdx_query with every value range-checked.  Apart from cmd_serve.c so
 * that a fuzz target (tests/fuzz/fuzz_params.c) can drive it alone.
 */
#ifndef PDX_SERVE_PARAMS_H
#define PDX_SERVE_PARAMS_H

#include <stddef.h>

#include "../common/paperdex.h"
#include "output.h"

#define SERVE_MAX_PARAMS 64
#define SERVE_MAX_FILTERS 32
#define SERVE_MAX_FACET_LIMIT 100

typedef struct serve_query {
    pdx_query q;             /* its pointers point into the values given */
    const char *cats[SERVE_MAX_FILTERS], *authors[SERVE_MAX_FILTERS],
        *subjects[SERVE_MAX_FILTERS];
    out_format format;       /* format=: OUT_JSON_COMPACT (json), or a
                                citation format (bibtex, ris, csljson) */
    const char *bad;         /* the parameter refused, or NULL         */
    char msg[256];           /* why                                    */
} serve_query;

/* Parameters: q, year (2020, 2019..2021, 2019.., ..2021), category and
 * author and subject (repeatable, each value must hold as with the flags;
 * '|' between alternatives), sort (relevance, newest, oldest), limit,
 * offset, facets (year,category,author,subject), snippet (bytes), explain
 * and expand (1/0; expand also the number of works to learn from), k1, b,
 * rank, proximity, count, suggest (1/0), facet_limit
 * (1..SERVE_MAX_FACET_LIMIT), format (json, bibtex, ris, csljson).  An unknown name is refused (sq->bad names it); for a
 * repeated single-valued one the last counts.  0, or -1 with sq->bad and sq->msg set.  The
 * library checks the rest (the query's syntax, its length and UTF-8). */
int serve_parse_params(serve_query *sq, const char *const *keys,
                       const char *const *values, size_t n);

#endif
