/*
 * testcoll.c -- the two formats IR test collections come in, read as
 * records like any other source, so that paperdex can be measured on them
 * with the code users run (bench/eval.sh).
 *
 * SMART (Salton's format: CACM, CISI, MED, CRAN, ...).  A record starts at
 * a line ".I <number>"; lines ".X" (one upper-case letter, alone or
 * followed by a space) open a field, and the lines after it are its text
 * until the next marker.  Used here:
 *   .I  the document (or query) number: the record's id, as the
 *       collection's relevance judgments name it
 *   .T  title            .W  abstract (a query's text, in a query file)
 *   .A  authors, one per line, "Family, Given" or "Given Family"
 *   .B  publication ("CACM December, 1958"): the year and month are read
 *       from it
 * Every other field (.N, .X, .K, .C, ...) is read and ignored: real
 * variants add and drop fields.  Text before the first .I is reported
 * once and skipped.
 *
 * BEIR corpus and query files are JSON lines {"_id", "title", "text",
 * "metadata"}: _id is the id, text the abstract.
 *
 * Both formats' ids are the collection's own, so no two of its documents
 * ever merge (merge.c, rule 3); index one collection per index, since two
 * collections numbered alike would share ids.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/text.h"
#include "record.h"
#include "testcoll.h"

/* ---------------------------------------------------------------- BEIR */

int beir_looks_like(const cJSON *obj)
{
    return cJSON_GetObjectItemCaseSensitive(obj, "_id") != NULL &&
           cJSON_GetObjectItemCaseSensitive(obj, "id") == NULL;
}

pdx_skip beir_decode(arena *a, pdx_work *w, const cJSON *obj, strbuf *why)
{
    *w = (pdx_work)PDX_WORK_INIT;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(obj, "_id");
    if (cJSON_IsNumber(id)) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%.0f", id->valuedouble);
        w->id = arena_strdup(a, tmp);
    } else if (rec_string(a, obj, "_id", REC_AS_IS, &w->id, why)) {
        return PDX_SKIP_FIELD;
    }
    if (!w->id) {
        sb_puts(why, "record has no \"_id\"");
        return PDX_SKIP_ID;
    }
    if (rec_string(a, obj, "title", REC_COLLAPSE, &w->title, why) ||
        rec_string(a, obj, "text", REC_COLLAPSE, &w->abstract, why))
        return PDX_SKIP_FIELD;
    return PDX_SKIP_NONE;
}

/* --------------------------------------------------------------- SMART */

int smart_marker(const char *s, size_t n)
{
    if (n >= 2 && s[0] == '.' && s[1] >= 'A' && s[1] <= 'Z' &&
        (n == 2 || s[2] == ' ' || s[2] == '\t' || s[2] == '\r'))
        return s[1];
    return 0;
}

void smart_init(smart_rec *sr)
{
    memset(sr, 0, sizeof *sr);
    for (int i = 0; i < SMART__N; i++)
        sr->f[i] = (strbuf)STRBUF_INIT;
}

void smart_release(smart_rec *sr)
{
    for (int i = 0; i < SMART__N; i++)
        sb_release(&sr->f[i]);
}

void smart_start(smart_rec *sr, const char *rest, size_t n, uint64_t line)
{
    for (int i = 0; i < SMART__N; i++)
        sb_clear(&sr->f[i]);
    while (n && isspace((unsigned char)*rest))
        rest++, n--;
    while (n && isspace((unsigned char)rest[n - 1]))
        n--;
    sb_append(&sr->f[SMART_ID], rest, n);
    sr->open = 1;
    sr->field = -1;
    sr->line = line;
    sr->bad_line = 0;
    sr->too_long = 0;
}

void smart_field(smart_rec *sr, int letter)
{
    switch (letter) {
    case 'T': sr->field = SMART_T; break;
    case 'W': sr->field = SMART_W; break;
    case 'A': sr->field = SMART_A; break;
    case 'B': sr->field = SMART_B; break;
    default: sr->field = -1; break; /* a field paperdex does not use */
    }
}

void smart_text(smart_rec *sr, const char *s, size_t n, uint64_t line)
{
    size_t bad;
    if (sr->field < 0)
        return;
    if (!sr->bad_line && !text_utf8_valid(s, n, &bad))
        sr->bad_line = line;
    strbuf *b = &sr->f[sr->field];
    if (b->len + n + 1 > SMART_FIELD_MAX) {
        sr->too_long = 1;
        return;
    }
    if (b->len)
        sb_putc(b, '\n');
    sb_append(b, s, n);
}

static const char *const months[] = {
    "january", "february", "march", "april", "may", "june", "july",
    "august", "september", "october", "november", "december"};

/* 1..12 if the word w[0..n) names a month ("Dec", "December", "dec."),
 * else 0. */
static int month_of(const char *w, size_t n)
{
    if (n < 3)
        return 0;
    for (int m = 0; m < 12; m++)
        if (n <= strlen(months[m]) && !strncasecmp(w, months[m], n))
            return m + 1;
    return 0;
}

/* "CACM December, 1958" -> "1958-12"; a year alone -> "1958"; NULL if
 * there is no plausible year (1600..2999; the last one wins). */
static const char *smart_date(arena *a, const char *b)
{
    int year = 0, month = 0;
    const char *p = b;
    while (*p) {
        const char *e = p;
        if (isdigit((unsigned char)*p)) {
            while (isalnum((unsigned char)*e))
                e++;
            if (e - p == 4 && isdigit((unsigned char)p[1]) &&
                isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3])) {
                int y = atoi(p);
                if (y >= 1600 && y <= 2999)
                    year = y;
            }
        } else if (isalpha((unsigned char)*p)) {
            while (isalpha((unsigned char)*e))
                e++;
            if (!month)
                month = month_of(p, (size_t)(e - p));
        } else {
            e++;
        }
        p = e;
    }
    if (!year)
        return NULL;
    char tmp[16];
    if (month)
        snprintf(tmp, sizeof tmp, "%04d-%02d", year, month);
    else
        snprintf(tmp, sizeof tmp, "%04d", year);
    return arena_strdup(a, tmp);
}

/* One author line: "Perlis, A. J." -> "A. J. Perlis"; "Samelson,K." ->
 * "K. Samelson"; "Given Family" stays.  NULL for a blank line. */
static const char *smart_author(arena *a, const char *s, size_t n)
{
    char *line = arena_strndup(a, s, n);
    const char *c = line ? text_collapse(a, line) : NULL;
    if (!c || !*c)
        return NULL;
    const char *comma = strchr(c, ',');
    if (!comma)
        return c;
    const char *given = comma + 1;
    while (*given == ' ')
        given++;
    size_t nf = (size_t)(comma - c);
    while (nf && c[nf - 1] == ' ')
        nf--;
    if (!*given || !nf)
        return arena_strndup(a, c, nf ? nf : strlen(c));
    size_t ng = strlen(given);
    char *out = arena_alloc(a, ng + 1 + nf + 1);
    if (!out)
        return NULL;
    memcpy(out, given, ng);
    out[ng] = ' ';
    memcpy(out + ng + 1, c, nf);
    out[ng + 1 + nf] = '\0';
    return out;
}

pdx_skip smart_finish(smart_rec *sr, arena *a, pdx_work *w, strbuf *why)
{
    *w = (pdx_work)PDX_WORK_INIT;
    sr->open = 0;
    for (int i = 0; i < SMART__N; i++)
        if (!sr->f[i].ok) {
            sb_puts(why, "out of memory");
            return PDX_SKIP_FIELD;
        }
    if (sr->bad_line) {
        sb_printf(why, "invalid UTF-8 on line %llu",
                  (unsigned long long)sr->bad_line);
        return PDX_SKIP_UTF8;
    }
    if (sr->too_long) {
        sb_printf(why, "a field longer than %u bytes", SMART_FIELD_MAX);
        return PDX_SKIP_TOOLONG;
    }
    const strbuf *id = &sr->f[SMART_ID];
    if (!id->len || memchr(id->s, ' ', id->len) || memchr(id->s, '\t', id->len)) {
        sb_puts(why, ".I is not followed by one document number");
        return PDX_SKIP_ID;
    }
    if (!text_utf8_valid(id->s, id->len, &(size_t){0})) {
        sb_puts(why, "invalid UTF-8 in the .I number");
        return PDX_SKIP_UTF8;
    }
    w->id = arena_strndup(a, id->s, id->len);
    if (sr->f[SMART_T].len) {
        w->title = text_collapse(a, sr->f[SMART_T].s);
        if (w->title && !*w->title)
            w->title = NULL;
    }
    if (sr->f[SMART_W].len) {
        w->abstract = text_collapse(a, sr->f[SMART_W].s);
        if (w->abstract && !*w->abstract)
            w->abstract = NULL;
    }
    if (sr->f[SMART_B].len) {
        w->date = smart_date(a, sr->f[SMART_B].s);
        if (w->date)
            w->year = atoi(w->date);
    }
    const strbuf *au = &sr->f[SMART_A];
    if (au->len) {
        size_t cap = 1;
        for (size_t i = 0; i < au->len; i++)
            cap += au->s[i] == '\n' || au->s[i] == ';';
        const char **list = arena_alloc(a, cap * sizeof *list);
        size_t n = 0;
        if (!list) {
            sb_puts(why, "out of memory");
            return PDX_SKIP_FIELD;
        }
        const char *p = au->s, *end = au->s + au->len;
        while (p < end) {
            const char *q = p;
            while (q < end && *q != '\n' && *q != ';')
                q++;
            const char *name = smart_author(a, p, (size_t)(q - p));
            if (name && n < cap)
                list[n++] = name;
            p = q + 1;
        }
        w->authors = list;
        w->n_authors = n;
    }
    if (!w->id) {
        sb_puts(why, "out of memory");
        return PDX_SKIP_FIELD;
    }
    return PDX_SKIP_NONE;
}
