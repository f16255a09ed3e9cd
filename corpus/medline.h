/*
 * medline.h -- PubMed's MEDLINE text format (medline.c): the "PubMed"
 * format of PubMed's Save and "Send to: Citation manager" (.nbib, .txt),
 * which EndNote, Zotero, JabRef and Mendeley import.  Records are
 * assembled line by line by the reader (reader.c), as SMART's are.
 *
 * A record is tag lines, "TAG - value" with the tag left-aligned in
 * four columns ("PMID- 31452104", "TI  - Moss ..."), a value running on
 * over lines that open with six spaces, and records apart by a blank
 * line.  Read: PMID, TI, AB, FAU (else AU, "Pryce TJ" as initials), CN,
 * DP (as MedlineDate: "2019 Mar 15", "2019 Spring"), JT (else TA) as
 * venue, the DOI of LID or AID ("10.1/x [doi]"), PMC, MH (the heading,
 * without its qualifiers and star) and OT as subjects.  Every other tag
 * is passed over.
 *
 * Internal to libpaperdex.
 */
#ifndef PDX_MEDLINE_H
#define PDX_MEDLINE_H

#include <stdint.h>

#include "record.h"

/* The longest value kept, in bytes; a longer one skips the record. */
#define MEDLINE_FIELD_MAX (1u << 20)

enum { ML_PMID, ML_TI, ML_AB, ML_DP, ML_JT, ML_TA, ML_DOI, ML_PMC, ML__N };

/* A MEDLINE record being assembled. */
typedef struct medline_rec {
    strbuf f[ML__N];
    strbuf authors, subjects; /* each name NUL-ended, in order */
    size_t n_authors, n_subjects;
    strbuf value;       /* the open tag line's value, continuations joined */
    char tag[5];        /* its tag, "" when none is open */
    int fau_open;       /* the last author came from FAU: its AU follows */
    int open;           /* a PMID line has been seen, not yet finished */
    uint64_t line;      /* the line of its PMID */
    uint64_t bad_line;  /* the first line with invalid UTF-8, or 0 */
    int too_long;
} medline_rec;

/* Does s[0..n) open with a MEDLINE record ("PMID- "), after a UTF-8
 * byte order mark? */
int medline_looks_like(const char *s, size_t n);

void medline_init(medline_rec *m);
void medline_release(medline_rec *m);

/* What medline_line made of a line. */
enum {
    MEDLINE_TAKEN, /* part of the open record (or a blank between records) */
    MEDLINE_NEXT,  /* a PMID line while a record is open: finish that one
                      (medline_finish), then hand the line in again */
    MEDLINE_END,   /* a blank line that ends the open record: finish it */
    MEDLINE_STRAY  /* text outside any record */
};

/* One line of the file (no newline; a '\r' before it is dropped), its
 * number `line`: a MEDLINE_* code. */
int medline_line(medline_rec *m, const char *s, size_t n, uint64_t line);

/* Is a record open? */
int medline_open(const medline_rec *m);

/* Turn the assembled record into w (strings in a), closing it. */
pdx_skip medline_finish(medline_rec *m, arena *a, pdx_work *w, strbuf *why);

#endif
