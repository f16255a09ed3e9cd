/*
 * fuzz_query.c -- libFuzzer target for the query path: the input is a
 * query string, run through pdx_search (query parser, field processors,
 * operator and parenthesis checks, wildcards, snippets and their
 * highlights, CJK text's among them) against a small index built on the
 * first call.  Any outcome but a crash is fine, as long
 * as the library keeps its promises: a known error code with a message,
 * or results no longer than the limit.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/paperdex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pdx_index *ix;
static char dir[] = "/tmp/pdx-fuzz-query-XXXXXX";

static void cleanup(void)
{
    char cmd[128];
    pdx_close(ix);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static void build(void)
{
    if (!mkdtemp(dir))
        abort();
    pdx_index *w = NULL;
    if (pdx_open(&w, dir, PDX_OPEN_WRITE | PDX_OPEN_CREATE))
        abort();
    const char *titles[] = {"Graph neural networks for molecules",
                            "PP-OCRv3: lightweight OCR", "ERNIE 3.0 Titan",
                            "Optimal optimisation of optimizers",
                            "Glacier radar and coral sonar \xe5\x86\xb0\xe5\xb7\x9d\xe9\x9b\xb7\xe8\xbe\xbe"};
    const char *cats[] = {"cs.LG", "cs.CV", "cs.CL", "math.OC", "eess.SP"};
    const char *authors[] = {"Zhihua Wu", "Bal\xc3\xa1zs Szegedy",
                             "Se\xc3\xa1n \xc3\x93 Conaill", "Chiara De Santis"};
    for (int i = 0; i < 5; i++) {
        char id[16];
        snprintf(id, sizeof id, "q%d", i);
        pdx_work wk = PDX_WORK_INIT;
        wk.id = id;
        wk.title = titles[i];
        wk.abstract = i == 4 ? "CJK text: \xe5\x86\xb0\xe5\xb7\x9d\xe9\x9b\xb7\xe8\xbe\xbe"
                               "\xe6\xb5\x8b\xe9\x87\x8f of glaciers, and "
                               "\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4 words."
                             : "An abstract with networks, BERT-large, 0.9B, "
                               "k-means++, C# and \"quoted\" words (and "
                               "parentheses), i.i.d. in the U.S., e.g. at 9 a.m.";
        wk.categories = &cats[i];
        wk.n_categories = 1;
        wk.authors = authors;
        wk.n_authors = 4;
        wk.year = 2018 + i;
        if (pdx_put(w, &wk))
            abort();
    }
    if (pdx_commit(w))
        abort();
    pdx_close(w);
    if (pdx_open(&ix, dir, PDX_OPEN_READ))
        abort();
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ix)
        build();
    if (size > 2 * PDX_MAX_QUERY_BYTES)
        size = 2 * PDX_MAX_QUERY_BYTES;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (int variant = 0; variant < 3; variant++) {
        pdx_query q = PDX_QUERY_INIT;
        const char *cat[] = {"cs"};
        q.text = text;
        q.limit = 3;
        q.sort = variant == 1 ? PDX_SORT_NEWEST : PDX_SORT_AUTO;
        if (variant == 2) {
            q.categories = cat;
            q.n_categories = 1;
            q.exact_total = 1;
        }
        pdx_results *r = NULL;
        int rc = pdx_search(&r, ix, &q);
        if (rc == 0) {
            if (pdx_results_count(r) > q.limit)
                abort();
            for (size_t i = 0; i < pdx_results_count(r); i++) {
                const pdx_hit *h = pdx_results_hit(r, i);
                for (size_t k = 0; k < 2 * h->n_highlights; k++)
                    if (!h->snippet || h->highlights[k] > strlen(h->snippet))
                        abort();
                for (size_t k = 0; k < 2 * h->n_title_highlights; k++)
                    if (!h->work->title ||
                        h->title_highlights[k] > strlen(h->work->title))
                        abort();
            }
        } else if (rc != PDX_EQUERY && rc != PDX_EINVAL) {
            fprintf(stderr, "unexpected %d: %s\n", rc, pdx_errmsg(ix));
            abort();
        } else if (!*pdx_errmsg(ix)) {
            abort(); /* an error always says why */
        }
        pdx_results_free(r);
    }
    free(text);
    return 0;
}
