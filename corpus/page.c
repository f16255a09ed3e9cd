/*
 * page.c -- researcher-profile and listing pages, as copied as text from
 * the sites users read papers on.  Five styles, told apart by their
 * content (never by the file's name):
 *
 *   profile    "Published work": the owner's name near the top, then
 *              blocks of a header "preprint2022arXiv" (kind, year, venue),
 *              a title line and an abstract line.  The owner is an author
 *              of every block.
 *   list       blocks of a header "78.5CVJun 2" / "DCJul 12, 2022Code"
 *              (optional score, cs subject code, date with or without its
 *              year, optional "Code"), a title line, an author line
 *              "A, B, C et al. · affiliation", and an abstract line.  On
 *              a page copied from a researcher's profile (a name above
 *              the blocks, and "h-index45" or "24papers" there), the owner
 *              is an author of every block whose list is cut ("et al.")
 *              without them.
 *   abstracts  bare paragraphs "Abstract:..." with nothing else.
 *   listing    arXiv-style entries: an abstract, an optional comments line,
 *              "arXiv:2103.00823" with an optional " - venue", and
 *              "Created: 2021-03-01".
 *   compact    blocks of the same header as `list`, then the title and the
 *              author list glued with no separator ("...ServicesDianhai Yu,
 *              Liang Shen et al."), then the abstract.
 *
 * The glued line is split at the leftmost place where the rest reads as a
 * whole author list: names of two to five words (capitalised words,
 * initials, lower-case particles such as "van"), separated by commas,
 * optionally ending in "et al.".  A split must fall inside a word (no
 * space before it), so "...for TinyMLShaojie Zhuo" splits before
 * "Shaojie": "MLShaojie" and "LShaojie" are not names.
 *
 * A date without a year ("Jun 2") is the latest such day not after the
 * page's reference date (pdx_reader_options.page_date, or the file's
 * modification time).  A block that breaks off, and a page that matches
 * no style, give a warning item naming the file and line; the other
 * blocks are still read.
 */
#include "page.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/text.h"

typedef struct line {
    const char *s;
    size_t n;
    uint64_t no; /* 1-based line number in the file */
} line;

typedef struct parser {
    arena *a;
    const char *name;
    page_date ref;
    line *ln;
    size_t nl;
    page_item *items;
    size_t n_items, cap;
    int oom;
} parser;

static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

/* ------------------------------------------------------------- helpers */

static page_item *new_item(parser *p, uint64_t no)
{
    if (p->n_items == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 32;
        page_item *ni = arena_alloc(p->a, cap * sizeof *ni);
        if (!ni) {
            p->oom = 1;
            return NULL;
        }
        if (p->n_items)
            memcpy(ni, p->items, p->n_items * sizeof *ni);
        p->items = ni;
        p->cap = cap;
    }
    page_item *it = &p->items[p->n_items++];
    const pdx_work init = PDX_WORK_INIT;
    memset(it, 0, sizeof *it);
    it->w = init;
    it->w.source = p->name;
    it->w.source_line = no;
    return it;
}

static void warn(parser *p, uint64_t no, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void warn(parser *p, uint64_t no, const char *fmt, ...)
{
    page_item *it = new_item(p, no);
    if (!it)
        return;
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    it->warning = arena_strdup(p->a, tmp);
    if (!it->warning)
        p->oom = 1;
}

static char *dup_span(parser *p, const char *s, size_t n)
{
    char *raw = arena_strndup(p->a, s, n);
    char *c = raw ? text_collapse(p->a, raw) : NULL;
    if (!c)
        p->oom = 1;
    return c;
}

static int starts(const line *l, const char *prefix)
{
    size_t k = strlen(prefix);
    return l->n >= k && !memcmp(l->s, prefix, k);
}

static int all_digits(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* The latest (y, m, d) with this month and day that is not after ref. */
static void resolve_year(page_date ref, int m, int d, int *y)
{
    int year = ref.y;
    if (m > ref.m || (m == ref.m && d > ref.d))
        year--;
    if (m == 2 && d == 29) /* only in leap years */
        while (!((year % 4 == 0 && year % 100 != 0) || year % 400 == 0))
            year--;
    *y = year;
}

/* ------------------------------------------------------------ headers */

/* A list/compact header: [score]CC Mon D[, YYYY][Code].  Fills cat ("cs.CV"),
 * date ("YYYY-MM-DD") and code; returns 1 if l is one. */
static int list_header(const line *l, page_date ref, char cat[8],
                       char date[32], int *code, int *has_year)
{
    const char *s = l->s, *e = l->s + l->n;
    while (s < e && (isdigit((unsigned char)*s) || *s == '.'))
        s++; /* optional score */
    if (e - s < 7 || !isupper((unsigned char)s[0]) ||
        !isupper((unsigned char)s[1]))
        return 0;
    snprintf(cat, 8, "cs.%c%c", s[0], s[1]);
    s += 2;
    const char *m = NULL;
    for (int i = 0; i < 12; i++)
        if (!memcmp(s, months + 3 * i, 3))
            m = months + 3 * i;
    if (!m || s[3] != ' ')
        return 0;
    int mon = (int)(m - months) / 3 + 1;
    s += 4;
    int day = 0, k = 0;
    while (s < e && isdigit((unsigned char)*s) && k < 2) {
        day = day * 10 + (*s++ - '0');
        k++;
    }
    if (!k || day < 1 || day > 31)
        return 0;
    int year = 0;
    *has_year = 0;
    if (e - s >= 6 && s[0] == ',' && s[1] == ' ' && all_digits(s + 2, 4)) {
        year = atoi(s + 2);
        s += 6;
        *has_year = 1;
    } else {
        resolve_year(ref, mon, day, &year);
    }
    *code = 0;
    if (e - s == 4 && !memcmp(s, "Code", 4)) {
        *code = 1;
        s += 4;
    }
    if (s != e)
        return 0;
    snprintf(date, 32, "%04d-%02d-%02d", year, mon, day);
    return 1;
}

/* A profile block header: kind (lower-case), year, venue:
 * "preprint2022arXiv". */
static int profile_header(const line *l, int *year, const char **venue,
                          size_t *vn)
{
    size_t i = 0;
    while (i < l->n && islower((unsigned char)l->s[i]))
        i++;
    if (i == 0 || i + 4 > l->n || !all_digits(l->s + i, 4))
        return 0;
    for (size_t j = i + 4; j < l->n; j++)
        if (isspace((unsigned char)l->s[j]))
            return 0;
    *year = atoi(l->s + i);
    *venue = l->s + i + 4;
    *vn = l->n - i - 4;
    return *year >= 1000;
}

/* "Created: YYYY-MM-DD" */
static int created_line(const line *l)
{
    return l->n == 19 && starts(l, "Created: ") && all_digits(l->s + 9, 4) &&
           l->s[13] == '-' && l->s[16] == '-';
}

/* -------------------------------------------------------------- names */

static int is_particle(const char *w, size_t n)
{
    static const char *const ps[] = {"van", "von", "der", "den", "de", "del",
                                     "della", "di", "da", "du", "dos", "la",
                                     "le", "ten", "ter", "bin", "al"};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        if (strlen(ps[i]) == n && !memcmp(ps[i], w, n))
            return 1;
    return 0;
}

/* One word of a name: "Zhihua", "Hou-biao", "O'Neil", "C.", "Müller". */
static int name_word(const char *w, size_t n)
{
    unsigned char c0 = (unsigned char)w[0];
    if (n == 2 && isupper(c0) && w[1] == '.')
        return 1; /* an initial */
    if (!(isupper(c0) || c0 >= 0xC0))
        return 0;
    size_t i = 1;
    if (c0 >= 0xC0) /* a non-ASCII first letter: skip its UTF-8 tail */
        while (i < n && ((unsigned char)w[i] & 0xC0) == 0x80)
            i++;
    if (i >= n)
        return 1; /* one capital letter: "Ó Conaill", "J Smith" */
    for (; i < n; i++) {
        unsigned char c = (unsigned char)w[i];
        if (islower(c) || c >= 0x80 || c == '\'')
            continue;
        if (c == '-' && i + 1 < n && isalpha((unsigned char)w[i + 1])) {
            i++; /* Hou-biao, Jean-Pierre */
            continue;
        }
        return 0;
    }
    return 1;
}

/* A personal name of 2..5 words. */
static int is_name(const char *s, size_t n)
{
    size_t words = 0, i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != ' ')
            j++;
        if (j == i)
            return 0; /* double space, or leading/trailing */
        if (!name_word(s + i, j - i) &&
            !(words > 0 && is_particle(s + i, j - i)))
            return 0;
        words++;
        i = j + (j < n);
        if (j + 1 == n)
            return 0; /* trailing space */
    }
    return words >= 2 && words <= 5;
}

typedef struct author_list {
    const char *names[256];
    size_t n;
    int truncated;
    const char *affiliation;
} author_list;

/* Parse "A, B, C et al. · affiliation" from s[0..n).  With `strict`, every
 * item must be a name (used to find the split of a compact block); else
 * the items are taken as they are.  Returns 1 if it is an author list. */
static int parse_authors(parser *p, const char *s, size_t n, int strict,
                         author_list *out)
{
    memset(out, 0, sizeof *out);
    const char *dot = NULL;
    for (size_t i = 0; i + 4 <= n; i++)
        if (!memcmp(s + i, " \xC2\xB7 ", 4)) { /* " · " */
            dot = s + i;
            break;
        }
    if (dot) {
        if (!strict) {
            out->affiliation = dup_span(p, dot + 4, (size_t)(s + n - dot - 4));
            if (out->affiliation && !*out->affiliation)
                out->affiliation = NULL;
        }
        n = (size_t)(dot - s);
    }
    while (n && s[n - 1] == ' ')
        n--;
    if (n >= 7 && !memcmp(s + n - 7, " et al.", 7)) {
        out->truncated = 1;
        n -= 7;
    } else if (n >= 6 && !memcmp(s + n - 6, " et al", 6)) {
        out->truncated = 1;
        n -= 6;
    }
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != ',')
            j++;
        size_t a = i, b = j;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && s[b - 1] == ' ')
            b--;
        if (strict && !is_name(s + a, b - a))
            return 0;
        if (b > a && out->n < sizeof out->names / sizeof out->names[0]) {
            if (!strict && !(out->names[out->n] = dup_span(p, s + a, b - a)))
                return 0;
            out->n++;
        }
        i = j + 1;
    }
    return out->n > 0;
}

/* Where the author list starts in a glued title+authors line, or 0. */
static size_t compact_split(parser *p, const line *l)
{
    author_list al;
    for (size_t i = 1; i < l->n; i++) {
        unsigned char c = (unsigned char)l->s[i];
        if (!(isupper(c) || (c >= 0xC0)) || l->s[i - 1] == ' ')
            continue;
        if (parse_authors(p, l->s + i, l->n - i, 1, &al))
            return i;
    }
    return 0;
}

static int set_authors(parser *p, pdx_work *w, const author_list *al)
{
    const char **v = arena_alloc(p->a, (al->n ? al->n : 1) * sizeof *v);
    if (!v) {
        p->oom = 1;
        return -1;
    }
    memcpy(v, al->names, al->n * sizeof *v);
    w->authors = v;
    w->n_authors = al->n;
    w->authors_truncated = al->truncated;
    w->affiliation = al->affiliation;
    return 0;
}

/* ------------------------------------------------------------- styles */

/* The owner of a profile page: the first line that reads as a name. */
static const char *profile_owner(parser *p, size_t upto)
{
    for (size_t i = 0; i < upto && i < 12; i++)
        if (is_name(p->ln[i].s, p->ln[i].n))
            return dup_span(p, p->ln[i].s, p->ln[i].n);
    return NULL;
}

static void parse_profile(parser *p)
{
    size_t first = p->nl;
    int year;
    const char *venue;
    size_t vn;
    for (size_t i = 0; i < p->nl; i++)
        if (profile_header(&p->ln[i], &year, &venue, &vn)) {
            first = i;
            break;
        }
    const char *owner = profile_owner(p, first);
    if (!owner)
        warn(p, 1, "profile page: no researcher name found near the top");
    for (size_t i = first; i < p->nl; i++) {
        if (!profile_header(&p->ln[i], &year, &venue, &vn))
            continue;
        /* header, title, abstract; the next header ends the block */
        int have_title = i + 1 < p->nl &&
                         !profile_header(&p->ln[i + 1], &year, &venue, &vn);
        int have_abs = have_title && i + 2 < p->nl &&
                       !profile_header(&p->ln[i + 2], &year, &venue, &vn);
        profile_header(&p->ln[i], &year, &venue, &vn);
        if (!have_title) {
            warn(p, p->ln[i].no,
                 "profile block breaks off after its header");
            continue;
        }
        page_item *it = new_item(p, p->ln[i].no);
        if (!it)
            return;
        pdx_work *w = &it->w;
        w->title = dup_span(p, p->ln[i + 1].s, p->ln[i + 1].n);
        if (have_abs)
            w->abstract = dup_span(p, p->ln[i + 2].s, p->ln[i + 2].n);
        w->year = year;
        if (vn)
            w->venue = dup_span(p, venue, vn);
        if (owner) {
            /* The owner is one author of the work, not all of them: the
             * list is marked truncated, so a fuller list leads a merge. */
            author_list al = {.n = 1, .names = {owner}, .truncated = 1};
            set_authors(p, w, &al);
        }
        if (!have_abs)
            warn(p, p->ln[i].no, "profile block has no abstract");
        i += have_abs ? 2 : 1;
    }
}

/* Does line l say the page is a researcher's (a count of papers, an
 * h-index: "h-index45", "24papers", "24 Papers")? */
static int profile_hint(const line *l)
{
    size_t i = 0;
    if (l->n > 7 && !memcmp(l->s, "h-index", 7))
        return 1;
    while (i < l->n && (isdigit((unsigned char)l->s[i]) || l->s[i] == ','))
        i++;
    if (i == 0)
        return 0;
    if (i < l->n && l->s[i] == ' ')
        i++;
    return (l->n - i == 6 && !strncasecmp(l->s + i, "papers", 6)) ||
           (l->n - i == 5 && !strncasecmp(l->s + i, "works", 5));
}

/* The owner of a `list` or `compact` page copied from a researcher's
 * profile: a line that reads as a name above the first block, when a line
 * there says it is a profile (profile_hint).  NULL for a page of search
 * results or a feed. */
static const char *list_owner(parser *p, size_t first)
{
    int hint = 0;
    for (size_t i = 0; i < first && i < 12; i++)
        hint |= profile_hint(&p->ln[i]);
    return hint ? profile_owner(p, first) : NULL;
}

/* Is `owner` one of al's names (by the author keys: "Yanjun Ma" is "Ma,
 * Yanjun" and "Y. Ma")? */
static int lists_owner(parser *p, const author_list *al, const char *owner)
{
    name_keys o;
    if (text_name_keys(p->a, owner, &o))
        return 0;
    for (size_t i = 0; i < al->n; i++) {
        name_keys k;
        if (text_name_keys(p->a, al->names[i], &k) == 0 &&
            !strcmp(k.family, o.family) && !strcmp(k.initial, o.initial))
            return 1;
    }
    return 0;
}

/* `list` and `compact` share the header; they differ in what follows. */
static void parse_blocks(parser *p, int compact)
{
    char cat[8], date[32];
    int code, has_year;
    size_t first = p->nl;
    for (size_t i = 0; i < p->nl && first == p->nl; i++)
        if (list_header(&p->ln[i], p->ref, cat, date, &code, &has_year))
            first = i;
    const char *owner = list_owner(p, first);
    for (size_t i = 0; i < p->nl; i++) {
        if (!list_header(&p->ln[i], p->ref, cat, date, &code, &has_year))
            continue;
        size_t need = compact ? 2 : 3, got = 0;
        while (got < need && i + 1 + got < p->nl &&
               !list_header(&p->ln[i + 1 + got], p->ref, cat, date, &code,
                            &has_year))
            got++;
        list_header(&p->ln[i], p->ref, cat, date, &code, &has_year);
        if (got < need) {
            warn(p, p->ln[i].no,
                 "%s", got ? "block breaks off: it has no abstract"
                           : "block breaks off after its header");
            i += got;
            continue;
        }
        const line *tl = &p->ln[i + 1];
        size_t at = compact ? compact_split(p, tl) : 0;
        if (compact && !at) {
            warn(p, tl->no, "cannot tell the title from the authors in this "
                            "block");
            i += need;
            continue;
        }
        page_item *it = new_item(p, p->ln[i].no);
        if (!it)
            return;
        pdx_work *w = &it->w;
        const char **cats = arena_alloc(p->a, sizeof *cats);
        char *c = arena_strdup(p->a, cat), *d = arena_strdup(p->a, date);
        if (!cats || !c || !d) {
            p->oom = 1;
            return;
        }
        cats[0] = c;
        w->categories = cats;
        w->n_categories = 1;
        w->date = d;
        w->code_available = code;
        author_list al = {.n = 0};
        int have = 0;
        if (compact) {
            w->title = dup_span(p, tl->s, at);
            have = parse_authors(p, tl->s + at, tl->n - at, 0, &al);
            w->abstract = dup_span(p, p->ln[i + 2].s, p->ln[i + 2].n);
        } else {
            w->title = dup_span(p, tl->s, tl->n);
            have = parse_authors(p, p->ln[i + 2].s, p->ln[i + 2].n, 0, &al);
            w->abstract = dup_span(p, p->ln[i + 3].s, p->ln[i + 3].n);
        }
        /* A profile's owner is an author of each work it lists: named
         * after the list when the page cut it ("et al.") without them;
         * a whole list without them is taken as written. */
        if (owner && (!have || al.truncated) &&
            al.n < sizeof al.names / sizeof al.names[0] &&
            !lists_owner(p, &al, owner)) {
            al.names[al.n++] = owner;
            al.truncated = 1;
            have = 1;
        }
        if (have)
            set_authors(p, w, &al);
        i += need;
    }
}

static void parse_abstracts(parser *p)
{
    for (size_t i = 0; i < p->nl; i++) {
        if (!starts(&p->ln[i], "Abstract:"))
            continue;
        page_item *it = new_item(p, p->ln[i].no);
        if (!it)
            return;
        it->w.abstract = dup_span(p, p->ln[i].s + 9, p->ln[i].n - 9);
        if (it->w.abstract && !*it->w.abstract) {
            it->w.abstract = NULL;
            p->n_items--;
            warn(p, p->ln[i].no, "empty abstract");
        }
    }
}

static void parse_listing(parser *p)
{
    size_t start = 0; /* first line of the current entry */
    for (size_t i = 0; i < p->nl; i++) {
        if (!created_line(&p->ln[i]))
            continue;
        /* start .. i-2: abstract and comments; i-1: arXiv:ID [- venue] */
        if (i < start + 2 || !starts(&p->ln[i - 1], "arXiv:")) {
            warn(p, p->ln[start < p->nl ? start : i].no,
                 "listing entry breaks off: expected an abstract, then "
                 "\"arXiv:ID\", then \"Created:\"");
            start = i + 1;
            continue;
        }
        page_item *it = new_item(p, p->ln[start].no);
        if (!it)
            return;
        pdx_work *w = &it->w;
        w->abstract = dup_span(p, p->ln[start].s, p->ln[start].n);
        if (i - 1 > start + 1) {
            const line *c0 = &p->ln[start + 1], *c1 = &p->ln[i - 2];
            w->comments = dup_span(p, c0->s, (size_t)(c1->s + c1->n - c0->s));
        }
        const line *al = &p->ln[i - 1];
        size_t idlen = 6;
        while (idlen < al->n && al->s[idlen] != ' ')
            idlen++;
        w->arxiv_id = dup_span(p, al->s + 6, idlen - 6);
        w->id = w->arxiv_id;
        if (idlen + 3 <= al->n && !memcmp(al->s + idlen, " - ", 3))
            w->venue = dup_span(p, al->s + idlen + 3, al->n - idlen - 3);
        w->date = dup_span(p, p->ln[i].s + 9, 10);
        if (w->date && !record_date_valid(w->date)) {
            warn(p, p->ln[i].no, "not a date: \"%s\"", w->date);
            w->date = NULL;
        }
        start = i + 1;
    }
    if (start < p->nl)
        warn(p, p->ln[start].no,
             "listing entry breaks off at the end of the page");
}

/* ---------------------------------------------------------- detection */

static pdx_format page_detect(parser *p)
{
    size_t n_profile = 0, n_list = 0, n_compact = 0, n_abs = 0, n_created = 0;
    char cat[8], date[32];
    int code, has_year, year;
    const char *venue;
    size_t vn;
    author_list al;
    for (size_t i = 0; i < p->nl; i++) {
        const line *l = &p->ln[i];
        if (starts(l, "Abstract:"))
            n_abs++;
        else if (created_line(l))
            n_created++;
        else if (profile_header(l, &year, &venue, &vn))
            n_profile++;
        else if (list_header(l, p->ref, cat, date, &code, &has_year)) {
            if (i + 2 < p->nl && parse_authors(p, p->ln[i + 2].s,
                                               p->ln[i + 2].n, 1, &al))
                n_list++; /* the line after the title is all names */
            if (i + 1 < p->nl && compact_split(p, &p->ln[i + 1]))
                n_compact++;
        }
    }
    /* Each header counts for the style its next lines fit: a list block
     * has a line of names after its title, a compact block a glued line
     * that splits into title and names.  The style with most blocks wins;
     * on a tie the order below decides. */
    size_t best = 0;
    pdx_format f = PDX_FORMAT_AUTO;
    const struct {
        size_t n;
        pdx_format f;
    } c[] = {{n_compact, PDX_FORMAT_COMPACT}, {n_list, PDX_FORMAT_LIST},
             {n_profile, PDX_FORMAT_PROFILE}, {n_abs, PDX_FORMAT_ABSTRACTS},
             {n_created, PDX_FORMAT_LISTING}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (c[i].n > best) {
            best = c[i].n;
            f = c[i].f;
        }
    return f;
}

int page_parse(arena *a, const char *name, char *text, size_t len,
               pdx_format style, page_date ref, page_item **items,
               size_t *n_items, pdx_format *detected)
{
    parser p = {.a = a, .name = name, .ref = ref};
    size_t cap = 64;
    p.ln = malloc(cap * sizeof *p.ln);
    if (!p.ln)
        return -1;
    uint64_t no = 0;
    for (size_t i = 0; i <= len;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        no++;
        size_t a0 = i, b0 = j;
        while (a0 < b0 && isspace((unsigned char)text[a0]))
            a0++;
        while (b0 > a0 && isspace((unsigned char)text[b0 - 1]))
            b0--;
        size_t bad;
        if (b0 > a0 && !text_utf8_valid(text + a0, b0 - a0, &bad)) {
            char where[64];
            snprintf(where, sizeof where, "%zu", (size_t)(a0 - i) + bad + 1);
            warn(&p, no, "invalid UTF-8 at byte %s; the line is skipped",
                 where);
        } else if (b0 > a0) {
            if (p.nl == cap) {
                line *nl = realloc(p.ln, (cap *= 2) * sizeof *nl);
                if (!nl) {
                    free(p.ln);
                    return -1;
                }
                p.ln = nl;
            }
            p.ln[p.nl++] = (line){text + a0, b0 - a0, no};
        }
        if (j == len)
            break;
        i = j + 1;
    }
    if (style == PDX_FORMAT_AUTO)
        style = page_detect(&p);
    *detected = style;
    switch (style) {
    case PDX_FORMAT_PROFILE: parse_profile(&p); break;
    case PDX_FORMAT_LIST: parse_blocks(&p, 0); break;
    case PDX_FORMAT_COMPACT: parse_blocks(&p, 1); break;
    case PDX_FORMAT_ABSTRACTS: parse_abstracts(&p); break;
    case PDX_FORMAT_LISTING: parse_listing(&p); break;
    default: break;
    }
    if (!p.oom && p.n_items == 0)
        warn(&p, p.nl ? p.ln[0].no : 1, "%s",
             style == PDX_FORMAT_AUTO
                 ? "the page matches no known style (profile, list, "
                   "abstracts, listing, compact)"
                 : "no block of the requested style found");
    free(p.ln);
    *items = p.items;
    *n_items = p.n_items;
    return p.oom ? -1 : 0;
}
