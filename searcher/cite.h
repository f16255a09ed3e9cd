/*
 * cite.h -- works written as citations for a reference manager: BibTeX,
 * RIS and CSL-JSON (searcher/cite.c), for `search --format`, `show
 * --format` and the server's format= parameter.
 */
#ifndef PDX_CITE_H
#define PDX_CITE_H

#include <stdio.h>

#include "../common/paperdex.h"

typedef enum { CITE_BIBTEX, CITE_RIS, CITE_CSLJSON } cite_format;

/* "bibtex", "ris" or "csljson" into *out.  0, or -1 for another word. */
int cite_parse_format(const char *s, cite_format *out);

/* The media type of a format's document, for HTTP. */
const char *cite_media_type(cite_format fmt);

/* Write works[0..n) as one document of `fmt`: BibTeX entries one after
 * another (keys made unique within the document), RIS records, or one
 * CSL-JSON array.  Borrowed arguments.  0, or -1 on a write error or out
 * of memory. */
int cite_works(FILE *f, cite_format fmt, const pdx_work *const *works,
               size_t n);

#endif
