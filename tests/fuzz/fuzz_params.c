/*
 * fuzz_params.c -- libFuzzer target for `paperdex serve`'s GET /search
 * parameters (searcher/serve_params.c).  The input is a query string,
 * split at '&' into key=value pairs (as libmicrohttpd hands them over,
 * already decoded; NUL bytes end a value, as they would there).  Whatever
 * the input, the parser must keep its promises: on success every value in
 * range (limit, offset, snippet, expand, k1, b, rank, proximity, years, facet bits, filter
 * counts), on refusal a parameter named and a reason given.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../searcher/serve_params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *keys[SERVE_MAX_PARAMS], *values[SERVE_MAX_PARAMS];
    size_t n = 0;
    char *p = buf;
    while (p && n < SERVE_MAX_PARAMS) {
        char *amp = strchr(p, '&');
        if (amp)
            *amp = '\0';
        char *eq = strchr(p, '=');
        if (eq)
            *eq = '\0';
        keys[n] = p;
        values[n++] = eq ? eq + 1 : "";
        p = amp ? amp + 1 : NULL;
    }
    serve_query sq;
    if (serve_parse_params(&sq, keys, values, n) == 0) {
        const pdx_query *q = &sq.q;
        if (q->limit > PDX_MAX_LIMIT || q->offset > 100000000 ||
            q->snippet_bytes > 100000 || q->expand_docs > 1000 ||
            q->n_categories > SERVE_MAX_FILTERS ||
            q->n_authors > SERVE_MAX_FILTERS ||
            (q->facets & ~(PDX_FACET_YEAR | PDX_FACET_CATEGORY |
                           PDX_FACET_AUTHOR | PDX_FACET_SUBJECT)) || !(q->k1 < 0 || (isfinite(q->k1) && q->k1 <= 1000)) ||
            !(q->b < 0 || (isfinite(q->b) && q->b <= 1)) ||
            !(q->proximity_weight < 0 ||
              (isfinite(q->proximity_weight) && q->proximity_weight <= 100)) ||
            (q->rank != PDX_RANK_DEFAULT && q->rank != PDX_RANK_BM25) ||
            q->year_min < 0 || q->year_max < 0 ||
            (q->year_min && q->year_max && q->year_min > q->year_max) ||
            q->version != PDX_QUERY_VERSION)
            abort();
    } else if (!sq.bad || !sq.msg[0]) {
        abort();
    }
    free(buf);
    return 0;
}
