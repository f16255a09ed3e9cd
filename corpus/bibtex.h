/*
 * bibtex.h -- BibTeX entries, streamed (bibtex.c).
 *
 * Internal to libpaperdex: reader.c drives it.
 */
#ifndef PDX_BIBTEX_H
#define PDX_BIBTEX_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/paperdex.h"
#include "record.h" /* record_read_fn */

typedef struct bibtex bibtex;

/* A reader of one file (`name` borrowed, for messages); NULL on OOM. */
bibtex *bibtex_new(const char *name);
void bibtex_free(bibtex *b);

/* 1 if the first n bytes of a file look like BibTeX: its first non-blank
 * byte is '@', or '%' (a comment line) with an '@' further on. */
int bibtex_looks_like(const char *s, size_t n);

/* The next entry, into w (strings in a), *line the line of its '@'.
 * 1 a record (not yet checked by record_finish), 0 the end, -1 a bad
 * entry skipped (why says what, bibtex_skip_kind of what kind), -2 out
 * of memory, -3 rd failed. */
int bibtex_next(bibtex *b, arena *a, pdx_work *w, uint64_t *line,
                strbuf *why, record_read_fn rd, void *ctx);

/* Why the entry bibtex_next last skipped was skipped: PDX_SKIP_FIELD for
 * broken syntax (an entry or value not closed, the file ending inside
 * one) and for a field it cannot read, PDX_SKIP_UTF8 for bytes that are
 * not UTF-8, PDX_SKIP_EMPTY or PDX_SKIP_ID for an entry read whole with
 * nothing to index. */
pdx_skip bibtex_skip_kind(const bibtex *b);

#endif
