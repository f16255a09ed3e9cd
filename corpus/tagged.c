/*
 * tagged.c -- MEDLINE text and RIS, record by record: the tag lines of a
 * record gathered, then the record as a work (tagged.h has the formats).
 *
 * The tags read, and what they give:
 *
 *   MEDLINE              RIS                  the work's
 *   PMID                 AN of digits, with   PMID (MEDLINE: required)
 *                        DB or DP PubMed,
 *                        MEDLINE or NLM
 *   TI                   TI, T1               title
 *   AB                   AB, N2               abstract
 *   FAU, else AU; CN     AU, A1               authors
 *   DP                   DA, Y1, PY: the      date
 *                        most precise of the
 *                        year PY gives
 *   JT, else TA          JF, JO, else T2, JA  venue
 *   LID, AID "... [doi]" DO, else a doi.org UR  DOI
 *   PMC                                       PMC id
 *                        UR arxiv.org/abs/    arXiv id
 *   MH, OT               KW                   subjects
 *                        ID                   place in the file (as a
 *                                             BibTeX key: never merges)
 *
 * Authors.  PubMed writes each author twice, FAU ("Pryce, Tomos J") then
 * AU ("Pryce TJ"); older records and some exports have only AU.  An AU
 * right after an FAU is the same author and is passed over; an AU alone
 * is written with its initials apart ("T. J. Pryce"), as the XML reader
 * writes MEDLINE's Initials, so that author filters know them for
 * initials.  RIS writes "Family, Given" or "Family, Given, Suffix".
 */
#define _GNU_SOURCE /* strcasestr */
#include "tagged.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../common/text.h"

int tagged_looks_like(const char *s, size_t n, tagged_kind *kind)
{
    if (n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
        s += 3;
        n -= 3;
    }
    if (n >= 6 && !memcmp(s, "PMID- ", 6)) {
        *kind = TAGGED_MEDLINE;
        return 1;
    }
    if (n >= 6 && !memcmp(s, "TY  - ", 6)) {
        *kind = TAGGED_RIS;
        return 1;
    }
    return 0;
}

void tagged_init(tagged_rec *t, tagged_kind kind)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    for (int i = 0; i < TG__N; i++)
        t->f[i] = (strbuf)STRBUF_INIT;
    t->authors = t->subjects = (record_list)RECORD_LIST_INIT;
    t->value = (strbuf)STRBUF_INIT;
}

void tagged_release(tagged_rec *t)
{
    for (int i = 0; i < TG__N; i++)
        sb_release(&t->f[i]);
    sb_release(&t->authors.b);
    sb_release(&t->subjects.b);
    sb_release(&t->value);
}

int tagged_open(const tagged_rec *t) { return t->open; }

/* "Family, Given" as "Given Family" ("Pryce, Tomos J" -> "Tomos J
 * Pryce"), "Family, Given, Jr" as "Given Family Jr"; a name without a
 * comma as it is. */
static void add_full(tagged_rec *t, const char *v, size_t n)
{
    const char *c = memchr(v, ',', n);
    if (!c) {
        record_list_add(&t->authors, v, n);
        return;
    }
    const char *g = c + 1, *end = v + n;
    const char *c2 = memchr(g, ',', (size_t)(end - g));
    const char *suffix = c2 ? c2 + 1 : end;
    const char *g_end = c2 ? c2 : end;
    while (g < g_end && *g == ' ')
        g++;
    while (suffix < end && *suffix == ' ')
        suffix++;
    strbuf s = STRBUF_INIT;
    if (g < g_end) {
        sb_append(&s, g, (size_t)(g_end - g));
        sb_putc(&s, ' ');
    }
    sb_append(&s, v, (size_t)(c - v));
    if (suffix < end) {
        sb_putc(&s, ' ');
        sb_append(&s, suffix, (size_t)(end - suffix));
    }
    if (s.ok)
        record_list_add(&t->authors, s.s, s.len);
    sb_release(&s);
}

/* "Pryce TJ" as "T. J. Pryce": a last word of one to four capitals is
 * the initials; any other name as it is. */
static void add_initials(tagged_rec *t, const char *v, size_t n)
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
        record_list_add(&t->authors, v, n);
        return;
    }
    strbuf s = STRBUF_INIT;
    for (size_t i = 0; i < k; i++) {
        sb_putc(&s, sp[1 + i]);
        sb_puts(&s, ". ");
    }
    sb_append(&s, v, (size_t)(sp - v));
    if (s.ok)
        record_list_add(&t->authors, s.s, s.len);
    sb_release(&s);
}

/* A MeSH heading without its qualifiers (after a slash) and its stars
 * (major topics): "*Ice Cover" is "Ice Cover", and "Bryophyta" with the
 * qualifier "growth & development" is "Bryophyta". */
static void add_heading(tagged_rec *t, const char *v, size_t n)
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
    record_list_add(&t->subjects, v, n);
}

static void set_once(tagged_rec *t, int field, const char *v, size_t n)
{
    if (!t->f[field].len)
        sb_append(&t->f[field], v, n);
}

static int is(const char *tag, const char *name) { return !strcmp(tag, name); }

/* Where a value ends " [doi]" (MEDLINE's LID and AID): its length
 * without it, else 0. */
static size_t doi_tagged(const char *v, size_t n)
{
    return n > 6 && !memcmp(v + n - 6, " [doi]", 6) ? n - 6 : 0;
}

static void commit_medline(tagged_rec *t, const char *tag, const char *v,
                           size_t n)
{
    int fau = 0;
    size_t d;
    if (is(tag, "PMID"))
        set_once(t, TG_PMID, v, n);
    else if (is(tag, "TI"))
        set_once(t, TG_TITLE, v, n);
    else if (is(tag, "AB"))
        set_once(t, TG_ABSTRACT, v, n);
    else if (is(tag, "DP"))
        set_once(t, TG_DATE, v, n);
    else if (is(tag, "JT"))
        set_once(t, TG_VENUE, v, n);
    else if (is(tag, "TA"))
        set_once(t, TG_VENUE2, v, n);
    else if (is(tag, "PMC"))
        set_once(t, TG_PMC, v, n);
    else if ((is(tag, "LID") || is(tag, "AID")) && (d = doi_tagged(v, n)))
        set_once(t, TG_DOI, v, d);
    else if (is(tag, "FAU"))
        add_full(t, v, n), fau = 1;
    else if (is(tag, "AU") && !t->fau_open)
        add_initials(t, v, n);
    else if (is(tag, "CN"))
        record_list_add(&t->authors, v, n);
    else if (is(tag, "MH") || is(tag, "OT"))
        add_heading(t, v, n);
    /* AU right after its FAU is that author again; anything else ends
     * the pairing */
    t->fau_open = fau;
}

/* Does v[0..n) open with four digits? */
static int has_year(const char *v, size_t n)
{
    if (n < 4)
        return 0;
    for (int i = 0; i < 4; i++)
        if (v[i] < '0' || v[i] > '9')
            return 0;
    return 1;
}

static void commit_ris(tagged_rec *t, const char *tag, const char *v,
                       size_t n)
{
    const char *p;
    if (is(tag, "TI") || is(tag, "T1"))
        set_once(t, TG_TITLE, v, n);
    else if (is(tag, "AB") || is(tag, "N2"))
        set_once(t, TG_ABSTRACT, v, n);
    else if (is(tag, "AU") || is(tag, "A1"))
        add_full(t, v, n);
    else if (is(tag, "DA") && has_year(v, n)) /* the first with a year */
        set_once(t, TG_DATE, v, n);
    else if (is(tag, "PY") && has_year(v, n))
        set_once(t, TG_YEAR, v, n);
    else if (is(tag, "Y1") && has_year(v, n))
        set_once(t, TG_Y1, v, n);
    else if (is(tag, "JF") || is(tag, "JO"))
        set_once(t, TG_VENUE, v, n);
    else if (is(tag, "T2") || is(tag, "JA"))
        set_once(t, TG_VENUE2, v, n);
    else if (is(tag, "DO"))
        set_once(t, TG_DOI, v, n);
    else if (is(tag, "UR") && (p = strcasestr(v, "arxiv.org/abs/")))
        set_once(t, TG_ARXIV, p + 14, (size_t)(v + n - p - 14));
    else if (is(tag, "UR") && strcasestr(v, "doi.org/10."))
        set_once(t, TG_URL_DOI, v, n); /* normalised by record_finish */
    else if (is(tag, "KW"))
        record_list_add(&t->subjects, v, n);
    else if (is(tag, "ID"))
        set_once(t, TG_KEY, v, n);
    else if (is(tag, "AN"))
        set_once(t, TG_AN, v, n);
    else if (is(tag, "DB") || is(tag, "DP"))
        set_once(t, TG_DB, v, n);
}

/* The open tag line is complete: its value goes where its tag says. */
static void commit(tagged_rec *t)
{
    if (!t->tag[0])
        return;
    const char *v = t->value.s ? t->value.s : "";
    size_t n = t->value.len;
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n > TAGGED_FIELD_MAX)
        t->too_long = 1;
    else if (t->kind == TAGGED_MEDLINE)
        commit_medline(t, t->tag, v, n);
    else
        commit_ris(t, t->tag, v, n);
    t->tag[0] = '\0';
    sb_clear(&t->value);
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

int tagged_line(tagged_rec *t, const char *s, size_t n, uint64_t line)
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
    int ris = t->kind == TAGGED_RIS;
    if (i == n) { /* MEDLINE: a blank line ends the record; RIS: nothing */
        if (!t->open || ris)
            return TAGGED_TAKEN;
        commit(t);
        return TAGGED_END;
    }
    char tag[5];
    size_t v = 0;
    int is_tag = i == 0 && tag_line(s, n, tag, &v);
    int opens = is_tag && is(tag, ris ? "TY" : "PMID");
    if (opens && t->open)
        return TAGGED_NEXT;
    if (!t->open && !(opens || (is_tag && !ris)))
        return TAGGED_STRAY; /* RIS opens with TY; MEDLINE with any tag */
    size_t bad;
    if (!t->bad_line && !text_utf8_valid(s, n, &bad))
        t->bad_line = line;
    if (!is_tag) { /* the open value runs on */
        if (t->tag[0] && t->value.len <= TAGGED_FIELD_MAX) {
            if (t->value.len)
                sb_putc(&t->value, ' ');
            sb_append(&t->value, s + i, n - i);
        }
        return TAGGED_TAKEN;
    }
    commit(t);
    if (ris && is(tag, "ER"))
        return TAGGED_END;
    if (!t->open) {
        t->open = 1;
        t->line = line;
    }
    memcpy(t->tag, tag, sizeof t->tag);
    sb_append(&t->value, s + v, n - v);
    return TAGGED_TAKEN;
}

/* Clear t for the next record. */
static void reset(tagged_rec *t)
{
    for (int i = 0; i < TG__N; i++)
        sb_clear(&t->f[i]);
    record_list_clear(&t->authors);
    record_list_clear(&t->subjects);
    sb_clear(&t->value);
    t->tag[0] = '\0';
    t->fau_open = t->open = t->too_long = 0;
    t->bad_line = t->line = 0;
}

static const char *field(arena *a, const tagged_rec *t, int i)
{
    return record_text(a, &t->f[i], 0);
}

/* A number of one or two digits after a '/' at p into out ("" when
 * there is none); where the part ends. */
static const char *date_part(const char *p, char out[3])
{
    out[0] = '\0';
    if (*p != '/')
        return p;
    size_t k = strspn(p + 1, "0123456789");
    if (k >= 1 && k <= 2)
        snprintf(out, 3, "%.*s", (int)k, p + 1);
    return p + 1 + k;
}

/* RIS's dates: "2021/03/15", "2021/03/15/", "2021///", "2021" into out
 * as "YYYY[-MM[-DD]]"; "" without a year. */
static void ris_date(const char *s, char out[16])
{
    out[0] = '\0';
    if (!s || !has_year(s, strlen(s)))
        return;
    char y[5], mo[3], da[3] = "";
    snprintf(y, sizeof y, "%.4s", s);
    const char *p = date_part(s + 4, mo);
    if (*mo)
        date_part(p, da);
    record_ymd(y, *mo ? mo : NULL, *da ? da : NULL, out);
}

/* The date of an RIS record: of DA, Y1 and PY, the most precise in PY's
 * year (or, without PY, the first that has a year). */
static void ris_record_date(arena *a, const tagged_rec *t, char date[16])
{
    const char *v[3] = {field(a, t, TG_DATE), field(a, t, TG_Y1),
                        field(a, t, TG_YEAR)};
    char c[3][16];
    for (int i = 0; i < 3; i++)
        ris_date(v[i], c[i]);
    const char *year = *c[2] ? c[2] : *c[1] ? c[1] : c[0];
    date[0] = '\0';
    for (int i = 0; i < 3; i++)
        if (*c[i] && !strncmp(c[i], year, 4) && strlen(c[i]) > strlen(date))
            memcpy(date, c[i], 16);
}

/* The record's PMID: MEDLINE's PMID; in RIS, the accession number of a
 * record whose database (DB or DP) is PubMed's.  NULL if not valid. */
static const char *pmid_of(arena *a, const tagged_rec *t)
{
    const char *db = field(a, t, TG_DB);
    const char *pmid =
        t->kind == TAGGED_MEDLINE ? field(a, t, TG_PMID)
        : db && (strcasestr(db, "pubmed") || strcasestr(db, "medline") ||
                 strcasestr(db, "nlm"))
            ? field(a, t, TG_AN)
            : NULL;
    return pmid && record_pmid_valid(pmid) ? pmid : NULL;
}

/* The assembled record as a work (tagged_finish's contract). */
static pdx_skip build(tagged_rec *t, arena *a, pdx_work *w, strbuf *why)
{
    int ok = t->authors.b.ok && t->subjects.b.ok && t->value.ok;
    for (int i = 0; i < TG__N; i++)
        ok &= t->f[i].ok;
    if (!ok) {
        sb_puts(why, "out of memory");
        return PDX_SKIP_FIELD;
    }
    if (t->bad_line) {
        sb_printf(why, "invalid UTF-8 in line %llu",
                  (unsigned long long)t->bad_line);
        return PDX_SKIP_UTF8;
    }
    if (t->too_long) {
        sb_printf(why, "a field longer than %u bytes", TAGGED_FIELD_MAX);
        return PDX_SKIP_FIELD;
    }
    w->pmid = pmid_of(a, t);
    if (t->kind == TAGGED_MEDLINE && !w->pmid) {
        const char *p = field(a, t, TG_PMID);
        sb_printf(why, "a MEDLINE record without a valid PMID%s%.40s",
                  p ? ": " : "", p ? p : "");
        return PDX_SKIP_FIELD;
    }
    /* Scopus's and Web of Science's RIS keep the title's HTML
     * (CO<inf>2</inf>, <i>in vivo</i>, &amp;): plain text */
    w->title = field(a, t, TG_TITLE);
    w->abstract = field(a, t, TG_ABSTRACT);
    if ((w->title && !(w->title = text_strip_markup(a, w->title))) ||
        (w->abstract && !(w->abstract = text_strip_markup(a, w->abstract)))) {
        sb_puts(why, "out of memory");
        return PDX_SKIP_FIELD;
    }
    w->venue = field(a, t, TG_VENUE);
    if (!w->venue)
        w->venue = field(a, t, TG_VENUE2);
    w->doi = field(a, t, TG_DOI); /* normalised by record_finish */
    if (!w->doi)
        w->doi = field(a, t, TG_URL_DOI);
    w->pmcid = field(a, t, TG_PMC);
    w->arxiv_id = field(a, t, TG_ARXIV);
    w->source_key = field(a, t, TG_KEY);
    char date[16] = "";
    const char *dp;
    if (t->kind == TAGGED_RIS)
        ris_record_date(a, t, date);
    else if ((dp = field(a, t, TG_DATE)))
        record_medline_date(dp, date);
    if (*date)
        w->date = arena_strdup(a, date);
    w->authors = record_list_out(a, &t->authors, 0, &w->n_authors);
    w->subjects = record_list_out(a, &t->subjects, 0, &w->n_subjects);
    return PDX_SKIP_NONE;
}

pdx_skip tagged_finish(tagged_rec *t, arena *a, pdx_work *w, strbuf *why)
{
    commit(t);
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    pdx_skip k = build(t, a, w, why);
    reset(t);
    return k;
}

void tagged_drop(tagged_rec *t) { reset(t); }
