/*
 * bibtex.c -- BibTeX (.bib) entries, streamed: one entry in memory at a
 * time, each named by its line when it is bad.
 *
 * Why by hand.  Debian's BibTeX library, libbtparse (btparse 0.89, the C
 * half of Text::BibTeX), was tried first.  It keeps its state in globals
 * (one parse at a time per process, while pdx_sync reads files in several
 * threads), prints its diagnostics on stderr with no way to take them,
 * and on malformed input calls exit(1): 4 of 400 randomly mutated copies
 * of a small .bib file ended the test program with "fatal error:
 * bt_postprocess_field: invalid AST node".  A library that a server
 * embeds cannot let a bad file end the process.  bibutils (libbibutils)
 * reads the whole file before giving a record.  BibTeX's grammar is small
 * (Oren Patashnik's "BibTeXing", and btparse's own bt_language(5)), so
 * this reader follows it:
 *
 *   @type{key, name = value # value ..., ...}   (or parentheses)
 *   value: {balanced braces} | "quoted, braces balanced" | 123 | macro
 *   @string{name = value}, @preamble{...}, @comment{...}
 *   text outside entries is a comment.
 *
 * Macros: @string definitions of the file (at most 1000) and the month
 * abbreviations jan..dec.  Values keep their inner braces until the field
 * is used; then TeX accents are decoded by text_clean ({\"u} -> ü) and
 * the remaining braces dropped.
 *
 * Fields: title, abstract, author (split on "and" outside braces; "Last,
 * First", "von Last, Jr, First" and "First Last"; a fully braced name is
 * a corporate author; "and others" marks the list truncated), year and
 * month (or biblatex's date), doi, eprint with archiveprefix arXiv (or an
 * arxiv.org url) as the arXiv id, pmid, journal / journaltitle /
 * booktitle as venue, keywords as subjects.  The citation key places the
 * record in its file (pdx_work.source_key): an entry keeps its place
 * when others are added above it.  Keys are never used to merge works:
 * two files may give one key to two papers.
 *
 * Errors: an entry that is not closed, a field without '=' or a value
 * that is not one, is skipped with its line; reading goes on at the next
 * '@' that starts a line.  Such an '@' also ends a value left open: a
 * missing brace costs one entry, not the rest of the file.
 */
#include "bibtex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/text.h"
#include "record.h"

#define BUF 65536
#define MAX_MACROS 1000
#define MAX_ENTRY (16u << 20) /* bytes of one entry's values */
#define MAX_FIELDS 200

typedef struct macro {
    char *name, *value;
} macro;

typedef struct field {
    char name[32];
    size_t off, len; /* in the entry buffer */
} field;

/* An entry's fields as "name\0value\0" pairs, kept past the entry. */
typedef struct pairs {
    char *s;
    size_t len, n;
} pairs;

/* What an entry that may be crossref'd lends (open addressing on the
 * hash of its lower-cased key). */
typedef struct parent {
    uint64_t h; /* 0: empty */
    char *key;
    pairs lent;
} parent;

/* An entry whose crossref parent comes later in the file. */
typedef struct child {
    char type[32], key[256];
    uint64_t line;
    pairs fields;
} child;

struct bibtex {
    const char *name;
    char buf[BUF];
    size_t pos, len;
    int eof, broke;
    uint64_t line;
    int at_line_start; /* only blanks since the last newline */
    macro macros[MAX_MACROS];
    size_t n_macros;
    strbuf val;        /* the entry's values, one after the other */
    field fields[MAX_FIELDS];
    size_t n_fields;
    char key[256];
    char type[32];
    char err[256];
    pdx_skip skip;     /* why the last entry skipped was */
    /* crossref: what entries that may be parents (books, proceedings,
     * collections) lend their children, by key; and the children whose
     * parent had not come yet, read again at the end of the file */
    parent *parents;
    size_t cap_parents, n_parents;
    child *children;
    size_t n_children, cap_children, next_child;
};

/* ------------------------------------------------------------ input */

static int peekc(bibtex *b, record_read_fn rd, void *ctx)
{
    if (b->pos == b->len) {
        if (b->eof)
            return EOF;
        int n = rd(ctx, b->buf, BUF);
        if (n <= 0) {
            b->eof = 1;
            b->broke = n < 0;
            return EOF;
        }
        b->pos = 0;
        b->len = (size_t)n;
    }
    return (unsigned char)b->buf[b->pos];
}

static int getc_(bibtex *b, record_read_fn rd, void *ctx)
{
    int c = peekc(b, rd, ctx);
    if (c == EOF)
        return EOF;
    b->pos++;
    if (c == '\n') {
        b->line++;
        b->at_line_start = 1;
    } else if (!isspace(c)) {
        b->at_line_start = 0;
    }
    return c;
}

static int skip_ws(bibtex *b, record_read_fn rd, void *ctx)
{
    int c;
    while ((c = peekc(b, rd, ctx)) != EOF && isspace(c))
        getc_(b, rd, ctx);
    return c;
}

/* An identifier: a field, type or macro name (lower-cased into out). */
static size_t ident(bibtex *b, record_read_fn rd, void *ctx, char *out,
                    size_t cap)
{
    size_t n = 0;
    int c;
    while ((c = peekc(b, rd, ctx)) != EOF &&
           !isspace(c) && !strchr("{}()=,#\"%", c)) {
        getc_(b, rd, ctx);
        if (n + 1 < cap)
            out[n++] = (char)tolower(c);
    }
    out[n] = '\0';
    return n;
}

/* After an error: on to the next '@' that starts a line (or the end). */
static void resync(bibtex *b, record_read_fn rd, void *ctx)
{
    int c;
    while ((c = peekc(b, rd, ctx)) != EOF) {
        if (c == '@' && b->at_line_start)
            return;
        getc_(b, rd, ctx);
    }
}

/* ------------------------------------------------------------ values */

static const char *macro_value(const bibtex *b, const char *name)
{
    static const char *const months[][2] = {
        {"jan", "1"}, {"feb", "2"},  {"mar", "3"},  {"apr", "4"},
        {"may", "5"}, {"jun", "6"},  {"jul", "7"},  {"aug", "8"},
        {"sep", "9"}, {"oct", "10"}, {"nov", "11"}, {"dec", "12"}};
    for (size_t i = b->n_macros; i-- > 0;)
        if (!strcmp(b->macros[i].name, name))
            return b->macros[i].value;
    for (size_t i = 0; i < 12; i++)
        if (!strcmp(months[i][0], name))
            return months[i][1];
    return NULL;
}

/* One piece of a value, appended to b->val.  0, or -1 with b->err. */
static int piece(bibtex *b, record_read_fn rd, void *ctx)
{
    int c = skip_ws(b, rd, ctx);
    if (c == '{' || c == '"') {
        int quote = c == '"';
        getc_(b, rd, ctx);
        int depth = 0;
        for (;;) {
            /* An '@' that starts a line is taken for the next entry: one
             * missing brace costs its own entry, not the rest of the
             * file (BibTeX itself would read on to the end). */
            if (peekc(b, rd, ctx) == '@' && b->at_line_start) {
                snprintf(b->err, sizeof b->err, "a %s value is not closed "
                         "before the next entry (line %llu)",
                         quote ? "quoted" : "braced",
                         (unsigned long long)b->line);
                return -1;
            }
            c = getc_(b, rd, ctx);
            if (c == EOF) {
                snprintf(b->err, sizeof b->err, "a %s value is not closed "
                         "before the end of the file",
                         quote ? "quoted" : "braced");
                return -1;
            }
            if (c == '{')
                depth++;
            else if (c == '}') {
                if (depth == 0) {
                    if (quote) {
                        snprintf(b->err, sizeof b->err,
                                 "unbalanced braces in a quoted value");
                        return -1;
                    }
                    return 0;
                }
                depth--;
            } else if (c == '"' && quote && depth == 0) {
                return 0;
            }
            if (b->val.len >= MAX_ENTRY) {
                snprintf(b->err, sizeof b->err, "an entry longer than %u "
                         "bytes", MAX_ENTRY);
                return -1;
            }
            sb_putc(&b->val, (char)c);
        }
    }
    if (isdigit(c)) {
        while ((c = peekc(b, rd, ctx)) != EOF && isdigit(c))
            sb_putc(&b->val, (char)getc_(b, rd, ctx));
        return 0;
    }
    char name[64];
    if (!ident(b, rd, ctx, name, sizeof name)) {
        if (c == EOF)
            snprintf(b->err, sizeof b->err, "the file ends inside an entry");
        else
            snprintf(b->err, sizeof b->err, "'%c' where a value should be",
                     c);
        return -1;
    }
    const char *v = macro_value(b, name);
    if (v) /* an undefined macro is empty, as BibTeX warns and does */
        sb_puts(&b->val, v);
    return 0;
}

/* value := piece ('#' piece)* */
static int value(bibtex *b, record_read_fn rd, void *ctx)
{
    for (;;) {
        if (piece(b, rd, ctx))
            return -1;
        if (skip_ws(b, rd, ctx) != '#')
            return 0;
        getc_(b, rd, ctx);
    }
}

/* Skip a balanced body up to its closing `close`. */
static int skip_body(bibtex *b, record_read_fn rd, void *ctx, int close)
{
    int depth = 0, c;
    while ((c = getc_(b, rd, ctx)) != EOF) {
        if (c == '{' || (close == ')' && c == '('))
            depth++;
        else if ((c == '}' || (close == ')' && c == ')')) && depth-- == 0)
            return 0;
    }
    snprintf(b->err, sizeof b->err, "the file ends inside an entry");
    return -1;
}

/* The fields of an entry (or @string), up to `close`. */
static int fields(bibtex *b, record_read_fn rd, void *ctx, int close)
{
    for (;;) {
        int c = skip_ws(b, rd, ctx);
        if (c == close) {
            getc_(b, rd, ctx);
            return 0;
        }
        if (c == ',') { /* a trailing comma, or an empty field */
            getc_(b, rd, ctx);
            continue;
        }
        char name[32];
        if (!ident(b, rd, ctx, name, sizeof name)) {
            snprintf(b->err, sizeof b->err, c == EOF
                     ? "the file ends inside an entry"
                     : "'%c' where a field name should be", c);
            return -1;
        }
        if (skip_ws(b, rd, ctx) != '=') {
            snprintf(b->err, sizeof b->err, "field \"%s\" has no '='", name);
            return -1;
        }
        getc_(b, rd, ctx);
        size_t off = b->val.len;
        if (value(b, rd, ctx))
            return -1;
        if (b->n_fields < MAX_FIELDS) {
            field *f = &b->fields[b->n_fields++];
            snprintf(f->name, sizeof f->name, "%s", name);
            f->off = off;
            f->len = b->val.len - off;
        }
        sb_putc(&b->val, '\0');
        c = skip_ws(b, rd, ctx);
        if (c == ',') {
            getc_(b, rd, ctx);
        } else if (c != close) {
            snprintf(b->err, sizeof b->err, c == EOF
                     ? "the file ends inside an entry"
                     : "'%c' after field \"%s\": a ',' or the entry's end "
                       "should come", c, name);
            return -1;
        }
    }
}

/* ------------------------------------------------------------ fields */

static const char *raw(const bibtex *b, const char *name)
{
    for (size_t i = b->n_fields; i-- > 0;)
        if (!strcmp(b->fields[i].name, name))
            return b->val.s + b->fields[i].off;
    return NULL;
}

/* A value for display: TeX decoded, braces dropped, spaces collapsed. */
static char *clean(arena *a, const char *s)
{
    if (!s)
        return NULL;
    char *t = text_clean(a, s);
    if (!t)
        return NULL;
    /* The braces that protect case go; TeX's '~' is a no-break space,
     * but not in a URL's path ("/~user"). */
    char *o = t;
    for (const char *p = t; *p; p++)
        if (*p == '~' && (p == t || p[-1] != '/'))
            *o++ = ' ';
        else if (*p != '{' && *p != '}')
            *o++ = *p;
    *o = '\0';
    t = text_collapse(a, t);
    return t && *t ? t : NULL;
}

/* The n bytes at s without the white space around them. */
static const char *trimmed(const char *s, size_t *n)
{
    while (*n && isspace((unsigned char)*s))
        s++, (*n)--;
    while (*n && isspace((unsigned char)s[*n - 1]))
        (*n)--;
    return s;
}

/* "von Last, Jr, First" / "Last, First" / "First Last" -> "First von
 * Last Jr"; a name in braces as a whole stays as it is.  "Last, First,
 * Jr." (a suffix last and none in the middle), which exports write for
 * BibTeX's "Last, Jr., First", is read as that. */
static char *name_of(arena *a, const char *s, size_t n)
{
    s = trimmed(s, &n);
    const char *comma[2] = {NULL, NULL};
    int depth = 0, nc = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '{')
            depth++;
        else if (s[i] == '}')
            depth--;
        else if (s[i] == ',' && depth == 0 && nc < 2)
            comma[nc++] = s + i;
    }
    strbuf o = STRBUF_INIT;
    if (nc == 0) {
        sb_append(&o, s, n);
    } else {
        const char *last = s, *end = s + n;
        size_t last_n = (size_t)(comma[0] - s);
        const char *jr = nc == 2 ? comma[0] + 1 : NULL;
        size_t jr_n = nc == 2 ? (size_t)(comma[1] - jr) : 0;
        const char *first = (nc == 2 ? comma[1] : comma[0]) + 1;
        size_t first_n = (size_t)(end - first);
        if (jr) {
            jr = trimmed(jr, &jr_n);
            first = trimmed(first, &first_n);
            if (text_name_is_suffix(first, first_n) &&
                !text_name_is_suffix(jr, jr_n)) { /* "Last, First, Jr." */
                const char *t = jr;
                size_t t_n = jr_n;
                jr = first, jr_n = first_n;
                first = t, first_n = t_n;
            }
        }
        sb_append(&o, first, first_n);
        sb_putc(&o, ' ');
        sb_append(&o, last, last_n);
        if (jr) {
            sb_putc(&o, ' ');
            sb_append(&o, jr, jr_n);
        }
    }
    char *r = o.ok && o.s ? clean(a, o.s) : NULL;
    sb_release(&o);
    return r;
}

static int authors(arena *a, const char *s, pdx_work *w)
{
    size_t n = strlen(s), cap = 8, k = 0;
    const char **v = arena_alloc(a, cap * sizeof *v);
    if (!v)
        return -1;
    int depth = 0;
    size_t start = 0, i = 0;
    for (;;) {
        int cut = i == n;
        size_t skip = 0;
        if (!cut) {
            if (s[i] == '{')
                depth++;
            else if (s[i] == '}')
                depth--;
            else if (depth == 0 && isspace((unsigned char)s[i]) &&
                     !strncasecmp(s + i + 1, "and", 3) &&
                     (i + 4 >= n || isspace((unsigned char)s[i + 4]))) {
                cut = 1;
                skip = i + 4 >= n ? n - i : 4;
            }
        }
        if (!cut) {
            i++;
            continue;
        }
        const char *p = s + start;
        size_t len = i - start;
        while (len && isspace((unsigned char)*p))
            p++, len--;
        while (len && isspace((unsigned char)p[len - 1]))
            len--;
        if (len == 6 && !strncasecmp(p, "others", 6)) {
            w->authors_truncated = 1;
        } else if (len) {
            char *name = name_of(a, p, len);
            if (name) {
                if (k == cap) {
                    const char **nv = arena_alloc(a, 2 * cap * sizeof *nv);
                    if (!nv)
                        return -1;
                    memcpy(nv, v, k * sizeof *v);
                    v = nv;
                    cap *= 2;
                }
                v[k++] = name;
            }
        }
        if (i == n)
            break;
        i += skip;
        start = i;
    }
    w->authors = v;
    w->n_authors = k;
    return 0;
}

static int keywords(arena *a, const char *s, pdx_work *w)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',' || *p == ';';
    const char **v = arena_alloc(a, cap * sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    while (*s) {
        size_t len = strcspn(s, ",;");
        char *t = arena_strndup(a, s, len);
        char *c = t ? clean(a, t) : NULL;
        if (c && k < cap)
            v[k++] = c;
        s += len + (s[len] != '\0');
    }
    w->subjects = v;
    w->n_subjects = k;
    return 0;
}

/* The first plausible year in s (four digits from 1000 to 2999 that are
 * not part of a longer number) into out ("YYYY"); 0 when there is none. */
static int first_year(const char *s, char out[16])
{
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p) || (p > s && isdigit((unsigned char)p[-1])))
            continue;
        size_t k = strspn(p, "0123456789");
        if (k == 4 && (p[0] == '1' || p[0] == '2')) {
            snprintf(out, 16, "%.4s", p);
            return 1;
        }
    }
    return 0;
}

/* The entry in b into w. */
static pdx_skip build(bibtex *b, arena *a, pdx_work *w, strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    if (b->key[0] && !(w->source_key = arena_strdup(a, b->key)))
        goto oom;
    /* Scopus's exports keep the title's HTML (CO<inf>2</inf>, &amp;) */
    w->title = clean(a, raw(b, "title"));
    w->abstract = clean(a, raw(b, "abstract"));
    if ((w->title && !(w->title = text_strip_markup(a, w->title))) ||
        (w->abstract && !(w->abstract = text_strip_markup(a, w->abstract))))
        goto oom;
    const char *au = raw(b, "author");
    if (au && authors(a, au, w))
        goto oom;
    const char *venue = raw(b, "journal");
    if (!venue)
        venue = raw(b, "journaltitle");
    if (!venue)
        venue = raw(b, "booktitle");
    w->venue = clean(a, venue);
    w->doi = clean(a, raw(b, "doi")); /* one spelling: record_finish */
    const char *url = clean(a, raw(b, "url"));
    if (!w->doi && url && strstr(url, "doi.org/"))
        w->doi = url;
    const char *eprint = clean(a, raw(b, "eprint"));
    const char *prefix = clean(a, raw(b, "archiveprefix"));
    if (!prefix)
        prefix = clean(a, raw(b, "eprinttype"));
    if (eprint && (!prefix || !strcasecmp(prefix, "arxiv")))
        w->arxiv_id = eprint;
    else if (url && strstr(url, "arxiv.org/abs/"))
        w->arxiv_id = strstr(url, "arxiv.org/abs/") + 14;
    const char *pmid = clean(a, raw(b, "pmid"));
    if (pmid && record_pmid_valid(pmid))
        w->pmid = pmid;
    const char *kw = raw(b, "keywords");
    if (kw && keywords(a, kw, w))
        goto oom;
    const char *date = clean(a, raw(b, "date"));
    const char *year = clean(a, raw(b, "year"));
    const char *month = clean(a, raw(b, "month"));
    /* The date, or else the year (and month), as people write them: a
     * biblatex date or range ("2020-05-01/2020-05-03", "1984/1986": its
     * start), a year with more around it ("1875 [2004]", "Autumn 2001",
     * "c. 1990": its first plausible year).  An entry whose year holds
     * none is kept without a date. */
    char d[16];
    size_t dn = date ? strspn(date, "0123456789-") : 0;
    if (dn > 10)
        dn = 10;
    while (dn > 4 && date[dn - 1] == '-')
        dn--;
    if (dn >= 4 && (snprintf(d, sizeof d, "%.*s", (int)dn, date), 1) &&
        record_date_valid(d)) {
        if (!(w->date = arena_strdup(a, d)))
            goto oom;
    } else if ((date && first_year(date, d)) || (year && first_year(year, d))) {
        int mo = month ? atoi(month) : 0;
        static const char names[] = "janfebmaraprmayjunjulaugsepoctnovdec";
        for (int k = 0; month && !mo && k < 12 && strlen(month) >= 3; k++)
            if (!strncasecmp(month, names + 3 * k, 3))
                mo = k + 1; /* month = {Oct}, {October} */
        if (mo >= 1 && mo <= 12 && !(date && first_year(date, d)))
            snprintf(d + 4, sizeof d - 4, "-%02d", mo);
        if (!(w->date = arena_strdup(a, d)))
            goto oom;
    }
    return PDX_SKIP_NONE;
oom:
    sb_puts(why, "out of memory");
    return PDX_SKIP_FIELD;
}

/* ------------------------------------------------------------ the API */

bibtex *bibtex_new(const char *name)
{
    bibtex *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->name = name;
    b->line = 1;
    b->at_line_start = 1;
    b->val = (strbuf)STRBUF_INIT;
    return b;
}

void bibtex_free(bibtex *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->cap_parents; i++) {
        free(b->parents[i].key);
        free(b->parents[i].lent.s);
    }
    free(b->parents);
    for (size_t i = 0; i < b->n_children; i++)
        free(b->children[i].fields.s);
    free(b->children);
    for (size_t i = 0; i < b->n_macros; i++) {
        free(b->macros[i].name);
        free(b->macros[i].value);
    }
    sb_release(&b->val);
    free(b);
}

pdx_skip bibtex_skip_kind(const bibtex *b) { return b->skip; }

int bibtex_looks_like(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    return i < n && (s[i] == '@' || (s[i] == '%' && memchr(s, '@', n)));
}

/* ------------------------------------------------------------ crossref
 *
 * A chapter or paper names the book or proceedings it is in by
 * crossref = {key}, and takes from it the fields it lacks (BibTeX's
 * rule; the parent's title is the child's booktitle).  Only what a
 * child may take is kept of a parent: its year, month, date, booktitle
 * or title, journal; never an identifier (DOI, PMID, eprint, URL), which
 * would merge the chapter with its book.  BibTeX wants the parent after
 * its children; such a child waits in memory until the end of the file,
 * where it is read with its parent's fields. */

static const char *const lent_fields[] = {"year", "month", "date", "booktitle",
                                          "journal", "journaltitle"};

static int may_be_parent(const char *type)
{
    static const char *const types[] = {
        "book", "mvbook", "collection", "mvcollection", "proceedings",
        "mvproceedings", "reference", "mvreference", "periodical", "inbook",
        "bookinbook"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(type, types[i]))
            return 1;
    return 0;
}

static uint64_t key_hash(const char *key)
{
    char low[256];
    size_t n = 0;
    for (; key[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)key[n]);
    uint64_t h = text_hash64(low, n);
    return h ? h : 1;
}

static int pairs_add(pairs *p, const char *name, const char *value, size_t vn)
{
    size_t nn = strlen(name), need = p->len + nn + vn + 2;
    char *ns = realloc(p->s, need);
    if (!ns)
        return -1;
    memcpy(ns + p->len, name, nn + 1);
    memcpy(ns + p->len + nn + 1, value, vn);
    ns[need - 1] = '\0';
    p->s = ns;
    p->len = need;
    p->n++;
    return 0;
}

/* Keep what the entry now in b lends a child.  0, or -1 out of memory. */
static int keep_parent(bibtex *b)
{
    if (!b->key[0] || !may_be_parent(b->type))
        return 0;
    if (2 * (b->n_parents + 1) > b->cap_parents) {
        size_t cap = b->cap_parents ? 2 * b->cap_parents : 64;
        parent *np = calloc(cap, sizeof *np);
        if (!np)
            return -1;
        for (size_t i = 0; i < b->cap_parents; i++)
            if (b->parents[i].h) {
                size_t k = b->parents[i].h & (cap - 1);
                while (np[k].h)
                    k = (k + 1) & (cap - 1);
                np[k] = b->parents[i];
            }
        free(b->parents);
        b->parents = np;
        b->cap_parents = cap;
    }
    uint64_t h = key_hash(b->key);
    size_t k = h & (b->cap_parents - 1);
    while (b->parents[k].h && (b->parents[k].h != h ||
                               strcasecmp(b->parents[k].key, b->key)))
        k = (k + 1) & (b->cap_parents - 1);
    parent *p = &b->parents[k];
    if (p->h) { /* a key twice: the later entry lends */
        free(p->lent.s);
        p->lent = (pairs){NULL, 0, 0};
    } else if (!(p->key = strdup(b->key))) {
        return -1;
    } else {
        p->h = h;
        b->n_parents++;
    }
    for (size_t i = 0; i < sizeof lent_fields / sizeof lent_fields[0]; i++) {
        const char *v = raw(b, lent_fields[i]);
        if (v && pairs_add(&p->lent, lent_fields[i], v, strlen(v)))
            return -1;
    }
    const char *title = raw(b, "title");
    if (title && !raw(b, "booktitle") &&
        pairs_add(&p->lent, "booktitle", title, strlen(title)))
        return -1;
    return 0;
}

static const parent *find_parent(const bibtex *b, const char *key)
{
    if (!b->cap_parents)
        return NULL;
    uint64_t h = key_hash(key);
    for (size_t k = h & (b->cap_parents - 1); b->parents[k].h;
         k = (k + 1) & (b->cap_parents - 1))
        if (b->parents[k].h == h && !strcasecmp(b->parents[k].key, key))
            return &b->parents[k];
    return NULL;
}

/* Append a field to the entry now in b. */
static void add_field(bibtex *b, const char *name, const char *v, size_t vn)
{
    if (b->n_fields >= MAX_FIELDS)
        return;
    field *f = &b->fields[b->n_fields++];
    snprintf(f->name, sizeof f->name, "%s", name);
    f->off = b->val.len;
    f->len = vn;
    sb_append(&b->val, v, vn);
    sb_putc(&b->val, '\0');
}

/* The entry now in b takes from parent p the fields it lacks. */
static void inherit(bibtex *b, const parent *p)
{
    const char *q = p->lent.s;
    for (size_t i = 0; i < p->lent.n; i++) {
        const char *v = q + strlen(q) + 1;
        if (!raw(b, q))
            add_field(b, q, v, strlen(v));
        q = v + strlen(v) + 1;
    }
}

/* Set the entry now in b aside until the end of the file.  0, or -1. */
static int wait_for_parent(bibtex *b, uint64_t line)
{
    if (b->n_children == b->cap_children) {
        size_t cap = b->cap_children ? 2 * b->cap_children : 16;
        child *nc = realloc(b->children, cap * sizeof *nc);
        if (!nc)
            return -1;
        b->children = nc;
        b->cap_children = cap;
    }
    child *c = &b->children[b->n_children];
    memset(c, 0, sizeof *c);
    snprintf(c->type, sizeof c->type, "%s", b->type);
    snprintf(c->key, sizeof c->key, "%s", b->key);
    c->line = line;
    for (size_t i = 0; i < b->n_fields; i++)
        if (pairs_add(&c->fields, b->fields[i].name,
                      b->val.s + b->fields[i].off, b->fields[i].len)) {
            free(c->fields.s);
            return -1;
        }
    b->n_children++;
    return 0;
}

/* The next child set aside back in b, with its parent's fields (if the
 * file had it after all).  0, or -1 when none is left. */
static int take_child(bibtex *b, uint64_t *line)
{
    if (b->next_child == b->n_children)
        return -1;
    child *c = &b->children[b->next_child++];
    sb_clear(&b->val);
    b->n_fields = 0;
    snprintf(b->type, sizeof b->type, "%s", c->type);
    snprintf(b->key, sizeof b->key, "%s", c->key);
    *line = c->line;
    const char *q = c->fields.s;
    for (size_t i = 0; i < c->fields.n; i++) {
        const char *v = q + strlen(q) + 1;
        add_field(b, q, v, strlen(v));
        q = v + strlen(v) + 1;
    }
    free(c->fields.s);
    c->fields.s = NULL;
    const char *xref = raw(b, "crossref");
    const parent *p = xref ? find_parent(b, xref) : NULL;
    if (p)
        inherit(b, p);
    return 0;
}

/* The entry now in b (its fields read) into w, as bibtex_next returns. */
static int finish_entry(bibtex *b, arena *a, pdx_work *w, strbuf *why)
{
    if (!b->val.ok) {
        sb_puts(why, "out of memory");
        return -2;
    }
    pdx_skip k = build(b, a, w, why);
    if (k != PDX_SKIP_NONE) {
        b->skip = k;
        return -1;
    }
    return 1;
}

int bibtex_next(bibtex *b, arena *a, pdx_work *w, uint64_t *line,
                strbuf *why, record_read_fn rd, void *ctx)
{
    for (;;) {
        int c;
        /* Text outside entries is a comment. */
        while ((c = peekc(b, rd, ctx)) != EOF && c != '@')
            getc_(b, rd, ctx);
        if (c == EOF && !b->broke && take_child(b, line) == 0)
            return finish_entry(b, a, w, why);
        if (c == EOF)
            return b->broke ? -3 : 0;
        *line = b->line;
        getc_(b, rd, ctx);
        sb_clear(&b->val);
        b->n_fields = 0;
        b->key[0] = '\0';
        skip_ws(b, rd, ctx);
        if (!ident(b, rd, ctx, b->type, sizeof b->type)) {
            continue; /* an '@' in a comment: BibTeX ignores it too */
        }
        c = skip_ws(b, rd, ctx);
        if (c != '{' && c != '(') {
            snprintf(b->err, sizeof b->err,
                     "@%s is not followed by '{' or '('", b->type);
            goto bad;
        }
        getc_(b, rd, ctx);
        int close = c == '{' ? '}' : ')';
        if (!strcmp(b->type, "comment") || !strcmp(b->type, "preamble")) {
            if (skip_body(b, rd, ctx, close))
                goto bad;
            continue;
        }
        if (!strcmp(b->type, "string")) {
            if (fields(b, rd, ctx, close))
                goto bad;
            for (size_t i = 0; i < b->n_fields && b->n_macros < MAX_MACROS; i++) {
                macro *m = &b->macros[b->n_macros];
                m->name = strdup(b->fields[i].name);
                m->value = strndup(b->val.s + b->fields[i].off,
                                   b->fields[i].len);
                if (!m->name || !m->value) {
                    free(m->name);
                    free(m->value);
                    sb_puts(why, "out of memory");
                    return -2;
                }
                b->n_macros++;
            }
            continue;
        }
        /* The key: up to the first ',' (or the end of an entry without
         * fields). */
        size_t kn = 0;
        skip_ws(b, rd, ctx);
        while ((c = peekc(b, rd, ctx)) != EOF && c != ',' && c != close &&
               !isspace(c)) {
            getc_(b, rd, ctx);
            if (kn + 1 < sizeof b->key)
                b->key[kn++] = (char)c;
        }
        b->key[kn] = '\0';
        c = skip_ws(b, rd, ctx);
        if (c == ',')
            getc_(b, rd, ctx);
        else if (c != close) {
            snprintf(b->err, sizeof b->err, c == EOF
                     ? "the file ends inside an entry"
                     : "the key \"%.60s\" is not followed by ','", b->key);
            goto bad;
        }
        if (fields(b, rd, ctx, close))
            goto bad;
        if (keep_parent(b)) {
            sb_puts(why, "out of memory");
            return -2;
        }
        const char *xref = raw(b, "crossref");
        if (xref && *xref) {
            const parent *p = find_parent(b, xref);
            if (p) {
                inherit(b, p);
            } else if (wait_for_parent(b, *line)) {
                sb_puts(why, "out of memory");
                return -2;
            } else {
                continue; /* read at the end, after its parent */
            }
        }
        return finish_entry(b, a, w, why);
    bad:
        b->skip = PDX_SKIP_FIELD;
        sb_printf(why, "@%s%s%s: %s", b->type, b->key[0] ? " " : "", b->key,
                  b->err);
        resync(b, rd, ctx);
        return -1;
    }
}
