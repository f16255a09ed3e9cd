/*
 * batch.h -- running a file of queries (batch.c).
 */
#ifndef PDX_BATCH_H
#define PDX_BATCH_H

#include <stdio.h>

#include "../common/paperdex.h"

typedef enum { BATCH_TREC, BATCH_JSONL } batch_format;

/* Run every query in `path` (BEIR JSON lines, SMART, or qid<TAB>text;
 * see batch.c) with the options of `base`, printing the hits to out: TREC
 * run lines "qid Q0 docid rank score tag", or JSON lines with "qid".
 * Returns a CLI exit status: 0, or 1 if the file could not be read or
 * any query failed (each reported on stderr as FILE:LINE). */
int search_batch(pdx_index *ix, const pdx_query *base, const char *path,
                 batch_format fmt, const char *tag, FILE *out);

#endif
