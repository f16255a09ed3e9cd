/*
 * xmlrec.h -- records from XML files, streamed with expat: MEDLINE/PubMed
 * (PubmedArticleSet: baseline and update files, DeleteCitation included)
 * and arXiv OAI-PMH responses (ListRecords or GetRecord, the arXiv and
 * arXivRaw metadata formats, deleted headers included).  See xmlrec.c.
 *
 * Internal to libpaperdex: reader.c drives it.
 */
#ifndef PDX_XMLREC_H
#define PDX_XMLREC_H

#include <stdint.h>

#include "../common/arena.h"
#include "../common/paperdex.h"
#include "record.h" /* record_read_fn */

typedef struct xmlrec xmlrec;

/* A parser for one file (`name` for messages, borrowed).  `format` is
 * PDX_FORMAT_AUTO (the root element decides), PUBMED or OAI.  With utf8
 * set the bytes are UTF-8 whatever the XML declaration says (they were
 * converted: corpus/transcode.h); else the declaration decides, as expat
 * reads it.  NULL on out-of-memory. */
xmlrec *xmlrec_new(const char *name, pdx_format format, int utf8);
void xmlrec_free(xmlrec *x);

/* 1 if the first bytes of a file (n of them) look like a file xmlrec
 * reads: '<' first, and a PubmedArticleSet or OAI-PMH element within its
 * first 4 KiB. */
int xmlrec_looks_like(const char *s, size_t n);

/* The next record, decoded into w (strings in a), *line its first line.
 *   1  a record (not yet checked with record_finish)
 *   0  the end of the file
 *  -1  a bad record, skipped: why says what, *line where
 *  -2  the file cannot be read on: why says where and what (XML is not
 *      resynchronised after a syntax error); -3 when rd failed */
int xmlrec_next(xmlrec *x, arena *a, pdx_work *w, uint64_t *line,
                strbuf *why, record_read_fn rd, void *ctx);

/* The format found (PUBMED or OAI), AUTO before the root was seen. */
pdx_format xmlrec_format(const xmlrec *x);

#endif
