/*
 * output.h -- how search results are printed: text for people, JSON for
 * programs.  The JSON hit is the stored record (docs/jsonl.md) plus "rank"
 * and "score", one schema for every output that shows works.
 */
#ifndef PDX_OUTPUT_H
#define PDX_OUTPUT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "../common/paperdex.h"

/* OUT_JSON_COMPACT: the OUT_JSON document on one line, written without
 * parsing each hit's stored record again where it can be spliced in as it
 * is (paperdex serve's responses). */
/* OUT_BIBTEX, OUT_RIS, OUT_CSLJSON: the page's works as citations
 * (searcher/cite.c), for a reference manager. */
typedef enum {
    OUT_TEXT,
    OUT_JSON,
    OUT_JSONL,
    OUT_JSON_COMPACT,
    OUT_BIBTEX,
    OUT_RIS,
    OUT_CSLJSON
} out_format;

/* Parse "text", "json", "jsonl", "bibtex", "ris" or "csljson".  0 or -1. */
int out_parse_format(const char *s, out_format *f);

/* Print a page of results.  With `bold`, text output marks matched words
 * in snippets with the terminal's bold; else they are plain (JSON gives
 * byte offsets).  `facets`: the PDX_FACET_* bits asked for, printed after
 * the hits (text) or as "facets" (JSON; jsonl prints hits only).  0, or
 * -1 on out-of-memory / write error. */
int out_results(FILE *f, out_format fmt, const char *query,
                const pdx_results *r, size_t offset, size_t limit, int bold,
                unsigned facets);

/* The media type of a format's document (HTTP). */
const char *out_media_type(out_format fmt);

/* A server shows no path of its own disk unless its operator asks:
 * after this call, every hit's and work's sources[].file is shown
 * relative to `root` when it lies under it (root may be NULL), else as
 * its base name.  Call once, before any thread prints. */
void out_hide_source_paths(const char *root);

/* What out_hide_source_paths shows of `path`: borrowed from path. */
const char *out_shown_path(const char *path);

/* Rewrite the sources[].file of one stored record (a parsed work), as
 * out_hide_source_paths says, when it was called; else nothing. */
void out_hide_paths_in(cJSON *rec);

#endif
