/* example.c -- embed paperdex: search an index, print the top hits.
 *   cc example.c $(pkg-config --cflags --libs paperdex) -o example
 *   ./example INDEX "graph neural networks" [FROM_YEAR]            */
#include <paperdex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s INDEX QUERY [FROM_YEAR]\n", argv[0]);
        return 2;
    }
    if (strcmp(pdx_version(), PDX_VERSION) != 0)
        fprintf(stderr, "warning: built against %s, running %s\n",
                PDX_VERSION, pdx_version());
    pdx_index *ix = NULL;
    if (pdx_open(&ix, argv[1], PDX_OPEN_READ) != 0) {
        fprintf(stderr, "open: %s\n", pdx_errmsg(ix));
        pdx_close(ix);
        return 1;
    }
    pdx_query q = PDX_QUERY_INIT;   /* BM25 defaults, 10 hits */
    q.text = argv[2];
    q.year_min = argc > 3 ? atoi(argv[3]) : 0;
    q.limit = 5;
    pdx_results *res = NULL;        /* ours: freed below */
    if (pdx_search(&res, ix, &q) != 0) {
        fprintf(stderr, "search: %s\n", pdx_errmsg(ix));
        pdx_close(ix);
        return 1;
    }
    for (size_t i = 0; i < pdx_results_count(res); i++) {
        const pdx_hit *h = pdx_results_hit(res, i);  /* borrowed */
        printf("%zu\t%.3f\t%s\t%d\t%s\n", h->rank + 1, h->score,
               h->work->id, h->work->year, h->work->title);
    }
    pdx_results_free(res);
    pdx_close(ix);
    return 0;
}
