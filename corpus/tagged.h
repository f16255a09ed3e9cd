/*
 * tagged.h -- the tagged-line formats of reference managers and PubMed
 * (tagged.c), records assembled line by line by the reader (reader.c),
 * as SMART's are:
 *
 *   MEDLINE text  PubMed's "PubMed" format: its Save and "Send to:
 *                 Citation manager" (.nbib, .txt), which EndNote,
 *                 Zotero, JabRef and Mendeley import.  A record opens
 *                 with its PMID line and ends at a blank line.
 *   RIS           (.ris) what Scopus, Web of Science, EndNote, Zotero,
 *                 Mendeley and paperdex's own `--format ris` export.  A
 *                 record opens with TY and ends with ER.
 *
 * Both are tag lines, "TAG - value" with the tag left-aligned in four
 * columns ("PMID- 31452104", "TI  - Moss ..."), a value running on over
 * lines that open with spaces.  What each tag gives is in
 * docs/formats.md and beside the tags in tagged.c; every other tag is
 * passed over.
 *
 * Internal to libpaperdex.
 */
#ifndef PDX_TAGGED_H
#define PDX_TAGGED_H

#include <stdint.h>

#include "record.h"

/* The longest value kept, in bytes; a longer one skips the record. */
#define TAGGED_FIELD_MAX (1u << 20)

typedef enum { TAGGED_MEDLINE, TAGGED_RIS } tagged_kind;

/* A record's fields, as the tags of either format give them. */
enum { TG_PMID, TG_TITLE, TG_ABSTRACT, TG_DATE, TG_YEAR, TG_VENUE,
       TG_VENUE2, TG_DOI, TG_PMC, TG_URL_DOI, TG_ARXIV, TG_KEY, TG_AN, TG_DB,
       TG_Y1, TG__N };

/* A record being assembled. */
typedef struct tagged_rec {
    tagged_kind kind;
    strbuf f[TG__N];
    record_list authors, subjects;
    strbuf value;       /* the open tag line's value, continuations joined */
    char tag[5];        /* its tag, "" when none is open */
    int fau_open;       /* MEDLINE: the last author came from FAU */
    int open;           /* a record has begun and not yet been finished */
    uint64_t line;      /* the line it began on */
    uint64_t bad_line;  /* the first line with invalid UTF-8, or 0 */
    int too_long;
} tagged_rec;

/* Does s[0..n) open with a record of either format ("PMID- ", "TY  - "),
 * after a UTF-8 byte order mark?  Its kind into *kind. */
int tagged_looks_like(const char *s, size_t n, tagged_kind *kind);

void tagged_init(tagged_rec *t, tagged_kind kind);
void tagged_release(tagged_rec *t);

/* What tagged_line made of a line. */
enum {
    TAGGED_TAKEN, /* part of the open record (or a blank between records) */
    TAGGED_NEXT,  /* a line that opens a record while one is open: finish
                     that one (tagged_finish), then hand the line in again */
    TAGGED_END,   /* the line ends the open record: finish it */
    TAGGED_STRAY  /* text outside any record */
};

/* One line of the file (no newline; a '\r' before it is dropped), its
 * number `line`: a TAGGED_* code. */
int tagged_line(tagged_rec *t, const char *s, size_t n, uint64_t line);

/* Is a record open? */
int tagged_open(const tagged_rec *t);

/* Throw the assembled record away, closing it (a record the file ends
 * inside). */
void tagged_drop(tagged_rec *t);

/* Turn the assembled record into w (strings in a), closing it. */
pdx_skip tagged_finish(tagged_rec *t, arena *a, pdx_work *w, strbuf *why);

#endif
