/*
 * search.c -- the read side of pdx_index: a query checked and turned into
 * the shim's (filters as keys, by the same text.c rules the indexer
 * uses), and its results: hits decoded once from their stored records,
 * snippets with highlight ranges, facets, suggestions; pdx_get,
 * pdx_similar, pdx_stats_get.  Everything Xapian is behind
 * searcher/shim_read.h.
 */
#include <ctype.h>
#include <strings.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/handle.h"
#include "../common/layout.h"
#include "../common/stopwords.h"
#include "../common/text.h"
#include "../corpus/merge.h"
#include "../corpus/record.h"
#include "author_keys.h"
#include "qscan.h"
#include "shim_read.h"

struct pdx_results {
    arena a;
    pdx_hit *hits;
    size_t n, cap;
    pdx_facet *facets[4]; /* year, category, author, subject */
    size_t n_facets[4], cap_facets[4];
    size_t offset;
    shim_totals totals;
    /* pdx_get: the work a withdrawn id was merged into, or "" */
    char merged_into[PDX_ID_MAX + 1];
    /* pdx_results_author_suggestion: one a pdx_query.authors[i], or NULL */
    const char **author_sugg;
    size_t n_author_sugg;
};

static int parse_year(const char *s, size_t n, int *out)
{
    if (n == 0 || n > 4)
        return -1;
    int y = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        y = y * 10 + (s[i] - '0');
    }
    if (y < 1)
        return -1;
    *out = y;
    return 0;
}

int pdx_parse_year_range(const char *s, int *lo, int *hi)
{
    const char *dots = strstr(s, "..");
    *lo = *hi = 0;
    if (*s == '>' || *s == '<') {
        /* ">=2019", ">2019", "<=2021", "<2021", as Elasticsearch's and
         * GitHub's query strings write an open range */
        const int after = *s == '>', or_equal = s[1] == '=';
        const char *y = s + 1 + or_equal;
        int year;
        if (parse_year(y, strlen(y), &year))
            return -1;
        if (!or_equal)
            year += after ? 1 : -1;
        if (year < 1)
            return -1;
        *(after ? lo : hi) = year;
        return 0;
    }
    if (!dots) {
        /* "2019-2021" and "2019–2021" (an en dash), as people write a
         * span of years: two years, both given */
        const char *dash = strchr(s, '-');
        size_t dl = 1;
        if (!dash && (dash = strstr(s, "\xe2\x80\x93")))
            dl = 3;
        if (!dash)
            return parse_year(s, strlen(s), lo) ? -1 : (*hi = *lo, 0);
        if (parse_year(s, (size_t)(dash - s), lo) ||
            parse_year(dash + dl, strlen(dash + dl), hi) || *lo > *hi) {
            *lo = *hi = 0;
            return -1;
        }
        return 0;
    }
    if (dots == s && !dots[2])
        return -1; /* ".." alone */
    if (dots > s && parse_year(s, (size_t)(dots - s), lo))
        return -1;
    if (dots[2] && parse_year(dots + 2, strlen(dots + 2), hi))
        return -1;
    if (*lo && *hi && *lo > *hi)
        return -1;
    return 0;
}

/* ----------------------------------------------------------- searching */

/* Take the highlight markers out of a snippet, keeping where they were. */
/* Text marked with SHIM_HI_START/SHIM_HI_END: the text without the
 * marks in *text (in a) and the marked byte ranges in *hl, *n pairs.
 * 0, or -1 out of memory. */
static int unmark(arena *a, const char *marked, char **text, size_t **hl,
                  size_t *n_pairs)
{
    size_t n = strlen(marked), marks = 0;
    for (size_t i = 0; i < n; i++)
        marks += marked[i] == SHIM_HI_START;
    char *t = arena_alloc(a, n + 1);
    size_t *h = arena_alloc(a, (2 * marks + 1) * sizeof *h);
    if (!t || !h)
        return -1;
    size_t o = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (marked[i] == SHIM_HI_START && k % 2 == 0)
            h[k++] = o;
        else if (marked[i] == SHIM_HI_END && k % 2 == 1)
            h[k++] = o;
        else if (marked[i] != SHIM_HI_START && marked[i] != SHIM_HI_END)
            t[o++] = marked[i];
    }
    if (k % 2) /* an unclosed mark ends with the text */
        h[k++] = o;
    t[o] = '\0';
    *text = t;
    *hl = h;
    *n_pairs = k / 2;
    return 0;
}

static int set_snippet(arena *a, pdx_hit *h, const char *marked)
{
    char *text;
    size_t *hl, n;
    if (unmark(a, marked, &text, &hl, &n))
        return -1;
    h->snippet = text;
    h->highlights = hl;
    h->n_highlights = n;
    return 0;
}

/* A hit: its stored record decoded -- the one time it is -- into
 * h->work, the JSON kept as it is for h->json, and the abstract lent to
 * the shim for the snippet (on_snippet). */
static int on_hit(void *ctx, double score, const char *data, size_t len,
                  const char *explain, const char **abstract,
                  const char **title)
{
    pdx_results *r = ctx;
    if (abstract)
        *abstract = NULL;
    if (title)
        *title = NULL;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        pdx_hit *h = realloc(r->hits, cap * sizeof *h);
        if (!h)
            return -1;
        r->hits = h;
        r->cap = cap;
    }
    pdx_hit *h = &r->hits[r->n];
    memset(h, 0, sizeof *h);
    pdx_work *w = arena_alloc(&r->a, sizeof *w);
    h->json = arena_strndup(&r->a, data, len);
    if (!h->json || !w)
        return -1;
    if (record_from_json(&r->a, w, data, len)) {
        /* Not a record we wrote: show what there is rather than fail. */
        const pdx_work init = PDX_WORK_INIT;
        *w = init;
        w->id = "";
    }
    h->work = w;
    if (abstract)
        *abstract = h->work->abstract;
    if (title)
        *title = h->work->title;
    if (explain && !(h->explain = arena_strdup(&r->a, explain)))
        return -1;
    h->score = score;
    h->rank = r->offset + r->n;
    r->n++;
    return 0;
}

/* The snippet and the marked title of the hit on_hit took last. */
static int on_snippet(void *ctx, const char *marked, const char *title_marked)
{
    pdx_results *r = ctx;
    if (!r->n)
        return 0;
    pdx_hit *h = &r->hits[r->n - 1];
    if (*marked && set_snippet(&r->a, h, marked))
        return -1;
    char *title;
    size_t *hl, n;
    if (!*title_marked || unmark(&r->a, title_marked, &title, &hl, &n))
        return *title_marked ? -1 : 0;
    h->title_highlights = n ? hl : NULL;
    h->n_title_highlights = n;
    return 0;
}

static int facet_index(unsigned facet)
{
    return facet == PDX_FACET_YEAR       ? 0
           : facet == PDX_FACET_CATEGORY ? 1
           : facet == PDX_FACET_AUTHOR   ? 2
           : facet == PDX_FACET_SUBJECT  ? 3
                                         : -1;
}

static int on_facet(void *ctx, unsigned facet, const char *value,
                    uint64_t count)
{
    pdx_results *r = ctx;
    int k = facet_index(facet);
    if (k < 0)
        return 0;
    if (r->n_facets[k] == r->cap_facets[k]) {
        size_t cap = r->cap_facets[k] ? 2 * r->cap_facets[k] : 16;
        pdx_facet *nf = arena_alloc(&r->a, cap * sizeof *nf);
        if (!nf)
            return -1;
        if (r->n_facets[k])
            memcpy(nf, r->facets[k], r->n_facets[k] * sizeof *nf);
        r->facets[k] = nf;
        r->cap_facets[k] = cap;
    }
    pdx_facet *f = &r->facets[k][r->n_facets[k]];
    if (!(f->value = arena_strdup(&r->a, value)))
        return -1;
    f->count = count;
    r->n_facets[k]++;
    return 0;
}

size_t pdx_results_facet_count(const pdx_results *r, unsigned facet)
{
    int k = facet_index(facet);
    return r && k >= 0 ? r->n_facets[k] : 0;
}

const pdx_facet *pdx_results_facet(const pdx_results *r, unsigned facet,
                                   size_t i)
{
    int k = facet_index(facet);
    return r && k >= 0 && i < r->n_facets[k] ? &r->facets[k][i] : NULL;
}

/* Parentheses outside "phrases" must balance, and a boolean operator
 * needs a term on each side (NOT: after it; at the start, NOT x means
 * everything but x).  Xapian's QueryParser reports only that a query
 * failed to parse; this says where.  Positions are 1-based byte offsets.
 * Tokens are qscan's. */
static int check_syntax(pdx_index *ix, const char *t)
{
    size_t n = strlen(t), pos = 0, open_at[64], depth = 0;
    int prev_op = 0;      /* the token before was AND, OR or NOT */
    int after_start = 1;  /* at the start, or just after '(' */
    size_t prev_at = 0;
    const char *prev_name = "";
    qtok k;
    while (qscan_next(t, n, &pos, &k) != QT_END) {
        const char *s = t + k.start;
        int op = k.kind == QT_OP &&
                 (!strncmp(s, "AND", k.len) || !strncmp(s, "OR", k.len) ||
                  !strncmp(s, "NOT", k.len));
        int binary = op && s[0] != 'N';
        if (k.kind == QT_LPAREN) {
            if (depth == sizeof open_at / sizeof open_at[0])
                return handle_error(ix, PDX_EQUERY,
                                    "query: parentheses nested deeper than "
                                    "%zu at position %zu",
                                    depth, k.start + 1);
            open_at[depth++] = k.start;
            after_start = 1;
            prev_op = 0;
            continue;
        }
        if (k.kind == QT_RPAREN) {
            if (!depth)
                return handle_error(ix, PDX_EQUERY,
                                    "query: ')' at position %zu has no "
                                    "matching '('",
                                    k.start + 1);
            depth--;
            if (prev_op)
                return handle_error(ix, PDX_EQUERY,
                                    "query: '%s' at position %zu has no term "
                                    "after it",
                                    prev_name, prev_at + 1);
            continue;
        }
        if (binary && (after_start || prev_op))
            return handle_error(ix, PDX_EQUERY,
                                "query: '%.*s' at position %zu has no term "
                                "before it",
                                (int)k.len, s, k.start + 1);
        prev_op = op;
        prev_at = k.start;
        prev_name = binary ? (s[0] == 'A' ? "AND" : "OR") : "NOT";
        after_start = 0;
    }
    if (depth)
        return handle_error(ix, PDX_EQUERY,
                            "query: '(' at position %zu is never closed",
                            open_at[depth - 1] + 1);
    if (prev_op)
        return handle_error(ix, PDX_EQUERY,
                            "query: '%s' at position %zu has no term after it",
                            prev_name, prev_at + 1);
    return 0;
}

/* The bytes of the quotation mark at s (left bytes on): 1 for '"', 3 for
 * “ or ”, which Xapian's parser takes as quotes too; 0 for anything
 * else. */
static size_t quote_len(const char *s, size_t left)
{
    if (left && s[0] == '"')
        return 1;
    return left >= 3 && (unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x80 &&
                   ((unsigned char)s[2] == 0x9c || (unsigned char)s[2] == 0x9d)
               ? 3
               : 0;
}

/* The byte offset of a quote that opens a phrase the text never closes
 * (Xapian's parser reads it to the end), and in *len the quote's bytes
 * ('"' 1, a typographic one 3, which the parser takes as quotes too);
 * -1 when every phrase is closed. */
static long unclosed_quote(const char *t, size_t *len)
{
    long open = -1;
    const size_t n = strlen(t);
    for (size_t i = 0; i < n; i++) {
        const size_t q = quote_len(t + i, n - i);
        if (!q)
            continue;
        if (open < 0) {
            open = (long)i;
            *len = q;
        } else {
            open = -1;
        }
        i += q - 1;
    }
    return open;
}

/* What one pass of qscan over a query's text finds: how it is read
 * (pdx_query.syntax: `words`, and why, for the note) and whether it holds
 * filters alone (`author:Hinton`: newest first, nothing to rank by). */
typedef struct text_shape {
    int words;
    char why[64];     /* "a passage of 46 words", or "" */
    int only_filters; /* some token, and every one a filter */
} text_shape;

/* Is t[0..n) a function word (Snowball's stop list, common/stopwords.h,
 * the longer: "more", "than", "how" too), whatever its case? */
static int is_stop_word(const char *t, size_t n)
{
    char low[16];
    if (n == 0 || n >= sizeof low)
        return 0;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)t[i]);
    low[n] = '\0';
    for (const char *const *w = PDX_STOPWORDS_SNOWBALL; *w; w++)
        if (!strcmp(*w, low))
            return 1;
    return 0;
}

/* Is token k of t a word that begins with a capital and goes on in
 * lower case ("Embedded", "Logic"; not "SRAM", "glacier")? */
static int capitalised(const char *t, const qtok *k)
{
    return k->kind == QT_TERM && k->len >= 2 && isupper((unsigned char)t[k->start]) &&
           islower((unsigned char)t[k->start + 1]);
}

/* The prose rules of PDX_SYNTAX_AUTO (pdx_query.syntax).  Besides a
 * passage and a query in capitals, a boolean operator (AND, OR, NOT,
 * XOR; not NEAR or ADJ) right after a function word is prose ("Compressed
 * Models are NOT Trust-equivalent", "Bigger is NOT Always Better", a
 * pasted title): no one joins "are", "is" or "than" to another word by
 * an operator, and read as one, the NOT would take the pasted title's own
 * work out of its results.  So is XOR between two capitalised words
 * ("with Embedded XOR Logic for", a title's XOR gate): read as Xapian's
 * XOR, it takes out every work that holds words of both sides, the
 * title's own first.  Only XOR: `Hinton AND LeCun` or `Transformer OR
 * Mamba` are queries people write, and no engine but Xapian has an XOR. */
static text_shape shape_of(const pdx_query *q)
{
    text_shape sh = {0, "", 0};
    const char *t = q->text ? q->text : "";
    size_t len = strlen(t), pos = 0, words = 0, tokens = 0, filters = 0;
    int lower = 0, upper = 0;
    char after_stop[64] = "", xor_title[64] = "";
    qtok k, prev = {QT_END, 0, 0}, before = {QT_END, 0, 0};
    while (qscan_next(t, len, &pos, &k) != QT_END) {
        /* parentheses group tokens; a query of filters alone stays one
         * in them ("(author:x OR author:y)") */
        tokens += k.kind != QT_LPAREN && k.kind != QT_RPAREN;
        filters += k.kind == QT_FILTER;
        words += k.kind == QT_TERM || k.kind == QT_OP || k.kind == QT_PHRASE;
        if (!after_stop[0] && k.kind == QT_OP && prev.kind == QT_TERM &&
            (k.len == 2 || (k.len == 3 && memcmp(t + k.start, "ADJ", 3))) &&
            is_stop_word(t + prev.start, prev.len))
            snprintf(after_stop, sizeof after_stop, "%.*s right after \"%.*s\"",
                     (int)k.len, t + k.start, (int)(prev.len < 16 ? prev.len : 16),
                     t + prev.start);
        if (!xor_title[0] && prev.kind == QT_OP && prev.len == 3 &&
            !memcmp(t + prev.start, "XOR", 3) && capitalised(t, &before) &&
            capitalised(t, &k))
            snprintf(xor_title, sizeof xor_title, "XOR between \"%.*s\" and \"%.*s\"",
                     (int)(before.len < 16 ? before.len : 16), t + before.start,
                     (int)(k.len < 16 ? k.len : 16), t + k.start);
        before = prev;
        prev = k;
    }
    for (const char *p = t; *p; p++) {
        lower |= *p >= 'a' && *p <= 'z';
        upper |= *p >= 'A' && *p <= 'Z';
    }
    sh.only_filters = tokens && filters == tokens;
    if (q->syntax == PDX_SYNTAX_WORDS)
        sh.words = 1;
    else if (q->syntax != PDX_SYNTAX_AUTO)
        sh.words = 0;
    else if (words >= PDX_PROSE_WORDS)
        sh.words = snprintf(sh.why, sizeof sh.why, "a passage of %zu words",
                            words) > 0;
    else if (words >= PDX_PROSE_CAPS_WORDS && upper && !lower)
        sh.words = snprintf(sh.why, sizeof sh.why, "%zu words in capitals",
                            words) > 0;
    else if (after_stop[0])
        sh.words = snprintf(sh.why, sizeof sh.why, "%s", after_stop) > 0;
    else if (xor_title[0])
        sh.words = snprintf(sh.why, sizeof sh.why, "%s", xor_title) > 0;
    return sh;
}

static int check_query(pdx_index *ix, const pdx_query *q,
                       const text_shape *sh)
{
    if (!q)
        return handle_error(ix, PDX_EINVAL, "no query given");
    if (q->version != PDX_QUERY_VERSION)
        return handle_error(ix, PDX_EVERSION,
                         "pdx_query version %u is not %d (initialise it "
                         "with PDX_QUERY_INIT)",
                         q->version, PDX_QUERY_VERSION);
    const char *t = q->text ? q->text : "";
    size_t n = strlen(t), bad;
    if (n > PDX_MAX_QUERY_BYTES)
        return handle_error(ix, PDX_EINVAL,
                         "query is %zu bytes long; the limit is %d", n,
                         PDX_MAX_QUERY_BYTES);
    if (!text_utf8_valid(t, n, &bad))
        return handle_error(ix, PDX_EQUERY,
                         "query is not valid UTF-8 at byte %zu", bad + 1);
    if (q->limit > PDX_MAX_LIMIT)
        return handle_error(ix, PDX_EINVAL, "limit %zu is above %d", q->limit,
                         PDX_MAX_LIMIT);
    if (q->facets & ~(PDX_FACET_YEAR | PDX_FACET_CATEGORY | PDX_FACET_AUTHOR |
                      PDX_FACET_SUBJECT))
        return handle_error(ix, PDX_EINVAL, "unknown facet bits 0x%x", q->facets);
    if (q->facets && (q->facet_limit == 0 || q->facet_limit > 1000000))
        return handle_error(ix, PDX_EINVAL, "facet limit %zu is not in 1..1000000",
                         q->facet_limit);
    if (q->snippet_bytes > 100000)
        return handle_error(ix, PDX_EINVAL, "snippet length %zu is above 100000",
                         q->snippet_bytes);
    if (q->offset > 100000000)
        return handle_error(ix, PDX_EINVAL, "offset %zu is too large", q->offset);
    if (q->b > 1.0)
        return handle_error(ix, PDX_EINVAL, "BM25 b must be in [0,1], not %g",
                         q->b);
    if (q->k1 > 1000.0)
        return handle_error(ix, PDX_EINVAL, "BM25 k1 %g is unreasonably large",
                         q->k1);
    if (q->year_min < 0 || q->year_max < 0 || q->year_min > 9999 ||
        q->year_max > 9999)
        return handle_error(ix, PDX_EINVAL, "years must be between 1 and 9999");
    if (q->year_min && q->year_max && q->year_min > q->year_max)
        return handle_error(ix, PDX_EINVAL, "year range %d..%d is empty",
                         q->year_min, q->year_max);
    if ((q->n_categories && !q->categories) || (q->n_authors && !q->authors))
        return handle_error(ix, PDX_EINVAL, "a filter has a count but no items");
    if (q->sort < PDX_SORT_AUTO || q->sort > PDX_SORT_OLDEST)
        return handle_error(ix, PDX_EINVAL, "unknown sort order %d", q->sort);
    if (q->syntax < PDX_SYNTAX_AUTO || q->syntax > PDX_SYNTAX_WORDS)
        return handle_error(ix, PDX_EINVAL, "unknown query syntax %d",
                            q->syntax);
    if (!q->lenient && !sh->words && check_syntax(ix, t))
        return ix->code;
    if (!(q->time_limit >= 0 && q->time_limit <= 3600))
        return handle_error(ix, PDX_EINVAL,
                            "time limit must be 0 to 3600 seconds, not %g",
                            q->time_limit);
    if (q->expand_weight > 1.0)
        return handle_error(ix, PDX_EINVAL,
                         "expansion weight must be in (0,1], not %g",
                         q->expand_weight);
    if (q->title_weight > 100.0 || q->author_weight > 100.0 ||
        q->proximity_weight > 100.0)
        return handle_error(ix, PDX_EINVAL,
                            "title, author and proximity weights are at "
                            "most 100");
    if (q->rank != PDX_RANK_DEFAULT && q->rank != PDX_RANK_BM25)
        return handle_error(ix, PDX_EINVAL, "unknown rank %d", q->rank);
    if (q->expand_docs > 1000 || q->expand_terms > 1000)
        return handle_error(ix, PDX_EINVAL,
                         "expansion uses at most 1000 documents and terms");
    int has_text = 0;
    for (const char *p = t; *p; p++)
        if (!isspace((unsigned char)*p))
            has_text = 1;
    if (!has_text && !q->all && !q->n_categories && !q->n_authors &&
        !q->n_subjects && !q->year_min && !q->year_max)
        return handle_error(ix, PDX_EINVAL,
                         "empty query: give search words or at least one "
                         "filter (year, category, author, subject)");
    return 0;
}

/* Set each hit's author_matched (in r's arena).  0, or -1 out of
 * memory. */
static int mark_matched_authors(pdx_results *r, int rules,
                                const shim_author_key *keys, size_t n)
{
    for (size_t h = 0; h < r->n; h++) {
        const pdx_work *w = r->hits[h].work;
        if (!w->n_authors)
            continue;
        unsigned char *m = arena_alloc(&r->a, w->n_authors);
        if (!m)
            return -1;
        arena scratch = {0};
        for (size_t i = 0; i < w->n_authors; i++)
            m[i] = (unsigned char)author_answers(&scratch, w->authors[i],
                                                 rules, keys, n);
        arena_free(&scratch);
        r->hits[h].author_matched = m;
    }
    return 0;
}

/* Appends text to r's note, after "; " when it holds one already, cut
 * on a character's boundary where the note is full. */
static void add_note(pdx_results *r, const char *text)
{
    char note[2 * sizeof r->totals.note];
    snprintf(note, sizeof note, "%s%s%s", r->totals.note,
             r->totals.note[0] ? "; " : "", text);
    text_truncate_utf8(note, sizeof r->totals.note - 1);
    memcpy(r->totals.note, note, strlen(note) + 1);
}

/* An index built by older name rules reads a hyphenated given name as its
 * first part ("Ming-Hsuan" as "Ming"), (before rules 3) a particle in
 * capitals or an Irish one as a given name, and knows no family name
 * without its particles, and (before rules 4) reads "Ortega y Gasset"
 * as given Ortega, family "y Gasset": say so when an author filter reads differently
 * now, rather than answer by the old rule silently (after a note already
 * there, "no work has author ..."). */
static void note_old_name_rules(pdx_results *r, const pdx_query *q, int rules)
{
    char msg[2 * sizeof r->totals.note] = ""; /* add_note cuts it */
    for (size_t i = 0; i < q->n_authors && !msg[0]; i++) {
        arena a = {0};
        name_keys now[3], then[3];
        char *clean = text_clean(&a, q->authors[i]);
        int n_now = clean ? text_name_filter_keys(&a, clean, TEXT_NAME_RULES, now) : -1;
        int n_then = clean ? text_name_filter_keys(&a, clean, rules, then) : -1;
        int particles = 0;
        for (int k = 0; k < n_now; k++)
            particles |= now[k].bare && *now[k].bare;
        const int joined_y = clean && strstr(clean, " y "); /* "Ortega y Gasset" */
        if (n_now > 0 && n_then > 0 && rules < 2 &&
            strcmp(now[0].given, then[0].given))
            snprintf(msg, sizeof msg,
                     "this index was built before hyphenated given names "
                     "were told apart: \"%s\" was searched as \"%s %s\"; "
                     "rebuild it once (paperdex index --full) to have them",
                     q->authors[i], then[0].given, then[0].family);
        else if (n_now > 0 && rules < 3 && particles)
            snprintf(msg, sizeof msg,
                     "this index was built before particles in capitals "
                     "and Irish ones (De Santis, \xc3\x93 Conaill) opened a "
                     "family name, and before a family name was found "
                     "without them: \"%s\" may miss works; rebuild it once "
                     "(paperdex index --full) to have them",
                     q->authors[i]);
        else if (n_now > 0 && rules < 4 && joined_y)
            snprintf(msg, sizeof msg,
                     "this index was built before two family names joined "
                     "by y (Ortega y Gasset, Ram\xc3\xb3n y Cajal) were read "
                     "as one: \"%s\" may miss works; rebuild it once "
                     "(paperdex index --full) to have them",
                     q->authors[i]);
        arena_free(&a);
    }
    if (msg[0])
        add_note(r, msg);
}

/* The nearest name the index holds to the author filter `name`
 * (shim_suggest_author), in found[0..n) ("" for none), and in *held
 * (when not NULL) whether it is a family name and initials ("Hinton G")
 * whose family name some author has as it is, or a given name in full
 * and a family name whose given name is held as an author's name more
 * than as a word ("Edward Witten", where no author is a Witten).  0, or
 * the error code. */
static int suggest_author(pdx_index *ix, const char *name, char *found,
                          size_t n, int *held)
{
    arena a = {0};
    name_keys nk[3];
    char *clean = text_clean(&a, name);
    found[0] = '\0';
    if (held)
        *held = 0;
    int rc = 0;
    if (clean &&
        text_name_filter_keys(&a, clean, shim_name_rules(ix->db), nk) > 0 &&
        *nk[0].family) {
        shim_err e = {0, ""};
        int given = 0;
        rc = shim_suggest_author(ix->db, nk[0].family,
                                 nk[0].given_is_initial ? nk[0].initial
                                                        : nk[0].given,
                                 found, n, held, held ? &given : NULL, &e);
        if (rc)
            handle_from_shim(ix, rc, &e);
        /* a given name in full: a name by its given name ("Big Bang"
         * beside the authors named Bang is words) */
        if (held && !nk[0].given_is_initial)
            *held = given;
    }
    arena_free(&a);
    return rc;
}

/* For a search that matched nothing: the nearest name the index holds to
 * each author filter.  0, or the error code. */
static int suggest_authors(pdx_index *ix, pdx_results *r, const pdx_query *q)
{
    r->author_sugg = arena_alloc(&r->a, q->n_authors * sizeof *r->author_sugg);
    if (!r->author_sugg)
        return handle_error(ix, PDX_ENOMEM, "out of memory");
    r->n_author_sugg = q->n_authors;
    for (size_t i = 0; i < q->n_authors; i++) {
        char found[512] = "";
        int rc = strchr(q->authors[i], '|') /* alternatives: none */
                     ? 0
                     : suggest_author(ix, q->authors[i], found, sizeof found,
                                      NULL);
        if (rc)
            return rc;
        r->author_sugg[i] = found[0] ? arena_strdup(&r->a, found) : NULL;
        if (found[0] && !r->author_sugg[i])
            return handle_error(ix, PDX_ENOMEM, "out of memory");
    }
    return 0;
}

/* For a search that matched nothing: the query (as corrected for spelling,
 * or as written) with each author: or firstauthor: value the index holds no one for
 * replaced by the nearest name it holds, as the query's suggestion.  0,
 * or the error code. */
static int suggest_query_authors(pdx_index *ix, pdx_results *r,
                                 const char *text)
{
    shim_totals *t = &r->totals;
    const char *base = t->suggestion[0] ? t->suggestion : text;
    size_t n = strlen(base), pos = 0, done = 0, changed = 0;
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    if (!f)
        return handle_error(ix, PDX_ENOMEM, "out of memory");
    qtok k;
    int rc = 0;
    while (!rc && qscan_next(base, n, &pos, &k) != QT_END) {
        const char *v = base + k.start;
        size_t vn = k.len;
        if (k.kind != QT_FILTER)
            continue;
        v += (*v == '+' || *v == '-');
        const size_t field = !strncmp(v, "author:", 7)        ? 7
                             : !strncmp(v, "firstauthor:", 12) ? 12
                                                               : 0;
        if (!field)
            continue;
        size_t skip = (size_t)(v - (base + k.start)) + field;
        v += field;
        vn -= skip;
        if (vn && *v == '"') {
            v++;
            vn -= 1 + (vn > 1 && v[vn - 2] == '"');
        }
        char name[256], found[512];
        if (!vn || vn >= sizeof name)
            continue;
        memcpy(name, v, vn);
        name[vn] = '\0';
        rc = suggest_author(ix, name, found, sizeof found, NULL);
        if (rc || !found[0])
            continue;
        fwrite(base + done, 1, k.start + skip - done, f);
        fprintf(f, "\"%s\"", found);
        done = k.start + k.len;
        changed = 1;
    }
    fwrite(base + done, 1, n - done, f);
    if (fclose(f))
        rc = rc ? rc : handle_error(ix, PDX_ENOMEM, "out of memory");
    if (!rc && changed && out_len < sizeof t->suggestion)
        memcpy(t->suggestion, out, out_len + 1);
    free(out);
    return rc;
}

/* shim_search's hit callback for the probes below: the best
 * work's score, in *(double *)ctx. */
static int on_top(void *ctx, double score, const char *data, size_t len,
                  const char *explain, const char **abstract,
                  const char **title)
{
    (void)data, (void)len, (void)explain, (void)abstract, (void)title;
    double *best = ctx;
    if (score > *best)
        *best = score;
    return 0;
}

/* q as a probe of `text`: its filters and weights, ranked by relevance,
 * `limit` works counted to `count_limit`, with no snippet, facet,
 * explanation, suggestion or feedback. */
static shim_query probe_query(const shim_query *q, const char *text,
                              size_t limit, size_t count_limit)
{
    shim_query pq = *q;
    pq.text = text;
    pq.offset = 0;
    pq.limit = limit;
    pq.sort = SHIM_SORT_RELEVANCE;
    pq.exact_total = 0;
    pq.count_limit = count_limit;
    pq.facets = 0;
    pq.explain = pq.suggest = 0;
    pq.snippet_bytes = 0;
    pq.expand_docs = 0;
    return pq;
}

/* The note of a citation searched as words, into note[0..size): weak
 * (citation_weak) or nothing matched, and how it was read, `how` (which
 * may be note itself). */
static void cited_words_note(char *note, size_t size, int weak,
                             const char *how)
{
    char out[1024];
    snprintf(out, sizeof out,
             weak ? "searched as words: the works the citation names hold "
                    "its other words far less well than other works (%.*s)"
                  : "searched as words: nothing matched as a citation "
                    "(%.*s)",
             900, how);
    text_truncate_utf8(out, size - 1);
    memcpy(note, out, strlen(out) + 1);
}

/* A query of names alone that this many works write as a phrase ("Phase
 * III": 2 works of the arXiv 101k; "Protein A" 343) is words people
 * write, not a misspelt name. */
#define NAME_PHRASE_WORKS 1

/* Whether at least NAME_PHRASE_WORKS works pass q's filters and write
 * `text` (letters, spaces, dots and commas: a query of names) as a
 * phrase, its dots and commas aside, in *yes.  0, or the error code. */
static int written_as_phrase(pdx_index *ix, const shim_query *q,
                             const char *text, int *yes)
{
    char quoted[512];
    *yes = 0;
    if (strchr(text, '"') ||
        snprintf(quoted, sizeof quoted, "\"%s\"", text) >= (int)sizeof quoted)
        return 0;
    const shim_query pq = probe_query(q, quoted, 0, NAME_PHRASE_WORKS);
    shim_totals t;
    shim_err e = {0, ""};
    double best = 0;
    const int rc = shim_search(&t, ix->db, &pq, on_top, NULL, NULL, &best, &e);
    if (rc)
        return handle_from_shim(ix, rc, &e);
    *yes = t.total >= NAME_PHRASE_WORKS;
    return 0;
}

/* Whether `text` is an initial, its dot and one word of letters, the
 * word capitalised ("E. Coli", "C. Elegans"), as biology abbreviates a
 * species and a byline a name. */
static int initial_and_word(const char *text)
{
    const unsigned char *t = (const unsigned char *)text;
    if (!isupper(t[0]) || t[1] != '.' || t[2] != ' ' || !isupper(t[3]))
        return 0;
    size_t n = 4;
    while (islower(t[n]))
        n++;
    return n >= 6 && t[n] == '\0';
}

/* The score of the best work for `text` under q's filters and weights (0
 * when none matches), in *out.  0, or the error code. */
static int top_score(pdx_index *ix, const shim_query *q, const char *text,
                     double *out)
{
    const shim_query pq = probe_query(q, text, 1, 1);
    shim_totals t;
    shim_err e = {0, ""};
    *out = 0;
    const int rc = shim_search(&t, ix->db, &pq, on_top, NULL, NULL, out, &e);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

/* A citation beside a title's words may carry a year or a name that the
 * index does not ("Zhang, D., Lin, Y. (2025). Useful Memories ...",
 * where the arXiv work is from 2026): its filters then pass other works
 * of those authors, which hold the words far less well than the work
 * they name.  The citation is weak when its best work scores under
 * CITE_SHARE of the best work for its words with no filter.  On 40
 * references of the arXiv 101k (APA, with their year and with the next
 * year; and "Name et al. (year)" with four words of the title), the
 * right citations' best works scored 0.74 to 1.2 times the words' best,
 * and the year-off ones that found another work 0.004 to 0.62 times. */
#define CITE_SHARE 0.7
/* ... and only beside this many words or more, a title's: beside fewer
 * ("Sutariya et al. (2026) The Impact of"), the best work for a common
 * word or two says little. */
#define CITE_WORDS 4

/* Whether `cited`, a query a citation was read into, is weak (above), in
 * *weak.  0, or the error code. */
static int citation_weak(pdx_index *ix, const shim_query *q,
                         const char *cited, int *weak)
{
    *weak = 0;
    const size_t n = strlen(cited);
    char *words = malloc(n + 1);
    if (!words)
        return handle_error(ix, PDX_ENOMEM, "out of memory");
    /* the query's words, its filters left out */
    size_t pos = 0, o = 0, n_words = 0;
    qtok k;
    while (qscan_next(cited, n, &pos, &k) != QT_END)
        if (k.kind != QT_FILTER) {
            n_words++;
            if (o)
                words[o++] = ' ';
            memcpy(words + o, cited + k.start, k.len);
            o += k.len;
        }
    words[o] = '\0';
    int rc = 0;
    if (n_words >= CITE_WORDS) {
        shim_query plain = *q;
        plain.year_min = plain.year_max = 0;
        double s_cited = 0, s_words = 0;
        rc = top_score(ix, q, cited, &s_cited);
        if (!rc && s_cited > 0)
            rc = top_score(ix, &plain, words, &s_words);
        *weak = !rc && s_cited > 0 && s_cited < CITE_SHARE * s_words;
    }
    free(words);
    return rc;
}

/* For a query of authors' names alone that no work has (qscan_author_names,
 * searched as words then): the names with each replaced by the nearest
 * name the index holds, as the query's suggestion, when one is ("Yann
 * LeCun" for "Yann LeCunn"; author:"A" AND author:"B" for a list);
 * *suggested says whether one was, *held whether one of the names is a
 * family name and initials whose family name some author of the index
 * has ("Hinton G" when only an Isaiah Hinton is there).  0, or the error
 * code. */
static int suggest_name_query(pdx_index *ix, pdx_results *r, const char *text,
                              int *suggested, int *held)
{
    size_t names[8][2];
    const size_t n = qscan_author_names(text, strlen(text), names, 8);
    char out[sizeof r->totals.suggestion];
    size_t o = 0;
    int changed = 0;
    *suggested = *held = 0;
    for (size_t i = 0; i < n; i++) {
        char name[256], found[512];
        const size_t len = names[i][1] - names[i][0];
        if (len >= sizeof name)
            return 0;
        memcpy(name, text + names[i][0], len);
        name[len] = '\0';
        int family = 0;
        const int rc = suggest_author(ix, name, found, sizeof found, &family);
        if (rc)
            return rc;
        *held |= family;
        const char *use = found[0] ? found : name;
        changed |= found[0] != '\0';
        /* one name as a person's name, read so again; several as the
         * filters they are, every one to hold */
        const int w = n == 1 ? snprintf(out + o, sizeof out - o, "%s", use)
                             : snprintf(out + o, sizeof out - o, "%sauthor:\"%s\"",
                                        i ? " AND " : "", use);
        if (w < 0 || (size_t)w >= sizeof out - o)
            return 0;
        o += (size_t)w;
    }
    if (changed) {
        memcpy(r->totals.suggestion, out, o + 1);
        *suggested = 1;
    }
    return 0;
}

/* Author filter keys for one name as a user wrote it (author_filter_keys,
 * at most AUTHOR_KEYS_MAX); see pdx_query. */
static int author_query_keys(pdx_index *ix, arena *a, const char *name,
                             shim_author_key *out, size_t *n)
{
    size_t bad;
    if (!name || !text_utf8_valid(name, strlen(name), &bad))
        return handle_error(ix, PDX_EINVAL, "author filter is not valid UTF-8");
    int rc = author_filter_keys(a, name, shim_name_rules(ix->db), out, n);
    if (rc == -1)
        return handle_error(ix, PDX_ENOMEM, "out of memory");
    if (rc)
        return handle_error(ix, PDX_EINVAL,
                            "author filter \"%s\" has no family name", name);
    shim_err e = {0, ""};
    if ((rc = shim_author_keys_held(ix->db, out, *n, &e)))
        return handle_from_shim(ix, rc, &e);
    return 0;
}

/* shim_lookup's callback for id_query: the work, unless a tombstone. */
static int on_named(void *ctx, const char *data, size_t len)
{
    pdx_results *r = ctx;
    if (r->n)
        return 0; /* one work */
    int rc = on_hit(ctx, 0.0, data, len, NULL, NULL, NULL);
    if (!rc && r->n && r->hits[r->n - 1].work->withdrawn)
        r->n--;
    return rc;
}

static int on_got(void *ctx, const char *data, size_t len);

/* A whole query is looked up as a citation key (lookup_by_place) only
 * in an index of at most this many source files: each file is one
 * lookup, and a query such as GPT4 must not pay for a directory of a
 * hundred thousand (show, similar and /works/ID ask every file). */
#define KEY_QUERY_FILES 1000

/* The places (merge_place_term) of one key in the source files of the
 * index, gathered by shim_source_paths. */
typedef struct place_terms {
    arena *a;
    const char *key;
    const char **terms;
    size_t n, cap;
} place_terms;

static int on_source_place(void *ctx, const char *path, size_t len)
{
    (void)len;
    place_terms *p = ctx;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        const char **t = realloc(p->terms, cap * sizeof *t);
        if (!t)
            return 1;
        p->terms = t;
        p->cap = cap;
    }
    const char *t = merge_place_term(p->a, path, p->key);
    if (!t)
        return 1;
    p->terms[p->n++] = t;
    return 0;
}

/* The works a record with key `key` in its file (a BibTeX citation key,
 * a RIS ID) belongs to, handed to fn: a key is no id (two files may each
 * have a "smith2020", and it never merges records), but it names one
 * record within its file, and the index keeps each record's place there
 * (XS) and the paths of its files (the sources' fingerprints; over
 * several databases, the first one's).  Nothing is looked up when the
 * index has more than most_files files (0: no bound).  0, or an error
 * code set on ix. */
static int lookup_by_place(pdx_index *ix, arena *a, const char *key,
                           size_t most_files, shim_data_fn fn, pdx_results *r)
{
    place_terms p = {a, key, NULL, 0, 0};
    shim_err e = {0, ""};
    size_t n_all = 0;
    int rc = shim_source_paths(ix->db, most_files ? most_files + 1 : 0,
                               on_source_place, &p, &n_all, &e);
    if (rc)
        handle_from_shim(ix, rc, &e);
    else if (p.n && (!most_files || n_all <= most_files) &&
             (rc = shim_lookup(ix->db, p.terms, p.n, fn, r, &e)))
        handle_from_shim(ix, rc, &e);
    free(p.terms);
    return rc;
}

/* The id a token of a reference's words spells out as one (merge_id_form):
 * an arXiv id written arXiv:ID or as its address, a DOI (10.x/y, doi:,
 * its address), a PMID written PMID: or as its PubMed address, an
 * OpenAlex address; the kind, or MERGE_ID_NONE for any other token (a
 * bare 2103.00823 among words may be a number, a W123 a word). */
static merge_id_kind spelt_id(arena *a, const char *tok)
{
    const char *value;
    const merge_id_kind k = merge_id_form(a, tok, &value);
    const int addr = strstr(tok, "://") || strncasecmp(tok, "doi.org/", 8) == 0;
    switch (k) {
    case MERGE_ID_ARXIV:
        return addr || strncasecmp(tok, "arxiv:", 6) == 0 ? k : MERGE_ID_NONE;
    case MERGE_ID_DOI:
    case MERGE_ID_PMID:
        return k; /* merge_id_form takes a PMID only with its prefix */
    case MERGE_ID_OPENALEX:
        return addr ? k : MERGE_ID_NONE;
    default:
        return MERGE_ID_NONE;
    }
}

static int id_query(pdx_index *ix, pdx_results *r, const char *text, arena *a,
                    const char **unknown);

/* The longest text read as a reference that may hold an id (id_in_words):
 * a whole reference with its authors, title and venue, not a pasted
 * abstract, which may name another work's DOI or arXiv id. */
#define REFERENCE_MAX 600

/* How many quotation marks (quote_len) the n bytes at s hold. */
static int quotes_in(const char *s, size_t n)
{
    int q = 0;
    for (size_t i = 0; i < n; i++)
        if (quote_len(s + i, n - i))
            q++;
    return q;
}

/* A reference pasted whole, which holds its work's id among its words:
 * Scholar's "... arXiv preprint arXiv:2103.00823, 2021." or "(2021)",
 * the margin of an arXiv PDF ("arXiv:2103.00823v2 [cs.CL] 3 Mar 2021"),
 * a bibliography's "... Nature 521, 436-444. https://doi.org/10.1038/x".
 * The first token outside quotes that spells an id out (spelt_id;
 * "PMID: 123" and "arXiv: 2103.00823" with the space) names the result
 * as a whole query of that id would (id_query), the note saying which id
 * it was; a quoted id ("\"arXiv:2103.00823\"") is words.  As id_query
 * returns. */
static int id_in_words(pdx_index *ix, pdx_results *r, const char *text,
                       arena *a, const char **unknown)
{
    const char *p = text;
    int quoted = 0;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        const char *e = p;
        while (*e && !isspace((unsigned char)*e))
            e++;
        if (e == p)
            break;
        /* "PMID: 123", "arXiv: 2103.00823", "doi: 10.1/x": the next token too */
        const char *end = e;
        if (e[-1] == ':' && *e) {
            while (isspace((unsigned char)*end))
                end++;
            while (*end && !isspace((unsigned char)*end))
                end++;
        }
        const int q = quotes_in(p, (size_t)(end - p));
        if (!quoted && !q) {
            const char *t = p;
            const size_t n = merge_id_unwrapped(&t, (size_t)(end - p));
            char *tok = arena_strndup(a, t, n);
            if (!tok)
                return handle_error(ix, PDX_ENOMEM, "out of memory"), -1;
            if (n && spelt_id(a, tok) != MERGE_ID_NONE) {
                const int named = id_query(ix, r, tok, a, unknown);
                if (named == 1) {
                    char note[sizeof r->totals.note];
                    snprintf(note, sizeof note,
                             "the query holds the id %s, of %s: that work is "
                             "the result; without the id its words are "
                             "searched",
                             tok, r->n ? r->hits[0].work->id : tok);
                    memcpy(r->totals.note, note, strlen(note) + 1);
                }
                return named;
            }
        }
        quoted ^= q & 1;
        p = end;
    }
    return 0;
}

/* When the whole text is one id in a form people paste (merge_id_form)
 * and a work goes by it: r holds that work alone (or, for a record's key
 * in its file that several files use, each work it names), its total,
 * and a note; 1.  0 when the text is no such id or no work has it (it is then
 * searched as words): *unknown is then the id (in a) when it is an arXiv
 * id, a DOI, a PMID or an OpenAlex URL, which no one searches as words
 * (a bare W123 may be a word), else NULL.  -1 on an error (set on ix). */
static int id_query(pdx_index *ix, pdx_results *r, const char *text, arena *a,
                    const char **unknown)
{
    *unknown = NULL;
    const char *value;
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if (n <= PDX_ID_MAX && !memchr(text, ' ', n))
        n = merge_id_unwrapped(&text, n); /* "arXiv:2103.00823." */
    if (!n || n > REFERENCE_MAX)
        return 0;
    char *id = arena_strndup(a, text, n);
    if (!id)
        return handle_error(ix, PDX_ENOMEM, "out of memory"), -1;
    if (n > PDX_ID_MAX)
        return memchr(id, ' ', n) ? id_in_words(ix, r, id, a, unknown) : 0;
    merge_id_kind kind = merge_id_form(a, id, &value);
    /* words are no id, but for the id forms that hold a space ("arXiv:
     * 2103.00823 [cs.CV]" as arXiv's listings cite it, "PMID 123"); a
     * reference's words may hold one (id_in_words) */
    if (kind == MERGE_ID_NONE && memchr(id, ' ', n))
        return id_in_words(ix, r, id, a, unknown);
    if (kind == MERGE_ID_PMCID)
        return 0;
    /* Another id (paperdex's pdx:..., a BibTeX key, an OAI identifier)
     * is taken only in a token no word looks like: a letter and a digit,
     * or a ':'. */
    int letter = 0, digit = 0;
    for (const char *p = id; *p; p++) {
        letter |= isalpha((unsigned char)*p);
        digit |= isdigit((unsigned char)*p);
    }
    if (kind == MERGE_ID_NONE && !(letter && digit) && !strchr(id, ':'))
        return 0;
    const char *keys[MERGE_MAX_KEYS + 1];
    size_t nk = merge_id_keys(a, id, keys);
    if (!nk)
        return handle_error(ix, PDX_ENOMEM, "out of memory"), -1;
    shim_err e = {0, ""};
    int rc = shim_lookup(ix->db, keys, nk, on_named, r, &e);
    if (rc)
        return handle_from_shim(ix, rc, &e), -1;
    /* else a record's key in its file, which two files may both use:
     * every work it names (on_got) */
    int by_key = 0;
    if (!r->n && kind == MERGE_ID_NONE) {
        if (lookup_by_place(ix, a, id, KEY_QUERY_FILES, on_got, r))
            return -1;
        by_key = r->n > 0;
    }
    if (!r->n) {
        if (kind == MERGE_ID_ARXIV || kind == MERGE_ID_DOI || kind == MERGE_ID_PMID ||
            (kind == MERGE_ID_OPENALEX && strchr(id, '/')))
            *unknown = id;
        return 0;
    }
    r->totals.estimated = r->totals.lower = r->totals.upper = r->n;
    r->totals.total = r->n;
    r->totals.gte = 0;
    if (by_key && r->n > 1)
        snprintf(r->totals.note, sizeof r->totals.note,
                 "%s is the citation key of %zu works (in different "
                 "files); put it in quotes to search it as words", id, r->n);
    else if (!strcmp(id, r->hits[0].work->id))
        snprintf(r->totals.note, sizeof r->totals.note,
                 "%s is a work's id; put it in quotes to search it as words",
                 id);
    else
        snprintf(r->totals.note, sizeof r->totals.note,
                 "%s is the %s of %s; put it in quotes to search it as words",
                 id, by_key ? "citation key" : "id", r->hits[0].work->id);
    if (r->offset) /* the work is the only result: a later page is empty */
        r->n = 0;
    return 1;
}

/* How many alternatives the n filter values hold in all (each value one,
 * and one more for each '|' in it). */
static size_t filter_alternatives(const char *const *values, size_t n)
{
    size_t alts = 0;
    for (size_t i = 0; values && i < n; i++) {
        alts++;
        for (const char *p = values[i]; p && *p; p++)
            alts += *p == '|';
    }
    return alts;
}

int pdx_search(pdx_results **out, pdx_index *ix, const pdx_query *q)
{
    *out = NULL;
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    /* An older caller's struct ends before `lenient` (version 1),
     * `time_limit` (2), `subjects` (3), `syntax` (4), `rank` (5),
     * `count_limit` (6) or `filters_all` (7): read that much,
     * the rest its defaults. */
    pdx_query v2 = PDX_QUERY_INIT;
    if (q && q->version >= 1 && q->version < PDX_QUERY_VERSION) {
        memcpy(&v2, q, q->version == 1   ? offsetof(pdx_query, lenient)
                       : q->version == 2 ? offsetof(pdx_query, time_limit)
                       : q->version == 3 ? offsetof(pdx_query, subjects)
                       : q->version == 4 ? offsetof(pdx_query, syntax)
                       : q->version == 5 ? offsetof(pdx_query, rank)
                       : q->version == 6 ? offsetof(pdx_query, count_limit)
                                         : offsetof(pdx_query, filters_all));
        v2.version = PDX_QUERY_VERSION;
        q = &v2;
    }
    /* Text as pasted from a PDF or a TeX source is read as the index
     * read the same text in a work (TeX's accents decoded, text_clean;
     * the dashes of compounds and TeX's Greek letters, qscan_pasted),
     * and field names as pasted (arXiv's ti:, au:; an empty category:),
     * before anything else reads the text (qscan_fields). */
    pdx_query fq;
    char *ftext = NULL;
    char fields_note[400] = "";
    const char *orig_text = q && q->text ? q->text : "";
    size_t tn = q && q->text ? strlen(q->text) : 0;
    if (tn && tn <= PDX_MAX_QUERY_BYTES) {
        arena ta = {0};
        const char *in = q->text;
        size_t bad;
        if (memchr(in, '\\', tn) && text_utf8_valid(in, tn, &bad)) {
            const char *c = text_clean(&ta, in);
            if (c && *c) {
                in = c;
                tn = strlen(c);
            }
        }
        char *pasted = malloc(QSCAN_PASTED_ROOM(tn));
        if (pasted)
            tn = qscan_pasted(in, tn, pasted, QSCAN_PASTED_ROOM(tn));
        arena_free(&ta);
        char *fields = pasted ? malloc(QSCAN_FIELDS_ROOM(tn)) : NULL;
        size_t fn = fields ? qscan_fields(pasted, tn, fields,
                                          QSCAN_FIELDS_ROOM(tn), fields_note,
                                          sizeof fields_note)
                           : 0;
        free(pasted);
        /* and Lucene's "a b"~n as NEAR (qscan_slop) */
        if (fields && (ftext = malloc(QSCAN_SLOP_ROOM(fn))))
            qscan_slop(fields, fn, ftext, QSCAN_SLOP_ROOM(fn));
        free(fields);
        if (!ftext)
            return handle_error(ix, PDX_ENOMEM, "out of memory");
        fq = *q;
        fq.text = ftext;
        q = &fq;
    }
    text_shape sh = q ? shape_of(q) : (text_shape){0, "", 0};
    /* A quote never closed: in a query, the phrase runs to the end, as
     * Xapian's parser reads it; in a passage read as words it is a stray
     * mark and left out (a pasted abstract is not one phrase from there).
     * Either way a note says so. */
    char quote_note[160] = "";
    if (ftext) {
        size_t qlen = 0;
        const long at = unclosed_quote(ftext, &qlen);
        char saved[3];
        text_shape without = sh;
        if (at >= 0) { /* the text read without it: a passage? */
            memcpy(saved, ftext + at, qlen);
            memset(ftext + at, ' ', qlen);
            without = shape_of(q);
        }
        if (at >= 0 && without.words) {
            sh = without;
            snprintf(quote_note, sizeof quote_note,
                     "the quote at position %ld is never closed and was left out", at + 1);
        } else if (at >= 0) {
            memcpy(ftext + at, saved, qlen);
            snprintf(quote_note, sizeof quote_note,
                     "the quote at position %ld is never closed: the words after it "
                     "were searched as one phrase", at + 1);
        }
    }
    /* arXiv's category codes typed as words ("cs.CL transformers") are
     * its category filters, but not in prose: an abstract that mentions
     * hep-th is not asking for it (qscan_categories). */
    char cat_note[300] = "";
    if (ftext && !sh.words) {
        const size_t cn = strlen(ftext);
        char *cats = malloc(QSCAN_CATEGORIES_ROOM(cn));
        if (!cats) {
            free(ftext);
            return handle_error(ix, PDX_ENOMEM, "out of memory");
        }
        qscan_categories(ftext, cn, cats, QSCAN_CATEGORIES_ROOM(cn), cat_note,
                         sizeof cat_note);
        if (cat_note[0]) {
            free(ftext);
            ftext = cats;
            fq.text = ftext;
            sh = shape_of(q);
        } else {
            free(cats);
        }
    }
    /* A citation ("Bengio et al. 2025") names its author and year, but
     * not in prose, whose citations are of other works than the one
     * pasted (qscan_citations). */
    char cite_note[300] = "";
    char *uncited = NULL; /* the text before, while it may be needed */
    unsigned cited_kinds = 0;
    if (ftext && !sh.words) {
        const size_t cn = strlen(ftext);
        char *cited = malloc(QSCAN_CITATION_ROOM(cn));
        if (!cited) {
            free(ftext);
            return handle_error(ix, PDX_ENOMEM, "out of memory");
        }
        qscan_citations(ftext, cn, 1, cited, QSCAN_CITATION_ROOM(cn),
                        cite_note, sizeof cite_note, &cited_kinds);
        if (cite_note[0]) {
            uncited = ftext;
            ftext = cited;
            fq.text = ftext;
            sh = shape_of(q);
        } else {
            free(cited);
        }
    }
    if (check_query(ix, q, &sh)) {
        free(ftext);
        free(uncited);
        return ix->code;
    }

    arena a = {0};
    int rc = PDX_ENOMEM;
    pdx_results *r = calloc(1, sizeof *r);
    /* Each filter value may list alternatives ("cs.CV|cs.LG"): one key
     * (for an author, a few) per alternative, numbered by its value. */
    const size_t n_cat_alts = filter_alternatives(q->categories, q->n_categories);
    const size_t n_author_alts = filter_alternatives(q->authors, q->n_authors);
    const size_t n_subj_alts = filter_alternatives(q->subjects, q->n_subjects);
    const char **cats = n_cat_alts ? arena_alloc(&a, TEXT_CATEGORY_KEYS *
                                                         n_cat_alts * sizeof *cats)
                                   : NULL;
    unsigned *cat_groups =
        n_cat_alts ? arena_alloc(&a, TEXT_CATEGORY_KEYS * n_cat_alts *
                                         sizeof *cat_groups)
                   : NULL;
    shim_author_key *aks =
        n_author_alts
            ? arena_alloc(&a, AUTHOR_KEYS_MAX * n_author_alts * sizeof *aks)
            : NULL;
    const char **subj =
        n_subj_alts ? arena_alloc(&a, n_subj_alts * sizeof *subj) : NULL;
    unsigned *subj_groups =
        n_subj_alts ? arena_alloc(&a, n_subj_alts * sizeof *subj_groups) : NULL;
    if (!r || (n_cat_alts && (!cats || !cat_groups)) ||
        (n_author_alts && !aks) || (n_subj_alts && (!subj || !subj_groups))) {
        handle_error(ix, PDX_ENOMEM, "out of memory");
        goto fail;
    }
    size_t n_cats = 0, n_aks = 0, n_subj = 0;
    for (size_t i = 0; i < q->n_categories; i++) {
        size_t bad;
        if (!q->categories[i] ||
            !text_utf8_valid(q->categories[i], strlen(q->categories[i]), &bad)) {
            rc = handle_error(ix, PDX_EINVAL, "category filter is not valid UTF-8");
            goto fail;
        }
        for (const char *p = q->categories[i];; p++) {
            const size_t len = strcspn(p, "|");
            char *alt = arena_strndup(&a, p, len), *k[TEXT_CATEGORY_KEYS];
            int nk = alt ? text_category_keys(&a, alt, 1, k) : -1;
            if (nk < 0) {
                handle_error(ix, PDX_ENOMEM, "out of memory");
                goto fail;
            }
            if (nk == 0) {
                rc = handle_error(ix, PDX_EINVAL,
                                  "empty category filter \"%s\"",
                                  q->categories[i]);
                goto fail;
            }
            for (int j = 0; j < nk; j++) { /* a name's codes beside it */
                cat_groups[n_cats] = (unsigned)i;
                cats[n_cats++] = k[j];
            }
            p += len;
            if (!*p)
                break;
        }
    }
    for (size_t i = 0; i < q->n_authors; i++) {
        if (!q->authors[i]) { /* author_query_keys says what is wrong */
            rc = author_query_keys(ix, &a, NULL, aks, &n_aks);
            goto fail;
        }
        for (const char *p = q->authors[i];; p++) {
            const size_t len = strcspn(p, "|"), from = n_aks;
            char *alt = arena_strndup(&a, p, len);
            if (!alt) {
                handle_error(ix, PDX_ENOMEM, "out of memory");
                goto fail;
            }
            if ((rc = author_query_keys(ix, &a, alt, aks, &n_aks)))
                goto fail;
            for (size_t k = from; k < n_aks; k++)
                aks[k].group = (unsigned)i;
            p += len;
            if (!*p)
                break;
        }
    }
    if (q->n_subjects && !q->subjects) {
        rc = handle_error(ix, PDX_EINVAL, "n_subjects without subjects");
        goto fail;
    }
    for (size_t i = 0; i < q->n_subjects; i++) {
        size_t bad;
        if (!q->subjects[i] ||
            !text_utf8_valid(q->subjects[i], strlen(q->subjects[i]), &bad)) {
            rc = handle_error(ix, PDX_EINVAL, "subject filter is not valid UTF-8");
            goto fail;
        }
        for (const char *p = q->subjects[i];; p++) {
            const size_t len = strcspn(p, "|");
            const char *f = text_fold(&a, p, len);
            if (!f) {
                rc = handle_error(ix, PDX_ENOMEM, "out of memory");
                goto fail;
            }
            if (!*f) {
                rc = handle_error(ix, PDX_EINVAL,
                                  "subject filter \"%s\" names no subject",
                                  q->subjects[i]);
                goto fail;
            }
            subj_groups[n_subj] = (unsigned)i;
            subj[n_subj++] = f;
            p += len;
            if (!*p)
                break;
        }
    }

    const char *text = q->text ? q->text : "";
    int has_text = 0;
    for (const char *p = text; *p; p++)
        if (!isspace((unsigned char)*p))
            has_text = 1;
    /* A query of filters alone (`author:Hinton`, `category:cs.CV`) has
     * nothing to rank by: newest first, as with the flags. */
    pdx_sort sort = q->sort;
    if (sort == PDX_SORT_AUTO)
        sort = has_text && !sh.only_filters ? PDX_SORT_RELEVANCE
                                            : PDX_SORT_NEWEST;
    shim_query sq = {
        .text = has_text ? text : "",
        .year_min = q->year_min,
        .year_max = q->year_max,
        .cat_keys = cats,
        .cat_groups = cat_groups,
        .n_cat_keys = n_cats,
        .author_keys = aks,
        .n_author_keys = n_aks,
        .author_names = q->authors,
        .n_author_names = q->n_authors,
        .subject_keys = subj,
        .subject_groups = subj_groups,
        .n_subject_keys = n_subj,
        .subject_names = q->subjects,
        .n_subject_names = q->n_subjects,
        .filters_all = q->filters_all,
        .k1 = q->k1 < 0 ? PDX_DEFAULT_K1 : q->k1,
        .b = q->b < 0 ? PDX_DEFAULT_B : q->b,
        .offset = q->offset,
        .limit = q->limit,
        .sort = sort == PDX_SORT_NEWEST   ? SHIM_SORT_NEWEST
                : sort == PDX_SORT_OLDEST ? SHIM_SORT_OLDEST
                                          : SHIM_SORT_RELEVANCE,
        .exact_total = q->exact_total,
        .count_limit = q->count_limit ? q->count_limit : PDX_DEFAULT_COUNT_LIMIT,
        .snippet_bytes = q->snippet_bytes,
        .explain = q->explain,
        .suggest = !q->no_suggest,
        .facets = q->facets & (PDX_FACET_YEAR | PDX_FACET_CATEGORY |
                               PDX_FACET_AUTHOR | PDX_FACET_SUBJECT),
        .facet_limit = q->facet_limit,
        .lenient = q->lenient,
        .words = sh.words,
        .expand_docs = q->expand_docs,
        .expand_terms = q->expand_terms ? q->expand_terms
                                        : PDX_DEFAULT_EXPAND_TERMS,
        .expand_weight = q->expand_weight > 0 ? q->expand_weight
                                              : PDX_DEFAULT_EXPAND_WEIGHT,
        .title_weight = q->title_weight >= 0          ? q->title_weight
                        : q->rank == PDX_RANK_BM25 ? 0.0
                                                   : PDX_DEFAULT_TITLE_WEIGHT,
        .proximity_weight = q->proximity_weight >= 0 ? q->proximity_weight
                            : q->rank == PDX_RANK_BM25
                                ? 0.0
                                : PDX_DEFAULT_PROXIMITY_WEIGHT,
        .proximity_window = PDX_PROXIMITY_WINDOW,
        .author_weight = q->author_weight < 0 ? PDX_DEFAULT_AUTHOR_WEIGHT
                                              : q->author_weight,
        .time_limit = q->time_limit,
    };
    r->offset = q->offset;
    shim_err e = {0, ""};
    /* A query that is one id, as pasted (arXiv:2103.00823, a DOI, a
     * PubMed or OpenAlex URL), names its work: that work is the result,
     * as arXiv's and Scholar's search boxes take one. */
    const char *unknown_id = NULL;
    int named = has_text ? id_query(ix, r, orig_text, &a, &unknown_id) : 0;
    if (named < 0) {
        rc = ix->code;
        goto fail;
    }
    /* A weak citation (citation_weak) is searched as the words it was,
     * and the note says why. */
    int weak = 0;
    if (!named && uncited && cited_kinds != QSCAN_CITED_AUTHORS &&
        !sh.only_filters && citation_weak(ix, &sq, sq.text, &weak)) {
        rc = ix->code;
        goto fail;
    }
    if (weak) {
        cited_words_note(cite_note, sizeof cite_note, 1, cite_note);
        sq.text = uncited;
        if (q->sort == PDX_SORT_AUTO)
            sq.sort = SHIM_SORT_RELEVANCE;
    }
    rc = named ? 0
               : shim_search(&r->totals, ix->db, &sq, on_hit, on_snippet,
                             on_facet, r, &e);
    /* A citation whose first author had no work there: its author
     * anywhere in the list instead (the index's order of authors may not
     * be the cited one's), and the note says so. */
    if (!rc && !named && uncited && !weak && r->n == 0 &&
        r->totals.total == 0 && !r->totals.gte) {
        /* a query of names alone read them as any author already */
        const int names_only = cited_kinds == QSCAN_CITED_AUTHORS;
        char any_note[sizeof cite_note - 48] = "";
        int any_weak = 0;
        if (!names_only) {
            const size_t un = strlen(uncited);
            char *any = malloc(QSCAN_CITATION_ROOM(un));
            if (!any) {
                rc = PDX_ENOMEM;
                handle_error(ix, rc, "out of memory");
                goto fail;
            }
            qscan_citations(uncited, un, 0, any, QSCAN_CITATION_ROOM(un),
                            any_note, sizeof any_note, NULL);
            /* its authors anywhere may be weak too: then the words */
            if (!sh.only_filters && citation_weak(ix, &sq, any, &any_weak)) {
                free(any);
                rc = ix->code;
                goto fail;
            }
            const char *cited = sq.text;
            sq.text = any;
            rc = any_weak ? 0
                          : shim_search(&r->totals, ix->db, &sq, on_hit,
                                        on_snippet, on_facet, r, &e);
            sq.text = cited;
            free(any);
            snprintf(cite_note, sizeof cite_note,
                     "%s (as its first author, nothing matched)", any_note);
        }
        /* Names and a year without "et al." may have been a title's
         * words ("Theory and Practice 2019"), and a citation beside
         * other words a pasted title's ("... Inspired by Tian et al.
         * (2024)"): when nothing matches, the query is searched as the
         * words it was.  A citation alone keeps its answer, none, with
         * the note that no work has that author. */
        if (!rc && r->n == 0 && r->totals.total == 0 && !r->totals.gte &&
            (cited_kinds == QSCAN_CITED_NAMED || names_only ||
             !sh.only_filters)) {
            /* Words that only looked like names ("Segment Anything",
             * "Vitamin D") are what was meant: no note. */
            cite_note[0] = '\0';
            if (!names_only)
                cited_words_note(cite_note, sizeof cite_note, any_weak,
                                 any_note);
            sq.text = uncited;
            if (q->sort == PDX_SORT_AUTO)
                sq.sort = SHIM_SORT_RELEVANCE;
            /* A name no author has may be misspelt: the nearest names
             * the index holds are the suggestion ("Kaiming Hee" is
             * Kaiming He), not its words corrected as words (which gave
             * "aiming Hee"). */
            int name_suggested = 0, family_held = 0, phrase = 0;
            /* unless works write the "name" as words, as the clinical
             * trials' "Phase III", which is no misspelt Phanse, and
             * biology's "E. Coli", no Elise Colin */
            if (names_only)
                rc = written_as_phrase(ix, &sq, uncited, &phrase);
            /* An initial and one word that works write so is a species
             * capitalised ("E. Coli", "C. Elegans"): its phrase, as
             * "E. coli" is (query_parse.cc, species_phrases), not the
             * works holding a letter e */
            char species[256];
            const int as_species =
                !rc && phrase && initial_and_word(uncited) &&
                snprintf(species, sizeof species, "\"%s\"", uncited) <
                    (int)sizeof species;
            if (as_species)
                sq.text = species;
            if (!rc)
                rc = shim_search(&r->totals, ix->db, &sq, on_hit, on_snippet,
                                 on_facet, r, &e);
            sq.text = uncited;
            if (!rc && as_species)
                snprintf(cite_note, sizeof cite_note,
                         "no work has an author so named (%.*s): searched "
                         "as the phrase works write",
                         200, uncited);
            if (!rc && names_only && !phrase)
                rc = suggest_name_query(ix, r, uncited, &name_suggested,
                                        &family_held);
            /* Names written as a bibliography writes them, with an
             * initial's dot or a comma ("G. E. Hinton", "Hinton, G.E.",
             * "Wu Z, Li Y"), or a family name an author of the index has
             * and initials ("Hinton G" beside an Isaiah Hinton), were
             * names: with no nearer name to offer, the words' answer says
             * that no author had them, and a word's correction of the
             * name ("written, E." for "Witten, E.") is not offered.
             * Other lookalikes ("Vitamin D", "Big Bang"), and those works
             * write as a phrase ("U.S. Census"), were words, and keep
             * theirs. */
            if (!rc && names_only && !name_suggested && !as_species && !phrase &&
                (strpbrk(uncited, ".,") || family_held)) {
                r->totals.suggestion[0] = '\0';
                snprintf(cite_note, sizeof cite_note,
                         "no work has an author so named (%.*s): searched "
                         "as words", 200, uncited);
            }
        }
    }
    if (rc) {
        handle_from_shim(ix, rc, &e);
        goto fail;
    }
    /* Prose read as words says so, before any other note. */
    if (sh.why[0] && has_text) {
        char note[2 * sizeof r->totals.note];
        snprintf(note, sizeof note,
                 "read as plain words (%s): AND, OR, NOT, XOR, +, - and "
                 "parentheses are words; --syntax query reads them as "
                 "operators%s%s",
                 sh.why, r->totals.note[0] ? "; " : "", r->totals.note);
        text_truncate_utf8(note, sizeof r->totals.note - 1);
        memcpy(r->totals.note, note, strlen(note) + 1);
    }
    if (fields_note[0] && !named)
        add_note(r, fields_note);
    if (quote_note[0] && !named)
        add_note(r, quote_note);
    if (cat_note[0] && !named)
        add_note(r, cat_note);
    /* How a citation was read comes first: the notes it leads to
     * (no work has that author, or is from that year) follow it. */
    if (cite_note[0] && !named) {
        char note[2 * sizeof r->totals.note];
        snprintf(note, sizeof note, "%s%s%s", cite_note,
                 r->totals.note[0] ? "; " : "", r->totals.note);
        text_truncate_utf8(note, sizeof r->totals.note - 1);
        memcpy(r->totals.note, note, strlen(note) + 1);
    }
    /* An id no work has, searched as words: say so, rather than answer
     * a pasted arXiv id or DOI with a bare 0 (or with works that hold
     * its digits). */
    if (unknown_id) {
        char msg[sizeof r->totals.note];
        snprintf(msg, sizeof msg, "no work has the id %s; it was searched as words",
                 unknown_id);
        add_note(r, msg);
    }
    /* The query's author: values are filters like --author: their
     * authors are marked too. */
    shim_author_key *marks = aks;
    size_t n_marks = n_aks;
    if (r->totals.n_query_authors) {
        marks = arena_alloc(&a, (n_aks + AUTHOR_KEYS_MAX *
                                             r->totals.n_query_authors) *
                                    sizeof *marks);
        if (!marks) {
            rc = handle_error(ix, PDX_ENOMEM, "out of memory");
            goto fail;
        }
        if (n_aks)
            memcpy(marks, aks, n_aks * sizeof *marks);
    }
    for (size_t i = 0; i < r->totals.n_query_authors; i++)
        if (author_filter_keys(&a, r->totals.query_authors[i],
                               shim_name_rules(ix->db), marks,
                               &n_marks) == -1) {
            rc = handle_error(ix, PDX_ENOMEM, "out of memory");
            goto fail;
        }
    if (n_marks &&
        mark_matched_authors(r, shim_name_rules(ix->db), marks, n_marks)) {
        rc = handle_error(ix, PDX_ENOMEM, "out of memory");
        goto fail;
    }
    if (n_aks && !q->no_suggest && r->totals.upper == 0 &&
        (rc = suggest_authors(ix, r, q)))
        goto fail;
    if (r->totals.n_query_authors && !q->no_suggest && r->totals.upper == 0 &&
        (rc = suggest_query_authors(ix, r, text)))
        goto fail;
    if (n_aks && shim_name_rules(ix->db) < TEXT_NAME_RULES)
        note_old_name_rules(r, q, shim_name_rules(ix->db));
    arena_free(&a);
    free(ftext);
    free(uncited);
    *out = r;
    return 0;
fail:
    arena_free(&a);
    free(ftext);
    free(uncited);
    pdx_results_free(r);
    return ix->code ? ix->code : rc;
}

static int on_got(void *ctx, const char *data, size_t len)
{
    pdx_results *r = ctx;
    int rc = on_hit(ctx, 0.0, data, len, NULL, NULL, NULL);
    /* A tombstone (every record of the work withdrawn or replaced) is
     * not a work: not found; where it was merged into another work, that
     * one is looked up next (pdx_get). */
    if (!rc && r->n && r->hits[r->n - 1].work->withdrawn) {
        const char *into = r->hits[r->n - 1].work->merged_into;
        if (into && strlen(into) <= PDX_ID_MAX)
            snprintf(r->merged_into, sizeof r->merged_into, "%s", into);
        r->n--;
    }
    r->totals.estimated = r->totals.lower = r->totals.upper = r->n;
    r->totals.total = r->n;
    r->totals.gte = 0;
    return rc;
}

int pdx_get(pdx_results **out, pdx_index *ix, const char *id)
{
    *out = NULL;
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!id || !*id || strlen(id) > PDX_ID_MAX)
        return handle_error(ix, PDX_EINVAL, "pdx_get: invalid id");
    arena a = {0};
    const char *keys[MERGE_MAX_KEYS + 1];
    size_t nk = merge_id_keys(&a, id, keys);
    pdx_results *r = calloc(1, sizeof *r);
    int rc = PDX_ENOMEM;
    if (!nk || !r) {
        handle_error(ix, PDX_ENOMEM, "out of memory");
        goto done;
    }
    shim_err e = {0, ""};
    rc = shim_lookup(ix->db, keys, nk, on_got, r, &e);
    if (rc)
        handle_from_shim(ix, rc, &e);
    /* A withdrawn id that was merged into another work (an OpenAlex
     * merged id) leads to that work: a few hops at most, no loops. */
    for (int hop = 0; !rc && r->n == 0 && r->merged_into[0] && hop < 4; hop++) {
        char into[PDX_ID_MAX + 1];
        snprintf(into, sizeof into, "%s", r->merged_into);
        r->merged_into[0] = '\0';
        arena_free(&a);
        memset(&a, 0, sizeof a);
        nk = merge_id_keys(&a, into, keys);
        if (!nk) {
            rc = handle_error(ix, PDX_ENOMEM, "out of memory");
            break;
        }
        if ((rc = shim_lookup(ix->db, keys, nk, on_got, r, &e)))
            handle_from_shim(ix, rc, &e);
    }
    /* else a record's key in its file (a BibTeX key) */
    if (!rc && r->n == 0 && !r->merged_into[0])
        rc = lookup_by_place(ix, &a, id, 0, on_got, r);
done:
    arena_free(&a);
    if (rc) {
        pdx_results_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int pdx_similar(pdx_results **out, pdx_index *ix, const char *id,
                size_t limit)
{
    *out = NULL;
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (limit > PDX_MAX_LIMIT)
        return handle_error(ix, PDX_EINVAL, "limit %zu is above %d", limit,
                         PDX_MAX_LIMIT);
    /* The work may go by another id than the one given. */
    pdx_results *found = NULL;
    int rc = pdx_get(&found, ix, id);
    if (rc)
        return rc;
    if (!pdx_results_count(found)) {
        pdx_results_free(found);
        return handle_error(ix, PDX_ENOTFOUND, "no work with id '%s'", id);
    }
    pdx_results *r = calloc(1, sizeof *r);
    shim_err e = {0, ""};
    rc = r ? shim_similar(&r->totals, ix->db,
                          pdx_results_hit(found, 0)->work->id, PDX_SIMILAR_TERMS,
                          PDX_DEFAULT_K1, PDX_DEFAULT_B, limit, on_hit, r, &e)
           : PDX_ENOMEM;
    pdx_results_free(found);
    if (rc) {
        if (r)
            handle_from_shim(ix, rc, &e);
        else
            handle_error(ix, rc, "out of memory");
        pdx_results_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

const char *pdx_results_suggestion(const pdx_results *r)
{
    return r && r->totals.suggestion[0] ? r->totals.suggestion : NULL;
}

const char *pdx_results_author_suggestion(const pdx_results *r, size_t i)
{
    return r && i < r->n_author_sugg ? r->author_sugg[i] : NULL;
}

const char *pdx_results_note(const pdx_results *r)
{
    return r && r->totals.note[0] ? r->totals.note : NULL;
}

size_t pdx_results_count(const pdx_results *r) { return r ? r->n : 0; }

const pdx_hit *pdx_results_hit(const pdx_results *r, size_t i)
{
    return r && i < r->n ? &r->hits[i] : NULL;
}

size_t pdx_results_total(const pdx_results *r)
{
    return r ? r->totals.total : 0;
}

pdx_total_relation pdx_results_total_relation(const pdx_results *r)
{
    return r && r->totals.gte ? PDX_TOTAL_GTE : PDX_TOTAL_EQ;
}

size_t pdx_results_total_estimate(const pdx_results *r)
{
    return r ? r->totals.estimated : 0;
}

size_t pdx_results_total_lower(const pdx_results *r)
{
    return r ? r->totals.lower : 0;
}

size_t pdx_results_total_upper(const pdx_results *r)
{
    return r ? r->totals.upper : 0;
}

void pdx_results_free(pdx_results *r)
{
    if (!r)
        return;
    arena_free(&r->a);
    free(r->hits);
    free(r);
}

/* ---------------------------------------------------------- statistics */

int pdx_stats_get(pdx_stats *out, pdx_index *ix)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!out || out->version != PDX_STATS_VERSION)
        return handle_error(ix, PDX_EVERSION,
                         "pdx_stats must be initialised with PDX_STATS_INIT");
    shim_stats s;
    shim_err e = {0, ""};
    int rc = shim_stats_get(&s, ix->db, &e);
    if (rc)
        return handle_from_shim(ix, rc, &e);
    out->works = s.docs;
    out->terms = s.terms;
    out->postings = s.postings;
    out->avg_length = s.avg_length;
    out->bytes = handle_bytes(ix->path);
    out->last_updated = s.last_updated;
    out->layout = s.layout;
    out->last_reindex = s.last_reindex;
    out->sources = s.sources;
    return 0;
}
