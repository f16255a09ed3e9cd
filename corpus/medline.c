/*
 * medline.c -- PubMed's MEDLINE text format, record by record: its tag
 * lines gathered into one record, then the record as a work
 * (medline.h has the format and what is read).
 *
 * Authors.  PubMed writes each author twice, FAU ("Pryce, Tomos J") then
 * AU ("Pryce TJ"); older records and some exports have only AU.  An AU
 * right after an FAU is the same author and is passed over; an AU alone
 * is written with its initials apart ("T. J. Pryce"), as the XML reader
 * writes MEDLINE's Initials, so that author filters know them for
 * initials.
 */
#include "medline.h"

#include <string.h>

#include "../common/text.h"

int medline_looks_like(const char *s, size_t n)
{
    if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
        s += 3;
        n -= 3;
    }
    return n >= 6 && !memcmp(s, "PMID- ", 6);
}

void medline_init(medline_rec *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < ML__N; i++)
        m->f[i] = (strbuf)STRBUF_INIT;
    m->authors = m->subjects = m->value = (strbuf)STRBUF_INIT;
}

void medline_release(medline_rec *m)
{
    for (int i = 0; i < ML__N; i++)
        sb_release(&m->f[i]);
    sb_release(&m->authors);
    sb_release(&m->subjects);
    sb_release(&m->value);
}

int medline_open(const medline_rec *m) { return m->open; }

static void list_add(strbuf *l, size_t *n, const char *s, size_t len)
{
    if (!len)
        return;
    sb_append(l, s, len);
    sb_putc(l, '\0');
    (*n)++;
}

/* "Family, Given" as "Given Family" ("Pryce, Tomos J" -> "Tomos J
 * Pryce"); a name without a comma as it is. */
static void add_full(medline_rec *m, const char *v, size_t n)
{
    const char *c = memchr(v, ',', n);
    if (!c) {
        list_add(&m->authors, &m->n_authors, v, n);
        return;
    }
    const char *g = c + 1;
    while (g < v + n && *g == ' ')
        g++;
    strbuf t = STRBUF_INIT;
    if (g < v + n) {
        sb_append(&t, g, (size_t)(v + n - g));
        sb_putc(&t, ' ');
    }
    sb_append(&t, v, (size_t)(c - v));
    if (t.ok)
        list_add(&m->authors, &m->n_authors, t.s, t.len);
    sb_release(&t);
}

/* "Pryce TJ" as "T. J. Pryce": a last word of one to four capitals is
 * the initials; any other name as it is. */
static void add_initials(medline_rec *m, const char *v, size_t n)
{
    const char *sp = NULL;
    for (const char *p = v + n; p > v; p--)
        if (p[-1] == ' ') {
            sp = p - 1;
            break;
        }
    size_t k = sp ? (size_t)(v + n - sp - 1) : 0;
    int caps = k >= 1 && k <= 4;
    for (size_t i = 0; caps && i < k; i++)
        caps = sp[1 + i] >= 'A' && sp[1 + i] <= 'Z';
    if (!caps) {
        list_add(&m->authors, &m->n_authors, v, n);
        return;
    }
    strbuf t = STRBUF_INIT;
    for (size_t i = 0; i < k; i++) {
        sb_putc(&t, sp[1 + i]);
        sb_puts(&t, ". ");
    }
    sb_append(&t, v, (size_t)(sp - v));
    if (t.ok)
        list_add(&m->authors, &m->n_authors, t.s, t.len);
    sb_release(&t);
}

/* A MeSH heading without its qualifiers (after a slash) and its stars
 * (major topics): "*Ice Cover" is "Ice Cover", and "Bryophyta" with the
 * qualifier "growth & development" is "Bryophyta". */
static void add_subject(medline_rec *m, const char *v, size_t n)
{
    while (n && *v == '*') {
        v++;
        n--;
    }
    const char *slash = memchr(v, '/', n);
    if (slash)
        n = (size_t)(slash - v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '*'))
        n--;
    list_add(&m->subjects, &m->n_subjects, v, n);
}

static void set_once(strbuf *b, const char *v, size_t n)
{
    if (!b->len)
        sb_append(b, v, n);
}

/* The open tag line is complete: its value goes where its tag says. */
static void commit(medline_rec *m)
{
    const char *t = m->tag, *v = m->value.s ? m->value.s : "";
    size_t n = m->value.len;
    int fau = 0;
    if (!*t)
        return;
    if (n > MEDLINE_FIELD_MAX)
        m->too_long = 1;
    else if (!strcmp(t, "PMID"))
        set_once(&m->f[ML_PMID], v, n);
    else if (!strcmp(t, "TI"))
        set_once(&m->f[ML_TI], v, n);
    else if (!strcmp(t, "AB"))
        set_once(&m->f[ML_AB], v, n);
    else if (!strcmp(t, "DP"))
        set_once(&m->f[ML_DP], v, n);
    else if (!strcmp(t, "JT"))
        set_once(&m->f[ML_JT], v, n);
    else if (!strcmp(t, "TA"))
        set_once(&m->f[ML_TA], v, n);
    else if (!strcmp(t, "PMC"))
        set_once(&m->f[ML_PMC], v, n);
    else if ((!strcmp(t, "LID") || !strcmp(t, "AID")) && n > 6 &&
             !memcmp(v + n - 6, " [doi]", 6))
        set_once(&m->f[ML_DOI], v, n - 6);
    else if (!strcmp(t, "FAU"))
        add_full(m, v, n), fau = 1;
    else if (!strcmp(t, "AU") && !m->fau_open)
        add_initials(m, v, n);
    else if (!strcmp(t, "CN"))
        list_add(&m->authors, &m->n_authors, v, n);
    else if (!strcmp(t, "MH") || !strcmp(t, "OT"))
        add_subject(m, v, n);
    /* AU right after its FAU is that author again; anything else ends
     * the pairing */
    m->fau_open = fau;
    m->tag[0] = '\0';
    sb_clear(&m->value);
}

/* Is s[0..n) a tag line: one to four capitals or digits, spaces up to
 * the fifth column, a '-' (PubMed writes "TI  - ", and exports edited by
 * hand have "PMID-123" or "TI-")?  Its tag into tag, where its value
 * starts into *value. */
static int tag_line(const char *s, size_t n, char tag[5], size_t *value)
{
    size_t k = 0;
    while (k < 4 && k < n &&
           ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= '0' && s[k] <= '9')))
        k++;
    size_t d = k;
    while (d < 4 && d < n && s[d] == ' ')
        d++;
    if (!k || d >= n || s[d] != '-')
        return 0;
    memcpy(tag, s, k);
    tag[k] = '\0';
    *value = d + 1;
    while (*value < n && s[*value] == ' ')
        (*value)++;
    return 1;
}

int medline_line(medline_rec *m, const char *s, size_t n, uint64_t line)
{
    if (line == 1 && n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
        s += 3;
        n -= 3;
    }
    if (n && s[n - 1] == '\r')
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n) { /* a blank line ends the record */
        if (!m->open)
            return MEDLINE_TAKEN;
        commit(m);
        return MEDLINE_END;
    }
    char tag[5];
    size_t v = 0;
    int is_tag = i == 0 && tag_line(s, n, tag, &v);
    if (is_tag && !strcmp(tag, "PMID") && m->open)
        return MEDLINE_NEXT;
    if (!is_tag && !m->open)
        return MEDLINE_STRAY;
    size_t bad;
    if (!m->bad_line && !text_utf8_valid(s, n, &bad))
        m->bad_line = line;
    if (!is_tag) { /* the open value runs on */
        if (m->tag[0] && m->value.len <= MEDLINE_FIELD_MAX) {
            if (m->value.len)
                sb_putc(&m->value, ' ');
            sb_append(&m->value, s + i, n - i);
        }
        return MEDLINE_TAKEN;
    }
    commit(m);
    if (!m->open) {
        m->open = 1;
        m->line = line;
    }
    memcpy(m->tag, tag, sizeof m->tag);
    sb_append(&m->value, s + v, n - v);
    return MEDLINE_TAKEN;
}

/* Clear m for the next record. */
static void reset(medline_rec *m)
{
    for (int i = 0; i < ML__N; i++)
        sb_clear(&m->f[i]);
    sb_clear(&m->authors);
    sb_clear(&m->subjects);
    sb_clear(&m->value);
    m->n_authors = m->n_subjects = 0;
    m->tag[0] = '\0';
    m->fau_open = m->open = m->too_long = 0;
    m->bad_line = m->line = 0;
}

static const char *field(arena *a, const strbuf *b)
{
    if (!b->len)
        return NULL;
    char *s = arena_strndup(a, b->s, b->len);
    char *c = s ? text_collapse(a, s) : NULL;
    return c && *c ? c : NULL;
}

static const char *const *list_out(arena *a, const strbuf *l, size_t count,
                                   size_t *n)
{
    *n = 0;
    if (!count)
        return NULL;
    const char **v = arena_alloc(a, count * sizeof *v);
    if (!v)
        return NULL;
    const char *p = l->s;
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(p);
        char *s = arena_strndup(a, p, len);
        char *c = s ? text_collapse(a, s) : NULL;
        if (c && *c)
            v[(*n)++] = c;
        p += len + 1;
    }
    return v;
}

pdx_skip medline_finish(medline_rec *m, arena *a, pdx_work *w, strbuf *why)
{
    commit(m);
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    pdx_skip k = PDX_SKIP_NONE;
    int ok = 1;
    for (int i = 0; i < ML__N; i++)
        ok &= m->f[i].ok;
    ok &= m->authors.ok && m->subjects.ok && m->value.ok;
    if (!ok) {
        sb_puts(why, "out of memory");
        k = PDX_SKIP_FIELD;
    } else if (m->bad_line) {
        sb_printf(why, "invalid UTF-8 in line %llu",
                  (unsigned long long)m->bad_line);
        k = PDX_SKIP_UTF8;
    } else if (m->too_long) {
        sb_printf(why, "a field longer than %u bytes", MEDLINE_FIELD_MAX);
        k = PDX_SKIP_FIELD;
    } else {
        w->pmid = field(a, &m->f[ML_PMID]);
        if (!w->pmid || !record_pmid_valid(w->pmid)) {
            sb_printf(why, "a MEDLINE record without a valid PMID%s%.40s",
                      w->pmid ? ": " : "", w->pmid ? w->pmid : "");
            k = PDX_SKIP_FIELD;
        } else {
            w->title = field(a, &m->f[ML_TI]);
            w->abstract = field(a, &m->f[ML_AB]);
            w->venue = field(a, &m->f[ML_JT]);
            if (!w->venue)
                w->venue = field(a, &m->f[ML_TA]);
            w->doi = field(a, &m->f[ML_DOI]); /* normalised by record_finish */
            w->pmcid = field(a, &m->f[ML_PMC]);
            const char *dp = field(a, &m->f[ML_DP]);
            char date[16] = "";
            if (dp)
                record_medline_date(dp, date);
            if (*date)
                w->date = arena_strdup(a, date);
            w->authors = list_out(a, &m->authors, m->n_authors, &w->n_authors);
            w->subjects = list_out(a, &m->subjects, m->n_subjects, &w->n_subjects);
        }
    }
    reset(m);
    return k;
}
