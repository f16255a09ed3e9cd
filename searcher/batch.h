/*
 * batch.h -- running a file of queries (batch.c).
 */
#ifndef PDX_BATCH_H
#define PDX_BATCH_H

#include <stdio.h>

#include "../common/paperdex.h"

typedef enum { BATCH_TREC, BATCH_JSONL } batch_format;

/* One query of a query file, and where it was. */
typedef struct batch_query {
    char *qid;  /* non-empty, valid UTF-8, no whitespace or control byte */
    char *text; /* as written, plus author: clauses (SMART .A) */
    unsigned long long line;
} batch_query;

typedef struct batch_queries {
    batch_query *v;
    size_t n, cap;
} batch_queries;

/* Read every query of `path` into *out (zeroed by the caller; free it with
 * batch_queries_free whatever the result).  0, or -1 when the file cannot
 * be read at all; each bad entry is reported on stderr as FILE:LINE and
 * counted in *bad, and reading goes on.  The parser behind --batch, and
 * the entry point of tests/fuzz/fuzz_batch.c. */
int batch_read_queries(batch_queries *out, const char *path, int *bad);
void batch_queries_free(batch_queries *l);

/* Run every query in `path` (BEIR JSON lines, SMART, or qid<TAB>text;
 * see batch.c) with the options of `base`, printing the hits to out: TREC
 * run lines "qid Q0 docid rank score tag", or JSON lines with "qid".
 * Returns a CLI exit status: 0, or 1 if the file could not be read or
 * any query failed (each reported on stderr as FILE:LINE). */
int search_batch(pdx_index *ix, const pdx_query *base, const char *path,
                 batch_format fmt, const char *tag, FILE *out);

#endif
