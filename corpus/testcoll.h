/*
 * testcoll.h -- IR test-collection formats (testcoll.c): SMART records
 * assembled line by line by the reader, and BEIR JSON lines.
 *
 * Internal to libpaperdex.
 */
#ifndef PDX_TESTCOLL_H
#define PDX_TESTCOLL_H

#include <stdint.h>

#include "record.h"

/* Is obj a BEIR record ({"_id", ...} without our "id")? */
int beir_looks_like(const cJSON *obj);
/* Map a BEIR corpus or query object onto w. */
pdx_skip beir_decode(arena *a, pdx_work *w, const cJSON *obj, strbuf *why);

/* The longest SMART field kept, in bytes; a longer one skips the record. */
#define SMART_FIELD_MAX (1u << 20)

enum { SMART_ID, SMART_T, SMART_W, SMART_A, SMART_B, SMART__N };

/* A SMART record being assembled. */
typedef struct smart_rec {
    strbuf f[SMART__N];
    int open;          /* a .I has been seen and not yet finished */
    int field;         /* the field lines go to, or -1 (ignored field) */
    uint64_t line;     /* the line of its .I */
    uint64_t bad_line; /* first line with invalid UTF-8, or 0 */
    int too_long;
} smart_rec;

/* The field letter if s[0..n) is a marker line (".I 12", ".W"), else 0. */
int smart_marker(const char *s, size_t n);

void smart_init(smart_rec *sr);
void smart_release(smart_rec *sr);
/* Start a record at a ".I" line; rest is the text after ".I". */
void smart_start(smart_rec *sr, const char *rest, size_t n, uint64_t line);
/* A marker of another field: its lines follow. */
void smart_field(smart_rec *sr, int letter);
/* A text line of the current field. */
void smart_text(smart_rec *sr, const char *s, size_t n, uint64_t line);
/* Turn the assembled record into w (strings in a), closing it. */
pdx_skip smart_finish(smart_rec *sr, arena *a, pdx_work *w, strbuf *why);

#endif
