/*
 * reader.h -- what the indexer asks of a pdx_reader beyond the public
 * calls: that several workers reading one file decode each line once.
 *
 * `paperdex index --jobs N` with one big file (an arXiv snapshot) has
 * every worker read the whole file, and each keeps the records routed to
 * it.  Decoding (JSON, UTF-8 checks, cleaning) was then done N times; a
 * file of JSON lines can instead be shared line by line: worker k decodes
 * the lines k, k+N, k+2N, ... (counted from 0), passes over the others
 * (a memchr for their newline; the gunzip is still everyone's), and sends
 * the records it decoded for other workers through the exchange
 * (indexer/exchange.h), so that each line is decoded once.
 *
 * Internal to libpaperdex.
 */
#ifndef PDX_CORPUS_READER_H
#define PDX_CORPUS_READER_H

#include "../common/paperdex.h"

/* Make r reader k of n (n >= 2) sharing its file's lines as above.  Only
 * JSON lines and CSV files are shared; a page, a pretty-printed JSON
 * document, XML, BibTeX or SMART text is decoded whole by every reader.
 * Call before the first pdx_reader_next(). */
void reader_share_lines(pdx_reader *r, unsigned k, unsigned n);

/* 1 when r shares its file's lines: the records it delivers are decoded
 * by no other reader, and a bad line is reported by this one only.  0
 * when every reader of the file decodes all of it.  Known once r has
 * delivered its first record (or failure); 0 before. */
int reader_shares_lines(const pdx_reader *r);

/* 1 when a record skipped for reason k could not be read as written: its
 * bytes are not UTF-8, its JSON or BibTeX syntax is broken (the file may
 * end inside it: an export caught half-written), a field has the wrong
 * type or syntax, or its line is over the limit.  What the record was,
 * and so which record of the index it stands for, cannot be known: a
 * file with such a record is not read cleanly, and pdx_sync removes
 * nothing indexed from it (each record keeps its earlier version) until
 * it is.  0 for a record read whole that has nothing to index (neither
 * title nor abstract, no usable id, a page block of no style) and for a
 * work pdx_put refused (PDX_SKIP_NONE). */
int reader_skip_damages(pdx_skip k);

#endif
