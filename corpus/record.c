/*
 * record.c -- checks, derived fields and the JSON codec shared by every
 * source format; see record.h.  paperdex's own JSON-lines schema is
 * documented in docs/jsonl.md and decoded here (jsonl_decode), because the
 * stored form of a work is that same schema.
 *
 * JSON is cJSON's job throughout: this file only maps fields.
 */
#include "record.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/text.h"

/* ----------------------------------------------------------------- copy */

/* merged_into is pdx_work's last field: a field added after it must be
 * copied below too (a pointer field, deeply). */
_Static_assert(sizeof(pdx_work) ==
                   (offsetof(pdx_work, merged_into) + sizeof(char *) +
                    _Alignof(pdx_work) - 1) / _Alignof(pdx_work) *
                       _Alignof(pdx_work),
               "a field was added to pdx_work: copy it in record_copy");

static int copy_str(arena *a, const char **s)
{
    return *s && !(*s = arena_strdup(a, *s)) ? -1 : 0;
}

static int copy_list(arena *a, const char *const **v, size_t n)
{
    if (!*v)
        return 0;
    const char **out = arena_alloc(a, (n ? n : 1) * sizeof *out);
    if (!out)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (((out[i] = (*v)[i])) && copy_str(a, &out[i]))
            return -1;
    *v = out;
    return 0;
}

int record_copy(arena *a, pdx_work *dst, const pdx_work *src)
{
    *dst = *src;
    const char **strs[] = {&dst->id,       &dst->title,      &dst->abstract,
                           &dst->date,     &dst->doi,        &dst->arxiv_id,
                           &dst->venue,    &dst->comments,   &dst->affiliation,
                           &dst->source,   &dst->pmid,       &dst->pmcid,
                           &dst->openalex_id, &dst->source_key,
                           &dst->merged_into};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (copy_str(a, strs[i]))
            return -1;
    if (copy_list(a, &dst->authors, dst->n_authors) ||
        copy_list(a, &dst->categories, dst->n_categories) ||
        copy_list(a, &dst->subjects, dst->n_subjects))
        return -1;
    return 0;
}

/* ---------------------------------------------------------------- dates */

static int digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

void record_list_add(record_list *l, const char *s, size_t n)
{
    if (l->n >= RECORD_LIST_MAX || !n)
        return;
    sb_append(&l->b, s, n);
    sb_putc(&l->b, '\0');
    l->n++;
}

void record_list_clear(record_list *l)
{
    sb_clear(&l->b);
    l->n = 0;
}

/* s (in a) collapsed, or TeX-cleaned with tex; NULL when empty. */
static const char *tidy(arena *a, char *s, int tex)
{
    char *c = s ? (tex ? text_clean(a, s) : text_collapse(a, s)) : NULL;
    return c && *c ? c : NULL;
}

const char *const *record_list_out(arena *a, const record_list *l, int tex,
                                   size_t *n)
{
    *n = 0;
    if (!l->n)
        return NULL;
    const char **v = arena_alloc(a, l->n * sizeof *v);
    if (!v)
        return NULL;
    const char *p = l->b.s;
    for (size_t i = 0; i < l->n; i++) {
        size_t len = strlen(p);
        const char *c = tidy(a, arena_strndup(a, p, len), tex);
        if (c)
            v[(*n)++] = c;
        p += len + 1;
    }
    return v;
}

const char *record_text(arena *a, const strbuf *b, int tex)
{
    return b->len ? tidy(a, arena_strndup(a, b->s, b->len), tex) : NULL;
}

int record_month_number(const char *m)
{
    static const char *const names[] = {"jan", "feb", "mar", "apr", "may",
                                        "jun", "jul", "aug", "sep", "oct",
                                        "nov", "dec"};
    if (!m)
        return 0;
    if (m[0] >= '0' && m[0] <= '9') {
        int v = atoi(m);
        return v >= 1 && v <= 12 ? v : 0;
    }
    for (int i = 0; i < 12; i++)
        if (!strncasecmp(m, names[i], 3))
            return i + 1;
    return 0;
}

void record_ymd(const char *y, const char *month, const char *day,
                char out[16])
{
    out[0] = '\0';
    if (!y || strlen(y) != 4)
        return;
    int mo = record_month_number(month), da = day ? atoi(day) : 0;
    if (mo && da >= 1 && da <= 31)
        snprintf(out, 16, "%.4s-%02d-%02d", y, mo, da);
    else if (mo)
        snprintf(out, 16, "%.4s-%02d", y, mo);
    else
        snprintf(out, 16, "%.4s", y);
    if (!record_date_valid(out)) { /* 31 February: the month will do */
        if (mo)
            snprintf(out, 16, "%.4s-%02d", y, mo);
        if (!record_date_valid(out))
            out[0] = '\0';
    }
}

void record_medline_date(const char *s, char out[16])
{
    out[0] = '\0';
    while (*s && !(s[0] >= '0' && s[0] <= '9'))
        s++;
    if (strlen(s) < 4)
        return;
    char y[5], day[3] = "";
    snprintf(y, sizeof y, "%.4s", s);
    s += 4;
    while (*s == ' ')
        s++;
    const char *m = *s && !(*s >= '0' && *s <= '9') ? s : NULL;
    if (m) { /* "Mar 15": the day, a word of one or two digits after it */
        const char *d = m + strcspn(m, " -");
        size_t k = *d == ' ' ? strspn(d + 1, "0123456789") : 0;
        if (k >= 1 && k <= 2 && d[1] != '0' && (!d[1 + k] || d[1 + k] == ' '))
            snprintf(day, sizeof day, "%.*s", (int)k, d + 1);
    }
    record_ymd(y, m, *day ? day : NULL, out);
}

int record_date_valid(const char *d)
{
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    size_t n = strlen(d);
    if (!(n == 4 || n == 7 || n == 10) || !digits(d, 4))
        return 0;
    int y = atoi(d);
    if (y < 1000)
        return 0;
    if (n == 4)
        return 1;
    if (d[4] != '-' || !digits(d + 5, 2))
        return 0;
    int m = (d[5] - '0') * 10 + (d[6] - '0');
    if (m < 1 || m > 12)
        return 0;
    if (n == 7)
        return 1;
    if (d[7] != '-' || !digits(d + 8, 2))
        return 0;
    int day = (d[8] - '0') * 10 + (d[9] - '0');
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (day < 1 || day > mdays[m - 1] || (m == 2 && day == 29 && !leap))
        return 0;
    return 1;
}

void record_date_key(const char *d, char out[9])
{
    out[0] = '\0';
    if (!d || !*d)
        return;
    size_t n = strlen(d);
    memcpy(out, d, 4);
    memcpy(out + 4, n >= 7 ? d + 5 : "00", 2);
    memcpy(out + 6, n >= 10 ? d + 8 : "00", 2);
    out[8] = '\0';
}

/* ------------------------------------------------------ field decoding */

static int present(const cJSON *v) { return v && !cJSON_IsNull(v); }

static char *clean_as(arena *a, const char *s, int mode)
{
    return mode == REC_TEX        ? text_clean(a, s)
           : mode == REC_COLLAPSE ? text_collapse(a, s)
                              : arena_strdup(a, s);
}

int rec_string(arena *a, const cJSON *obj, const char *key, int tex,
                      const char **out, strbuf *why)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!present(v))
        return 0;
    if (!cJSON_IsString(v)) {
        sb_printf(why, "field \"%s\" must be a string", key);
        return -1;
    }
    char *s = clean_as(a, v->valuestring, tex);
    if (!s) {
        sb_puts(why, "out of memory");
        return -1;
    }
    *out = *s ? s : NULL;
    return 0;
}

static int add_item(arena *a, const char ***items, size_t *n, size_t *cap,
                    const char *s, size_t len, int tex)
{
    char *raw = arena_strndup(a, s, len);
    char *c = raw ? clean_as(a, raw, tex) : NULL;
    if (!c)
        return -1;
    if (!*c)
        return 0;
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        const char **ni = arena_alloc(a, ncap * sizeof *ni);
        if (!ni)
            return -1;
        if (*n)
            memcpy(ni, *items, *n * sizeof *ni);
        *items = ni;
        *cap = ncap;
    }
    (*items)[(*n)++] = c;
    return 0;
}

/* Split an author string: "A, B and C", "A and B", "Fam, Given; Fam2, G".  Parenthesised
 * affiliations ("A (MIT)", "((1) MIT)") are dropped. */
static int split_authors(arena *a, const char *s, const char ***items,
                         size_t *n, size_t *cap)
{
    strbuf flat = STRBUF_INIT;
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && depth > 0)
            depth--;
        else if (!depth)
            sb_putc(&flat, *p);
    }
    if (!flat.ok) {
        sb_release(&flat);
        return -1;
    }
    const char *p = flat.s ? flat.s : "";
    /* With a semicolon anywhere, names are "Family, Given" and only
     * semicolons separate them. */
    const char *seps = strchr(p, ';') ? ";" : ",;&";
    int rc = 0;
    while (*p && !rc) {
        const char *end = p + strcspn(p, seps);
        const char *and = strstr(p, " and ");
        if (and && and < end)
            end = and;
        rc = add_item(a, items, n, cap, p, (size_t)(end - p), REC_TEX);
        if (!*end)
            break;
        p = end + (*end == ' ' ? 5 : 1);
    }
    sb_release(&flat);
    return rc;
}

int rec_list(arena *a, const cJSON *obj, const char *key, int authors,
                    int mode, const char *const **out, size_t *count,
                    strbuf *why)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    const char **items = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    *out = NULL;
    *count = 0;
    if (!present(v))
        return 0;
    if (cJSON_IsArray(v)) {
        const cJSON *it;
        cJSON_ArrayForEach(it, v)
        {
            if (!cJSON_IsString(it)) {
                sb_printf(why, "field \"%s\" must hold only strings", key);
                return -1;
            }
            if (add_item(a, &items, &n, &cap, it->valuestring,
                         strlen(it->valuestring), mode))
                goto oom;
        }
    } else if (cJSON_IsString(v)) {
        if (authors == 1) {
            rc = split_authors(a, v->valuestring, &items, &n, &cap);
        } else {
            const char *p = v->valuestring;
            int semi = authors == REC_LIST_SEMICOLONS;
            const char *sep = semi ? ";" : " \t\r\n,";
            while (*p && !rc) {
                p += strspn(p, semi ? "; \t\r\n" : sep);
                size_t len = strcspn(p, sep);
                size_t step = len;
                while (len && strchr(" \t\r\n", p[len - 1]))
                    len--;
                if (len)
                    rc = add_item(a, &items, &n, &cap, p, len, mode);
                p += step;
            }
        }
        if (rc)
            goto oom;
    } else {
        sb_printf(why, "field \"%s\" must be a string or an array of strings",
                  key);
        return -1;
    }
    *out = items;
    *count = n;
    return 0;
oom:
    sb_puts(why, "out of memory");
    return -1;
}

static int get_bool(const cJSON *obj, const char *key, int *out, strbuf *why)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = 0;
    if (!present(v))
        return 0;
    if (!cJSON_IsBool(v)) {
        sb_printf(why, "field \"%s\" must be true or false", key);
        return -1;
    }
    *out = cJSON_IsTrue(v);
    return 0;
}

/* "withdrawn": true, or "everywhere" (PDX_WITHDRAWN_EVERYWHERE). */
static int get_withdrawn(const cJSON *obj, int *out, strbuf *why)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "withdrawn");
    if (cJSON_IsString(v) && !strcmp(v->valuestring, "everywhere")) {
        *out = PDX_WITHDRAWN_EVERYWHERE;
        return 0;
    }
    return get_bool(obj, "withdrawn", out, why);
}

/* Decode our own schema; `stored` skips the cleaning that records coming
 * from outside need (stored records were cleaned when indexed). */
static pdx_skip decode_own(arena *a, pdx_work *w, const cJSON *obj,
                           int stored, strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    const int text = stored ? REC_AS_IS : REC_TEX, plain = stored ? REC_AS_IS : REC_COLLAPSE;
    *w = init;
    if (rec_string(a, obj, "id", plain, &w->id, why) ||
        rec_string(a, obj, "title", text, &w->title, why) ||
        get_bool(obj, "title_derived", &w->title_derived, why) ||
        rec_string(a, obj, "abstract", text, &w->abstract, why) ||
        rec_list(a, obj, "authors", 1, text, &w->authors, &w->n_authors,
                 why) ||
        get_bool(obj, "authors_truncated", &w->authors_truncated, why) ||
        rec_list(a, obj, "categories", 0, plain, &w->categories,
                 &w->n_categories, why) ||
        rec_string(a, obj, "date", plain, &w->date, why) ||
        rec_string(a, obj, "doi", plain, &w->doi, why) ||
        rec_string(a, obj, "arxiv_id", plain, &w->arxiv_id, why) ||
        rec_string(a, obj, "venue", text, &w->venue, why) ||
        rec_string(a, obj, "comments", text, &w->comments, why) ||
        rec_string(a, obj, "affiliation", text, &w->affiliation, why) ||
        get_bool(obj, "code_available", &w->code_available, why) ||
        rec_string(a, obj, "pmid", plain, &w->pmid, why) ||
        rec_string(a, obj, "pmcid", plain, &w->pmcid, why) ||
        rec_string(a, obj, "openalex_id", plain, &w->openalex_id, why) ||
        rec_list(a, obj, "subjects", REC_LIST_SEMICOLONS, plain, &w->subjects,
                 &w->n_subjects, why) ||
        rec_string(a, obj, "source_key", plain, &w->source_key, why) ||
        rec_string(a, obj, "merged_into", plain, &w->merged_into, why) ||
        get_bool(obj, "versioned", &w->versioned, why) ||
        get_withdrawn(obj, &w->withdrawn, why))
        return PDX_SKIP_FIELD;
    if (w->pmid && !record_pmid_valid(w->pmid)) {
        sb_printf(why, "field \"pmid\" is not a PubMed id (digits): \"%s\"",
                  w->pmid);
        return PDX_SKIP_FIELD;
    }
    const cJSON *y = cJSON_GetObjectItemCaseSensitive(obj, "year");
    if (present(y)) {
        if (cJSON_IsNumber(y) && y->valuedouble == (double)(int)y->valuedouble)
            w->year = (int)y->valuedouble;
        else if (cJSON_IsString(y) && strlen(y->valuestring) == 4 &&
                 digits(y->valuestring, 4))
            w->year = atoi(y->valuestring);
        else {
            sb_puts(why, "field \"year\" must be a whole number");
            return PDX_SKIP_FIELD;
        }
        if (w->year < 1000 || w->year > 9999) {
            sb_printf(why, "field \"year\" out of range: %d", w->year);
            return PDX_SKIP_FIELD;
        }
    }
    if (w->date && !record_date_valid(w->date)) {
        sb_printf(why, "field \"date\" is not YYYY, YYYY-MM or YYYY-MM-DD: "
                       "\"%s\"",
                  w->date);
        return PDX_SKIP_FIELD;
    }
    return PDX_SKIP_NONE;
}

pdx_skip jsonl_decode(arena *a, pdx_work *w, const cJSON *obj, strbuf *why)
{
    return decode_own(a, w, obj, 0, why);
}

/* ------------------------------------------------------ derived fields */

/* The abstract's first sentence, cut at a word boundary if long. */
static const char *derive_title(arena *a, const char *abs)
{
    size_t n = strlen(abs), end = n;
    for (size_t i = 0; i + 1 < n; i++) {
        if ((abs[i] == '.' || abs[i] == '?' || abs[i] == '!') &&
            abs[i + 1] == ' ' && i > 0 && !isupper((unsigned char)abs[i - 1])) {
            end = i + (abs[i] != '.');
            break;
        }
    }
    if (end > RECORD_DERIVED_TITLE_MAX) {
        end = RECORD_DERIVED_TITLE_MAX;
        while (end > 0 && abs[end] != ' ')
            end--;
        if (end == 0)
            end = RECORD_DERIVED_TITLE_MAX;
        while (end > 0 && ((unsigned char)abs[end] & 0xC0) == 0x80)
            end--;
        char *t = arena_alloc(a, end + 4);
        if (!t)
            return NULL;
        memcpy(t, abs, end);
        memcpy(t + end, "\xE2\x80\xA6", 4); /* … */
        return t;
    }
    if (end == n && n > 0 && abs[n - 1] == '.')
        end--;
    return arena_strndup(a, abs, end);
}

int record_pmid_valid(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= 12 && digits(s, n);
}

/* The DOI in one word of a DOI field: the word itself ("10.x/y"), after
 * "doi:", or the path of a URL ("https://doi.org/10.x/y",
 * "http://dx.doi.org/...", "http://doi.acm.org/..."); NULL when it holds
 * none (a DOI starts "10." and has a '/'). */
static const char *doi_in(const char *w)
{
    if (!strncasecmp(w, "doi:", 4))
        w += 4;
    if (!strncasecmp(w, "http://", 7) || !strncasecmp(w, "https://", 8)) {
        const char *q = strstr(w, "/10.");
        w = q ? q + 1 : "";
    }
    return !strncmp(w, "10.", 3) && strchr(w + 3, '/') ? w : NULL;
}

const char *record_doi_normalize(arena *a, const char *doi)
{
    strbuf out = STRBUF_INIT;
    size_t kept = 0;
    const char *p = doi;
    while (*p) {
        p += strspn(p, " \t\r\n,;");
        size_t n = strcspn(p, " \t\r\n,;");
        if (!n)
            break;
        char word[512];
        snprintf(word, sizeof word, "%.*s", (int)(n < 511 ? n : 511), p);
        p += n;
        const char *d = doi_in(word);
        if (!d)
            continue; /* "doi", "DOI:", "n/a", a word around the DOIs */
        size_t dn = strlen(d);
        while (dn && (d[dn - 1] == '.' || d[dn - 1] == ')'))
            dn--; /* the end of a sentence, or a bracket around it */
        if (kept++)
            sb_putc(&out, ' ');
        sb_append(&out, d, dn);
    }
    const char *r = kept && out.ok ? arena_strndup(a, out.s, out.len) : NULL;
    sb_release(&out);
    return r;
}

/* A PubMed Central id in one form, "PMC" and its digits, whether a
 * source wrote "PMC6022861", "pmc6022861", "6022861" or a URL ending in
 * either (".../pmc/articles/PMC6022861/"); as it was when it holds no
 * such digits. */
static const char *pmcid_normalize(arena *a, const char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '/' || s[n - 1] == ' '))
        n--;
    size_t d = n;
    while (d && isdigit((unsigned char)s[d - 1]))
        d--;
    if (d == n || n - d > 12)
        return s;
    char out[24];
    snprintf(out, sizeof out, "PMC%.*s", (int)(n - d), s + d);
    const char *r = arena_strdup(a, out);
    return r ? r : s;
}

size_t record_dois(arena *a, const char *dois, const char *out[], size_t max)
{
    size_t n = 0;
    for (const char *p = dois; p && *p && n < max;) {
        size_t k = strcspn(p, " ");
        if (k && !(out[n++] = arena_strndup(a, p, k)))
            return n - 1;
        p += k;
        p += strspn(p, " ");
    }
    return n;
}

const char *record_arxiv_doi(const char *doi, size_t n, size_t *len)
{
    static const char prefix[] = "10.48550/arxiv.";
    const size_t p = sizeof prefix - 1;
    if (n <= p || strncasecmp(doi, prefix, p))
        return NULL;
    *len = n - p;
    return doi + p;
}

pdx_skip record_finish(arena *a, pdx_work *w, strbuf *why)
{
    /* Every reader's DOI field, as people write it: one spelling, one or
     * more DOIs separated by a space; none when it holds no DOI. */
    if (w->doi)
        w->doi = record_doi_normalize(a, w->doi);
    /* The DOI arXiv gives a preprint (10.48550/arXiv.2103.00823), as a
     * BibTeX or RIS export of it may carry it alone: its arXiv id. */
    for (const char *d = w->doi; d && *d && !w->arxiv_id;) {
        const size_t k = strcspn(d, " ");
        size_t len;
        const char *id = record_arxiv_doi(d, k, &len);
        if (id && !(w->arxiv_id = arena_strndup(a, id, len))) {
            sb_puts(why, "out of memory");
            return PDX_SKIP_FIELD;
        }
        d += k;
        d += strspn(d, " ");
    }
    if (w->pmcid)
        w->pmcid = pmcid_normalize(a, w->pmcid);
    if (w->withdrawn) {
        /* Identity only: the work it withdraws is named by its PMID,
         * OpenAlex id or arXiv id. */
        w->versioned = 1;
        if (!w->id) {
            if (w->pmid)
                w->id = arena_concat(a, "pmid:", w->pmid);
            else if (w->openalex_id)
                w->id = w->openalex_id;
            else if (w->arxiv_id)
                w->id = w->arxiv_id;
            else {
                sb_puts(why, "a withdrawal names no PMID, OpenAlex id or "
                             "arXiv id");
                return PDX_SKIP_ID;
            }
            if (!w->id) {
                sb_puts(why, "out of memory");
                return PDX_SKIP_FIELD;
            }
        }
        return record_check(w, why);
    }
    if (!w->title && !w->abstract) {
        sb_puts(why, "record has neither a title nor an abstract");
        return PDX_SKIP_EMPTY;
    }
    if (!w->title) {
        w->title = derive_title(a, w->abstract);
        w->title_derived = 1;
        if (!w->title) {
            sb_puts(why, "out of memory");
            return PDX_SKIP_FIELD;
        }
    } else if (w->title_derived && !w->abstract) {
        w->title_derived = 0; /* nothing else to index it as */
    }
    if (!w->id && w->pmid) /* PubMed's own id, as PubMed writes it */
        w->id = arena_concat(a, "pmid:", w->pmid);
    else if (!w->id && w->openalex_id)
        w->id = w->openalex_id;
    if (!w->id) {
        /* A stable id from the DOI, else from the text, so re-reading the
         * same record replaces it instead of adding a twin -- and two
         * records with one title ("Editorial", "Introduction") but two
         * DOIs are not taken for one work by their ids. */
        const char *src = w->doi ? w->doi
                          : (w->title && !w->title_derived) ? w->title
                                                            : w->abstract;
        char *f = w->doi ? text_join2(a, "doi", w->doi)
                         : text_fold(a, src, strlen(src));
        for (char *p = w->doi ? f : NULL; p && *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a'); /* DOIs ignore case */
        char *id = arena_alloc(a, 24);
        if (!f || !id) {
            sb_puts(why, "out of memory");
            return PDX_SKIP_FIELD;
        }
        snprintf(id, 24, "pdx:%016llx", text_hash64(f, strlen(f)));
        w->id = id;
    }
    if (!w->year && w->date)
        w->year = atoi(w->date);
    if (w->year && w->date && atoi(w->date) != w->year) {
        sb_printf(why, "year %d disagrees with date %s", w->year, w->date);
        return PDX_SKIP_FIELD;
    }
    return record_check(w, why);
}

static int check_str(const char *s, const char *name, strbuf *why)
{
    size_t bad;
    if (s && !text_utf8_valid(s, strlen(s), &bad)) {
        sb_printf(why, "%s is not valid UTF-8 (byte %zu)", name, bad);
        return -1;
    }
    return 0;
}

pdx_skip record_check(const pdx_work *w, strbuf *why)
{
    if (!w) {
        sb_puts(why, "no work given");
        return PDX_SKIP_FIELD;
    }
    if (w->version != PDX_WORK_VERSION) {
        sb_printf(why, "pdx_work version %u is not %d", w->version,
                  PDX_WORK_VERSION);
        return PDX_SKIP_FIELD;
    }
    if (w->pmid && *w->pmid && !record_pmid_valid(w->pmid)) {
        sb_printf(why, "pmid \"%s\" is not a PubMed id (digits)", w->pmid);
        return PDX_SKIP_FIELD;
    }
    if (!w->id || !*w->id) {
        sb_puts(why, "the id is missing");
        return PDX_SKIP_ID;
    }
    size_t idlen = strlen(w->id);
    if (idlen > PDX_ID_MAX) {
        sb_printf(why, "the id is %zu bytes long, the limit is %d", idlen,
                  PDX_ID_MAX);
        return PDX_SKIP_ID;
    }
    for (const char *p = w->id; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            sb_puts(why, "the id contains a control character");
            return PDX_SKIP_ID;
        }
    if (check_str(w->id, "the id", why) || check_str(w->title, "title", why) ||
        check_str(w->abstract, "abstract", why) ||
        check_str(w->date, "date", why) || check_str(w->doi, "doi", why) ||
        check_str(w->arxiv_id, "arxiv_id", why) ||
        check_str(w->venue, "venue", why) ||
        check_str(w->comments, "comments", why) ||
        check_str(w->affiliation, "affiliation", why) ||
        check_str(w->source, "source", why) ||
        check_str(w->pmcid, "pmcid", why) ||
        check_str(w->openalex_id, "openalex_id", why) ||
        check_str(w->source_key, "source_key", why) ||
        check_str(w->merged_into, "merged_into", why))
        return PDX_SKIP_UTF8;
    if (w->n_subjects && !w->subjects) {
        sb_puts(why, "a list has a count but no items");
        return PDX_SKIP_FIELD;
    }
    for (size_t i = 0; i < w->n_subjects; i++)
        if (!w->subjects[i] || check_str(w->subjects[i], "a subject", why)) {
            if (!w->subjects[i])
                sb_puts(why, "a subject is NULL");
            return w->subjects[i] ? PDX_SKIP_UTF8 : PDX_SKIP_FIELD;
        }
    if ((w->n_authors && !w->authors) || (w->n_categories && !w->categories)) {
        sb_puts(why, "a list has a count but no items");
        return PDX_SKIP_FIELD;
    }
    for (size_t i = 0; i < w->n_authors; i++)
        if (!w->authors[i] || check_str(w->authors[i], "an author", why)) {
            if (!w->authors[i])
                sb_puts(why, "an author is NULL");
            return w->authors[i] ? PDX_SKIP_UTF8 : PDX_SKIP_FIELD;
        }
    for (size_t i = 0; i < w->n_categories; i++)
        if (!w->categories[i] ||
            check_str(w->categories[i], "a category", why)) {
            if (!w->categories[i])
                sb_puts(why, "a category is NULL");
            return w->categories[i] ? PDX_SKIP_UTF8 : PDX_SKIP_FIELD;
        }
    if (!w->withdrawn && (!w->title || !*w->title) &&
        (!w->abstract || !*w->abstract)) {
        sb_puts(why, "the work has neither a title nor an abstract");
        return PDX_SKIP_EMPTY;
    }
    if (w->year && (w->year < 1000 || w->year > 9999)) {
        sb_printf(why, "year %d is out of range", w->year);
        return PDX_SKIP_FIELD;
    }
    if (w->date && *w->date && !record_date_valid(w->date)) {
        sb_printf(why, "date \"%s\" is not YYYY, YYYY-MM or YYYY-MM-DD",
                  w->date);
        return PDX_SKIP_FIELD;
    }
    return PDX_SKIP_NONE;
}

/* ---------------------------------------------------------- encoding */

static int put_str(cJSON *o, const char *key, const char *v)
{
    return !v || !*v || cJSON_AddStringToObject(o, key, v) ? 0 : -1;
}

static int put_list(cJSON *o, const char *key, const char *const *v, size_t n)
{
    if (!n)
        return 0;
    cJSON *arr = cJSON_AddArrayToObject(o, key);
    if (!arr)
        return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateString(v[i]);
        if (!s || !cJSON_AddItemToArray(arr, s)) {
            cJSON_Delete(s);
            return -1;
        }
    }
    return 0;
}

cJSON *record_to_cjson(const pdx_work *w)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (put_str(o, "id", w->id) || put_str(o, "title", w->title) ||
        (w->title_derived && !cJSON_AddTrueToObject(o, "title_derived")) ||
        put_str(o, "abstract", w->abstract) ||
        put_list(o, "authors", w->authors, w->n_authors) ||
        (w->authors_truncated &&
         !cJSON_AddTrueToObject(o, "authors_truncated")) ||
        put_list(o, "categories", w->categories, w->n_categories) ||
        (w->year && !cJSON_AddNumberToObject(o, "year", w->year)) ||
        put_str(o, "date", w->date) || put_str(o, "doi", w->doi) ||
        put_str(o, "arxiv_id", w->arxiv_id) ||
        put_str(o, "venue", w->venue) || put_str(o, "comments", w->comments) ||
        put_str(o, "affiliation", w->affiliation) ||
        (w->code_available && !cJSON_AddTrueToObject(o, "code_available")) ||
        put_str(o, "pmid", w->pmid) || put_str(o, "pmcid", w->pmcid) ||
        put_str(o, "openalex_id", w->openalex_id) ||
        put_list(o, "subjects", w->subjects, w->n_subjects) ||
        put_str(o, "source_key", w->source_key) ||
        (w->versioned && !cJSON_AddTrueToObject(o, "versioned")) ||
        (w->withdrawn == 1 && !cJSON_AddTrueToObject(o, "withdrawn")) ||
        (w->withdrawn > 1 &&
         !cJSON_AddStringToObject(o, "withdrawn", "everywhere")) ||
        put_str(o, "merged_into", w->merged_into)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int record_from_cjson(arena *a, pdx_work *w, const cJSON *o)
{
    strbuf why = STRBUF_INIT;
    int rc = cJSON_IsObject(o) && decode_own(a, w, o, 1, &why) == PDX_SKIP_NONE
                 ? 0
                 : -1;
    sb_release(&why);
    return rc;
}

int record_from_json(arena *a, pdx_work *w, const char *json, size_t len)
{
    cJSON *o = cJSON_ParseWithLength(json, len);
    int rc = o ? record_from_cjson(a, w, o) : -1;
    cJSON_Delete(o);
    return rc;
}
