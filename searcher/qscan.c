/*
 * qscan.c -- the query text scanner; see qscan.h for the token rules.
 */
#include "qscan.h"

#include "../common/arxiv_categories.h"
#include "../common/text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int is_space(char c) { return isspace((unsigned char)c); }
static int is_alpha(char c) { return isalpha((unsigned char)c); }

int qscan_is_op(const char *t, size_t n)
{
    static const char *const ops[] = {"AND", "OR", "NOT", "XOR", "NEAR",
                                      "ADJ"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i]) == n && !memcmp(t, ops[i], n))
            return 1;
    /* NEAR/n and ADJ/n: Xapian's window, 1 to 3 digits */
    for (size_t i = 4; i < 6; i++) {
        size_t l = strlen(ops[i]);
        if (n > l + 1 && n <= l + 4 && !memcmp(t, ops[i], l) && t[l] == '/') {
            size_t d = l + 1;
            while (d < n && t[d] >= '0' && t[d] <= '9')
                d++;
            if (d == n)
                return 1;
        }
    }
    return 0;
}

/* The filters whose values are matched as the flags match them. */
static int filter_name(const char *t, size_t n)
{
    return (n == 8 && !memcmp(t, "category", 8)) ||
           (n == 6 && !memcmp(t, "author", 6)) ||
           (n == 11 && !memcmp(t, "firstauthor", 11)) ||
           (n == 7 && !memcmp(t, "subject", 7)) ||
           (n == 4 && !memcmp(t, "year", 4));
}

qtok_kind qscan_next(const char *t, size_t n, size_t *pos, qtok *out)
{
    size_t i = *pos;
    while (i < n && is_space(t[i]))
        i++;
    out->start = i;
    out->len = 0;
    out->kind = QT_END;
    if (i >= n) {
        *pos = n;
        return QT_END;
    }
    size_t j = i + 1;
    if (t[i] == '(' || t[i] == ')') {
        out->kind = t[i] == '(' ? QT_LPAREN : QT_RPAREN;
    } else if (t[i] == '"') {
        while (j < n && t[j] != '"')
            j++;
        j += j < n; /* the closing quote */
        out->kind = QT_PHRASE;
    } else {
        size_t f = i + (t[i] == '+' || t[i] == '-'); /* +category:x */
        j = f;
        while (j < n && is_alpha(t[j]))
            j++;
        if (j < n && t[j] == ':' && filter_name(t + f, j - f)) {
            /* category:V, year:V, V "quoted" or up to space or ')' */
            j++;
            if (j < n && t[j] == '"') {
                j++;
                while (j < n && t[j] != '"')
                    j++;
                j += j < n;
            } else {
                while (j < n && !is_space(t[j]) && t[j] != ')')
                    j++;
            }
            out->kind = QT_FILTER;
        } else {
            j = i;
            while (j < n && !is_space(t[j]) && t[j] != '(' && t[j] != ')' &&
                   t[j] != '"')
                j++;
            out->kind = qscan_is_op(t + i, j - i) ? QT_OP : QT_TERM;
        }
    }
    out->len = j - i;
    *pos = j;
    return out->kind;
}

int qscan_word(const char *t, size_t end, size_t *pos, size_t *ws,
               size_t *we, int *field)
{
    size_t i = *pos;
    while (i < end && !is_alpha(t[i]))
        i++;
    if (i >= end) {
        *pos = end;
        return 0;
    }
    size_t j = i;
    while (j < end && is_alpha(t[j]))
        j++;
    *ws = i;
    *we = j;
    *field = j < end && t[j] == ':';
    *pos = j;
    return 1;
}

/* The names a query may put before ':' (qscan_fields): paperdex's own,
 * arXiv's as paperdex's, and the id schemes that are terms. */
static const struct {
    const char *name, *as; /* as: NULL = the name itself */
} known_fields[] = {
    {"title", NULL},     {"abstract", NULL}, {"author", NULL},
    {"firstauthor", NULL},
    {"authorword", NULL}, {"category", NULL}, {"year", NULL},
    {"subject", NULL},   {"ti", "title"},    {"abs", "abstract"},
    {"au", "author"},    {"cat", "category"}, {"all", ""},
    {"intitle", "title"}, /* Google Scholar's */
};
static const char *const id_schemes[] = {"arxiv", "doi", "http", "https",
                                         "pmid", "pmc", "pmcid", "openalex",
                                         "urn", "isbn", "issn"};

/* Append "; " (when not first), the field name t[0..len) and `rest` to
 * note[0..size), as much as fits. */
static void add_note(char *note, size_t size, const char *t, size_t len,
                     const char *rest)
{
    size_t used = strlen(note);
    if (used + 3 >= size)
        return;
    snprintf(note + used, size - used, "%s%.*s%s", used ? "; " : "",
             (int)len, t, rest);
}

/* An author's name after `au:`, `author:` or `firstauthor:` at t[v..n),
 * written to out[*o..size) after `field` and ':'; returns where the name
 * ends.  arXiv
 * writes the words of a name with underscores, in its API's queries
 * (`au:del_maestro`) and its author listings (`bengio_y`), and no name
 * holds one: a name with one is written quoted, each underscore a space
 * (`author:"Bengio Y"`), so that the author rules read it as they read
 * "Bengio, Y." (a quoted name keeps its quotes).  Any other value is
 * copied as it is. */
static size_t author_value(const char *field, const char *t, size_t n,
                           size_t v, char *out, size_t *o, size_t size)
{
    const size_t fl = strlen(field);
    size_t e = v;
    const int quoted = v < n && t[v] == '"';
    if (quoted) {
        e = v + 1;
        while (e < n && t[e] != '"')
            e++;
        e += e < n;
    } else {
        while (e < n && !is_space(t[e]) && t[e] != ')')
            e++;
    }
    const int under = memchr(t + v, '_', e - v) != NULL;
    if (*o + fl + 1 + (e - v) + 2 >= size)
        return e; /* does not fit: left out, as any overflow is */
    memcpy(out + *o, field, fl);
    *o += fl;
    out[(*o)++] = ':';
    if (under && !quoted)
        out[(*o)++] = '"';
    for (size_t c = v; c < e; c++)
        out[(*o)++] = under && t[c] == '_' ? ' ' : t[c];
    if (under && !quoted)
        out[(*o)++] = '"';
    return e;
}

size_t qscan_fields(const char *t, size_t n, char *out, size_t size,
                    char *note, size_t note_size)
{
    size_t o = 0;
    int in_quote = 0, all_in_title = 0;
    if (note_size)
        note[0] = '\0';
    if (!size)
        return 0;
    for (size_t i = 0; i < n;) {
        const int at_start = i == 0 || is_space(t[i - 1]) || t[i - 1] == '(' ||
                             ((t[i - 1] == '+' || t[i - 1] == '-') &&
                              (i == 1 || is_space(t[i - 2]) || t[i - 2] == '('));
        /* Google Scholar's "allintitle: a b": every word after it must
         * stand in the title (+title:a +title:b), but an operator, a word
         * with a sign or a field of its own */
        const int word_start = i == 0 || is_space(t[i - 1]) ||
                               t[i - 1] == '(' || all_in_title == 2;
        if (all_in_title && !in_quote && word_start && !is_space(t[i]) &&
            t[i] != '(' && t[i] != ')' && t[i] != '+' && t[i] != '-') {
            size_t e = i;
            while (e < n && !is_space(t[e]) && t[e] != ')' && t[e] != ':')
                e++;
            if (!qscan_is_op(t + i, e - i) && (e == n || t[e] != ':') &&
                o + 8 < size) {
                memcpy(out + o, "+title:", 7);
                o += 7;
            }
        }
        all_in_title = all_in_title ? 1 : 0;
        size_t j = i;
        while (!in_quote && at_start && j < n && is_alpha(t[j]))
            j++;
        if (j > i && j < n && t[j] == ':') {
            const size_t len = j - i;
            const char next = j + 1 < n ? t[j + 1] : '\0';
            int empty = !next || is_space(next) || next == ')';
            /* past the value when it is none: "title:", or quotes with
             * nothing in them ("title:\"\"", which the parser would
             * read as the word title), a word glued after them too
             * ("title:\"\"glacier" is glacier, as with a space) */
            size_t after = j + 1;
            if (next == '"') {
                size_t q = j + 2;
                while (q < n && is_space(t[q]))
                    q++;
                if (q < n && t[q] == '"') {
                    empty = 1;
                    after = q + 1;
                }
            }
            /* the name in any case; a field only as written (arXiv's
             * in capitals stay words: "Ti:sapphire", "Au:Ag") */
            size_t kc = 0;
            const size_t nk = sizeof known_fields / sizeof known_fields[0];
            while (kc < nk && (strlen(known_fields[kc].name) != len ||
                               strncasecmp(known_fields[kc].name, t + i, len)))
                kc++;
            const size_t k =
                kc < nk && !memcmp(known_fields[kc].name, t + i, len) ? kc : nk;
            int scheme = 0;
            for (size_t s = 0; s < sizeof id_schemes / sizeof id_schemes[0]; s++)
                if (strlen(id_schemes[s]) == len &&
                    !strncasecmp(id_schemes[s], t + i, len))
                    scheme = 1;
            if (len == 10 && !strncasecmp(t + i, "allintitle", 10)) {
                all_in_title = 2; /* the next word, written after it */
                i = j + 1;
                while (i < n && is_space(t[i]))
                    i++;
                continue;
            }
            if (k < nk && empty) {
                add_note(note, note_size, t + i, len,
                         ": has no value and was left out");
                if (o && (out[o - 1] == '+' || out[o - 1] == '-'))
                    o--;
                i = after;
                continue;
            }
            if (k < nk && (!strcmp(known_fields[k].name, "au") ||
                           !strcmp(known_fields[k].name, "author") ||
                           !strcmp(known_fields[k].name, "firstauthor"))) {
                i = author_value(known_fields[k].as ? known_fields[k].as
                                                    : known_fields[k].name,
                                 t, n, j + 1, out, &o, size);
                continue;
            }
            if (k < nk && known_fields[k].as) {
                const char *as = known_fields[k].as;
                size_t al = strlen(as);
                if (o + al + 1 < size) {
                    memcpy(out + o, as, al);
                    o += al;
                    if (al)
                        out[o++] = ':';
                }
                i = j + 1;
                continue;
            }
            int lower = 1;
            for (size_t c = i; c < j; c++)
                lower &= t[c] >= 'a' && t[c] <= 'z';
            if (k == nk && kc < nk && known_fields[kc].as && !empty) {
                char rest[96];
                snprintf(rest, sizeof rest,
                         ": was searched as a word (as in Ti:sapphire); "
                         "arXiv's field is written %s:",
                         known_fields[kc].name);
                add_note(note, note_size, t + i, len, rest);
            }
            if (k == nk && !scheme && !empty && next != '/' && lower &&
                len >= 2) {
                add_note(note, note_size, t + i, len,
                         ": is not a field (title:, abstract:, author:, "
                         "category:, year:, subject:; arXiv's ti:, abs:, au:, "
                         "cat:, all:) and was searched as words");
                if (o + len + 1 < size) {
                    memcpy(out + o, t + i, len);
                    o += len;
                    out[o++] = ' ';
                }
                i = j + 1;
                continue;
            }
        }
        if (t[i] == '"')
            in_quote = !in_quote;
        if (o + 1 < size)
            out[o++] = t[i];
        i++;
    }
    out[o] = '\0';
    return o;
}

size_t qscan_categories(const char *t, size_t n, char *out, size_t size,
                        char *note, size_t note_size)
{
    size_t o = 0;
    int in_quote = 0;
    if (note_size)
        note[0] = '\0';
    if (!size)
        return 0;
    for (size_t i = 0; i < n;) {
        if (t[i] == '"')
            in_quote = !in_quote;
        const int at_start = i == 0 || is_space(t[i - 1]) || t[i - 1] == '(' ||
                             t[i - 1] == '[';
        size_t s = i + (at_start && (t[i] == '+' || t[i] == '-'));
        if (!in_quote && at_start && s < n && isalpha((unsigned char)t[s])) {
            size_t e = s;
            while (e < n && !is_space(t[e]) && t[e] != ')' && t[e] != ']' &&
                   t[e] != ',' && t[e] != ';' && t[e] != '"')
                e++;
            size_t ce = e;
            if (ce > s && t[ce - 1] == '.') /* "... in cs.CL." */
                ce--;
            char code[40];
            const size_t len = ce - s;
            int coded = 0;
            if (len >= 4 && len < sizeof code) {
                memcpy(code, t + s, len);
                code[len] = '\0';
                /* a code with its dot or dash: never an archive alone */
                coded = (memchr(code, '.', len) || memchr(code, '-', len)) &&
                        arxiv_category_name(code);
            }
            if (coded && o + (s - i) + len + 10 < size) {
                /* arXiv's listings write the code in brackets, "[cs.CL]":
                 * they go with it (one left open too) */
                if (i > 0 && t[i - 1] == '[' && o > 0 && out[o - 1] == '[')
                    out[o - 1] = ' ';
                const int bracketed = ce < n && t[ce] == ']';
                memcpy(out + o, t + i, s - i); /* the sign */
                o += s - i;
                memcpy(out + o, "category:", 9);
                o += 9;
                memcpy(out + o, t + s, len);
                o += len;
                if (note_size) {
                    const size_t used = strlen(note);
                    if (used + 3 < note_size)
                        snprintf(note + used, note_size - used,
                                 "%s%s as category:%s", used ? ", " : "read ", code, code);
                }
                i = ce + (bracketed ? 1 : 0);
                if (bracketed)
                    out[o++] = ' ';
                /* a list's comma, a semicolon or a sentence's dot would
                 * end the value: a space ("(cs.LG, stat.ML)") */
                if (i < n && (t[i] == ',' || t[i] == ';' || t[i] == '.')) {
                    out[o++] = ' ';
                    i++;
                }
                continue;
            }
        }
        if (o + 1 < size)
            out[o++] = t[i];
        i++;
    }
    out[o] = '\0';
    return o;
}

size_t qscan_slop(const char *t, size_t n, char *out, size_t size)
{
    size_t o = 0;
    if (!size)
        return 0;
#define PUT(c)                                                               \
    do {                                                                     \
        if (o + 1 < size)                                                    \
            out[o++] = (c);                                                  \
    } while (0)
    for (size_t i = 0; i < n;) {
        if (t[i] != '"') {
            PUT(t[i]);
            i++;
            continue;
        }
        size_t close = i + 1;
        while (close < n && t[close] != '"')
            close++;
        size_t d = close + 2, slop = 0;
        while (d < n && d < close + 5 && t[d] >= '0' && t[d] <= '9')
            slop = slop * 10 + (size_t)(t[d++] - '0');
        const int sloppy = close + 2 < n && t[close + 1] == '~' &&
                           d > close + 2 &&
                           (d == n || is_space(t[d]) || t[d] == ')');
        if (!sloppy || slop == 0) { /* the phrase, to its closing quote */
            for (size_t k = i; k <= close && k < n; k++)
                PUT(t[k]);
            i = sloppy ? d : close + 1; /* "a b"~0 is the phrase */
            continue;
        }
        /* (w1 NEAR/m w2 NEAR/m w3): Xapian's window m + k - 1 = k + slop */
        char op[16];
        snprintf(op, sizeof op, " NEAR/%zu ", slop + 1);
        PUT('(');
        int first = 1;
        for (size_t k = i + 1; k < close;) {
            while (k < close && is_space(t[k]))
                k++;
            if (k >= close)
                break;
            if (!first)
                for (const char *p = op; *p; p++)
                    PUT(*p);
            first = 0;
            while (k < close && !is_space(t[k]))
                PUT(t[k++]);
        }
        PUT(')');
        i = d;
    }
#undef PUT
    out[o] = '\0';
    return o;
}

/* The length of the compound dash at t[i..n) (qscan_pasted), or 0. */
static size_t compound_dash(const char *t, size_t i, size_t n)
{
    static const char *const dashes[] = {
        "\xe2\x80\x90", "\xe2\x80\x91", "\xe2\x80\x92", "\xe2\x80\x93",
        "\xe2\x88\x92", "\xef\xb9\xa3", "\xef\xbc\x8d"};
    if (i + 3 > n)
        return 0;
    for (size_t k = 0; k < sizeof dashes / sizeof dashes[0]; k++)
        if (!memcmp(t + i, dashes[k], 3))
            return 3;
    return 0;
}

/* The length of the quotation mark at t[i..n) that other languages
 * write for '"' (qscan_pasted), or 0. */
static size_t other_quote(const char *t, size_t i, size_t n)
{
    static const char *const quotes[] = {
        "\xe2\x80\x9e", "\xe2\x80\x9f",                 /* „ ‟ */
        "\xc2\xab",     "\xc2\xbb",                     /* « » */
        "\xe3\x80\x8c", "\xe3\x80\x8d", "\xe3\x80\x8e", /* 「 」 『 */
        "\xe3\x80\x8f", "\xef\xbc\x82"};               /* 』 ＂ */
    for (size_t k = 0; k < sizeof quotes / sizeof quotes[0]; k++) {
        const size_t len = strlen(quotes[k]);
        if (i + len <= n && !memcmp(t + i, quotes[k], len))
            return len;
    }
    return 0;
}

/* The Greek letter of "$\name$" at t[i..n) and the length written, or
 * NULL. */
static const char *math_greek(const char *t, size_t i, size_t n, size_t *len)
{
    if (t[i] != '$' || i + 1 >= n || t[i + 1] != '\\')
        return NULL;
    size_t e = i + 2;
    while (e < n && is_alpha(t[e]))
        e++;
    if (e >= n || t[e] != '$')
        return NULL;
    for (size_t k = 0; k < TEXT_GREEK_LETTERS; k++)
        if (strlen(text_greek[k][1]) == e - i - 2 &&
            !memcmp(t + i + 2, text_greek[k][1], e - i - 2)) {
            *len = e + 1 - i;
            return text_greek[k][0];
        }
    return NULL;
}

/* The words after which a hyphen and a space end a compound's first part
 * rather than a line ("pre- and post-training", "low- to high-resolution",
 * "first- or second-order"). */
static int line_break_stop(const char *w, size_t n)
{
    static const char *const words[] = {"and", "or", "nor", "to", "vs", "versus",
                                        "than", "but", "as", "via", "into"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && !memcmp(words[i], w, n))
            return 1;
    return 0;
}

/* Whether t (n bytes) begins with a capital, at most two lower-case
 * letters and a dot that no letter follows: a word abbreviated ("Sc." of
 * "M.Sc.", "Eng." of "B.Eng."), not a family name glued to an initial's
 * dot ("Y.LeCun"). */
static int abbreviation_after(const char *t, size_t n)
{
    size_t k = 1;
    while (k < n && k <= 3 && islower((unsigned char)t[k]))
        k++;
    return k <= 3 && k < n && t[k] == '.' && !(k + 1 < n && isalpha((unsigned char)t[k + 1]));
}

size_t qscan_pasted(const char *t, size_t n, char *out, size_t size)
{
    size_t o = 0;
    if (!size)
        return 0;
    for (size_t i = 0; i < n && o + 1 < size;) {
        size_t len = compound_dash(t, i, n);
        if (len && o && text_word_byte((unsigned char)out[o - 1]) &&
            i + len < n && text_word_byte((unsigned char)t[i + len])) {
            out[o++] = '-';
            i += len;
            continue;
        }
        /* a formula's closing '$' inside a compound ("$\\ell_1$-norm")
         * would split it: the compound is the formula's word and the
         * rest, as "L1-norm" */
        if (t[i] == '$' && o && text_word_byte((unsigned char)out[o - 1]) &&
            i + 2 < n && t[i + 1] == '-' &&
            text_word_byte((unsigned char)t[i + 2])) {
            i++;
            continue;
        }
        if ((len = other_quote(t, i, n))) {
            out[o++] = '"';
            i += len;
            continue;
        }
        /* "classi- fication": a word a PDF broke at a line's end, copied
         * with its hyphen and the line break; not "pre- and post-", "low-
         * to high-", nor a capital after it ("Vision- Language") */
        if (t[i] == '-' && o && isalpha((unsigned char)out[o - 1]) && i + 1 < n &&
            isspace((unsigned char)t[i + 1])) {
            size_t j = i + 1;
            while (j < n && isspace((unsigned char)t[j]))
                j++;
            size_t k = j;
            while (k < n && islower((unsigned char)t[k]))
                k++;
            if (k > j && !line_break_stop(t + j, k - j)) {
                i = j;
                continue;
            }
        }
        /* "Y.LeCun": the initial's dot, then a space; not in a degree's
         * abbreviation, a short word with its own dot after it ("M.Sc.",
         * "B.Eng.") */
        if (t[i] == '.' && o && isupper((unsigned char)out[o - 1]) &&
            (o == 1 || out[o - 2] == ' ' || out[o - 2] == '.' || out[o - 2] == '-' ||
             out[o - 2] == '(' || out[o - 2] == ',') &&
            i + 2 < n && isupper((unsigned char)t[i + 1]) &&
            islower((unsigned char)t[i + 2]) && !abbreviation_after(t + i + 1, n - i - 1) &&
            o + 2 < size) {
            out[o++] = '.';
            out[o++] = ' ';
            i++;
            continue;
        }
        char letters[3];
        size_t nl;
        if ((len = text_compat_letters(t + i, n - i, letters, &nl))) {
            const size_t w = nl < size - 1 - o ? nl : size - 1 - o;
            memcpy(out + o, letters, w);
            o += w;
            i += len;
            continue;
        }
        const char *g = math_greek(t, i, n, &len);
        if (g && o + strlen(g) < size) {
            memcpy(out + o, g, strlen(g));
            o += strlen(g);
            i += len;
            continue;
        }
        out[o++] = t[i++];
    }
    out[o] = '\0';
    return o;
}

/* ---- citations ---------------------------------------------------------- */

/* Is c a byte of a name: a letter, a byte of a UTF-8 character, a hyphen
 * or an apostrophe ("Rodríguez-López", "O'Brien")? */
static int name_byte(unsigned char c)
{
    return isalpha(c) || c >= 0x80 || c == '-' || c == '\'';
}

/* The particles a family name may begin with, in lower case or
 * capitalised ("van der Berg", "De Santis", "La Fontaine"), and the
 * Irish ones (text_name_irish_particle, as common/names.c keys the
 * authors' names), capitalised as Irish writes them ("Diarmuid Ó
 * Séaghdha", "Ní Bhriain", "Mac Mathúna"; not "MAC" nor "mac"). */
static int particle(const char *t, size_t n)
{
    static const char *const p[] = {"van", "von", "de", "der", "del", "della",
                                    "den", "di", "da", "du", "dos", "le",
                                    "la", "ter", "ten"};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (strlen(p[i]) == n && tolower((unsigned char)t[0]) == p[i][0] &&
            !memcmp(p[i] + 1, t + 1, n - 1))
            return 1;
    if (!text_name_irish_particle(t, n) ||
        !(isupper((unsigned char)t[0]) || (n >= 2 && !memcmp(t, "\xc3\x93", 2))))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (isupper((unsigned char)t[i]))
            return 0;
    return 1;
}

/* Does t[i..n) begin with "et al" as words (any case), a '.' after "al"
 * or not?  Its end in *end. */
static int et_al_at(const char *t, size_t n, size_t i, size_t *end)
{
    if (i + 2 > n || strncasecmp(t + i, "et", 2))
        return 0;
    size_t j = i + 2;
    if (j >= n || !is_space(t[j]))
        return 0;
    while (j < n && is_space(t[j]))
        j++;
    if (j + 2 > n || strncasecmp(t + j, "al", 2))
        return 0;
    j += 2;
    if (j < n && t[j] == '.')
        j++;
    else if (j < n && !is_space(t[j]) && t[j] != ',' && t[j] != ')' &&
             t[j] != ';')
        return 0;
    *end = j;
    return 1;
}

/* A year at t[y..): four digits from 1000 to 2999, a small letter after
 * or not ("2019a"), then no letter or digit.  Its end in *e. */
static int year_at(const char *t, size_t n, size_t y, size_t *e)
{
    if (y + 4 > n || (t[y] != '1' && t[y] != '2'))
        return 0;
    for (size_t d = y; d < y + 4; d++)
        if (!isdigit((unsigned char)t[d]))
            return 0;
    size_t j = y + 4;
    if (j < n && t[j] >= 'a' && t[j] <= 'z' &&
        (j + 1 == n || !isalnum((unsigned char)t[j + 1])))
        j++; /* 2019a */
    if (j < n && isalnum((unsigned char)t[j]))
        return 0;
    *e = j;
    return 1;
}

/* The length of the elision a family name may begin with, one to four
 * small letters and an apostrophe (' or U+2019) before a capital ("d'" of
 * d'Aquin, "dell'" of dell'Orto), or 0. */
static size_t elision(const char *w, size_t n)
{
    size_t i = 0;
    while (i < n && i < 4 && islower((unsigned char)w[i]))
        i++;
    if (!i || i == n)
        return 0;
    size_t a = w[i] == '\'' ? 1 : n - i >= 3 && !memcmp(w + i, "\xe2\x80\x99", 3) ? 3 : 0;
    if (!a || i + a >= n ||
        !(isupper((unsigned char)w[i + a]) || (unsigned char)w[i + a] >= 0xc0))
        return 0;
    return i + a;
}

/* The family name that ends at ne, with the particles before it ("van
 * der Berg"): a word of name bytes of two letters or more, at a word's
 * start (after a space or '(') at or past `from`, not an operator, and,
 * with `cap`, written as a name: a capital first (after an elision:
 * "d'Aquin"), a small letter after ("LeCun", not "GPT" nor "LifeCLEF").
 * Its start in *ns. */
static int name_before(const char *t, size_t from, size_t ne, int cap,
                       size_t *ns)
{
    size_t s = ne, letters = 0, small = 0;
    while (s > from && name_byte((unsigned char)t[s - 1]))
        s--;
    for (size_t c = s; c < ne; c++) {
        const unsigned char b = (unsigned char)t[c];
        letters += isalpha(b) || b >= 0xc0;
        small += islower(b) || (c > s && b >= 0x80);
    }
    if (ne == s || letters < 2 || (s > from && !is_space(t[s - 1]) &&
                                   t[s - 1] != '(') ||
        qscan_is_op(t + s, ne - s))
        return 0;
    /* the capital after an elision in lower case: "d'Aquin",
     * "dell'Orto", "l’Hôpital" */
    const size_t f = cap ? s + elision(t + s, ne - s) : s;
    if (cap && (!(isupper((unsigned char)t[f]) || (unsigned char)t[f] >= 0xc0) ||
                !small))
        return 0;
    for (size_t c = f; cap && c + 1 < ne; c++) /* "LifeCLEF", an acronym */
        if (isupper((unsigned char)t[c]) && isupper((unsigned char)t[c + 1]))
            return 0;
    for (;;) {
        size_t pe = s;
        while (pe > from && is_space(t[pe - 1]))
            pe--;
        size_t ps = pe;
        while (ps > from && (isalpha((unsigned char)t[ps - 1]) ||
                             (unsigned char)t[ps - 1] >= 0x80))
            ps--;
        if (ps == pe || !particle(t + ps, pe - ps) ||
            (ps > from && !is_space(t[ps - 1]) && t[ps - 1] != '('))
            break;
        s = ps;
    }
    *ns = s;
    return 1;
}

/* Back from t[s] over spaces, a comma and spaces ("Wang, " before
 * "X."): where what stands before them ends (from at the least). */
static size_t back_over_comma(const char *t, size_t from, size_t s)
{
    while (s > from && is_space(t[s - 1]))
        s--;
    if (s > from && t[s - 1] == ',')
        s--;
    while (s > from && is_space(t[s - 1]))
        s--;
    return s;
}

/* The initials that end at ne, after a family name ("Wang, X." and
 * "Wang X" of "Wang, X. et al." and "Wang X, et al.", "Ho, J.-P.",
 * "Manning, C. D."): one to three capitals with their dots, or two
 * without ("CD", not "CNN"), hyphens between or a space after a dot,
 * after a space; the end of the name before them (a comma between or
 * not) in *fe. */
static int initials_before(const char *t, size_t from, size_t ne, size_t *fe)
{
    size_t s = ne, caps = 0, dots = 0;
    while (s > from) {
        const char c = t[s - 1];
        dots += c == '.';
        if (isupper((unsigned char)c) && (s - 1 == from || !isalpha((unsigned char)t[s - 2]) ||
                                          isupper((unsigned char)t[s - 2])))
            caps++;
        else if (!(c == '.' || c == '-' ||
                   (c == ' ' && s - 1 > from && t[s - 2] == '.' && s < ne &&
                    isupper((unsigned char)t[s]))))
            break;
        s--;
    }
    if (!caps || caps > (dots ? 3u : 2u) || s == from || !is_space(t[s - 1]))
        return 0;
    *fe = back_over_comma(t, from, s);
    return *fe > from;
}

/* The most authors a citation names, without "et al." or before it. */
#define CITE_NAMES 6

/* The names before the one in names[0] of a list, as Vancouver and APA
 * write one ("Wang X, Li Y, et al.", "Wang, X., Li, Y., et al.", "Wang
 * X, Li Y (2024)"): each a capitalised family name with its initials, a
 * comma or a semicolon between.  The list, first author first, replaces
 * names[0..); its length (CITE_NAMES at most, 1 when nothing stands
 * before) is returned. */
static size_t names_list_before(const char *t, size_t from,
                                size_t names[][2])
{
    size_t back[CITE_NAMES][2], nb = 0, cur = names[0][0];
    while (nb + 1 < CITE_NAMES) {
        size_t pe = cur;
        while (pe > from && is_space(t[pe - 1]))
            pe--;
        if (pe == from || (t[pe - 1] != ',' && t[pe - 1] != ';'))
            break;
        pe--;
        while (pe > from && is_space(t[pe - 1]))
            pe--;
        size_t fe, ns;
        if (!initials_before(t, from, pe, &fe) ||
            !name_before(t, from, fe, 1, &ns))
            break;
        back[nb][0] = ns, back[nb][1] = pe;
        nb++;
        cur = ns;
    }
    if (!nb)
        return 1;
    names[nb][0] = names[0][0], names[nb][1] = names[0][1];
    for (size_t m = 0; m < nb; m++)
        names[m][0] = back[nb - 1 - m][0], names[m][1] = back[nb - 1 - m][1];
    return nb + 1;
}

/* Does a capitalised word stand before t[s], spaces and commas between:
 * a title's word ("Deep Belief Nets (2006)"), a given name ("Geoffrey
 * Hinton (2006)") or a word of prose before a list ("In Paris, Smith and
 * Jones 2020"), which a citation without "et al." does not begin after? */
static int capital_before(const char *t, size_t s)
{
    while (s && (is_space(t[s - 1]) || t[s - 1] == ','))
        s--;
    if (!s || !name_byte((unsigned char)t[s - 1]))
        return 0;
    while (s && name_byte((unsigned char)t[s - 1]))
        s--;
    return isupper((unsigned char)t[s]) || (unsigned char)t[s] >= 0xc0;
}

static size_t cite_lead(const char *out, size_t len, size_t j);

/* Does t[s] begin a group of citations: '(' or ';' before it, spaces
 * and leading words ("see", cite_lead) between? */
static int group_before(const char *t, size_t s)
{
    for (int words = 0;; words++) {
        while (s && is_space(t[s - 1]))
            s--;
        if (s && (t[s - 1] == '(' || t[s - 1] == ';'))
            return 1;
        size_t w = s;
        while (w && !is_space(t[w - 1]) && t[w - 1] != '(')
            w--;
        if (words || w == s || cite_lead(t, s, w) != s - w)
            return 0;
        s = w;
    }
}


/* A citation without "et al." ending in the year at t[y..ye): one author
 * or a list of them (the last after "and" or "&", the others separated by
 * commas, an Oxford comma or not), the family names capitalised, the year
 * after a space or a comma, or in parentheses:
 *   Smith and Jones 2020, (Smith & Jones, 2020), Smith and Jones (2020)
 *   LeCun, Bengio and Hinton 2015, (LeCun, Bengio, & Hinton, 2015)
 *   Hinton (2006), (Hinton, 2006), (Hinton 2006; ...)
 * One name with its year and no parentheses ("Hinton 2006") is not one:
 * too many words and years are written so.  The names in names[0..*nn)
 * (at most CITE_NAMES; a longer list is none), the citation's end in
 * *end. */
/* The cited name that ends at ne: a capitalised family name with its
 * initials after it ("Chen, Z.", "Chen Z": *init set), or alone
 * ("Chen").  Its start in *ns. */
static int cited_name_before(const char *t, size_t from, size_t ne,
                             size_t *ns, int *init)
{
    size_t fe;
    if (initials_before(t, from, ne, &fe) && name_before(t, from, fe, 1, ns)) {
        *init = 1;
        return 1;
    }
    return name_before(t, from, ne, 1, ns);
}

static int named_citation(const char *t, size_t n, size_t from, size_t y,
                          size_t ye, size_t names[][2], size_t *nn,
                          size_t *end)
{
    const int paren = y > from && t[y - 1] == '(';
    const size_t k = y - paren, ne = back_over_comma(t, from, k);
    if (ne == k && !paren)
        return 0; /* "Hinton2006" */
    size_t ns;
    int init = 0;
    if (!cited_name_before(t, from, ne, &ns, &init))
        return 0;
    *end = ye + (paren && ye < n && t[ye] == ')');
    if (paren && *end == ye)
        return 0; /* "(2006" */
    /* "and" or "&" and a name before it: a list of authors */
    size_t c = ns;
    while (c > from && is_space(t[c - 1]))
        c--;
    size_t cs = c;
    if (c > from && t[c - 1] == '&')
        cs = c - 1;
    else if (c >= from + 3 && !memcmp(t + c - 3, "and", 3))
        cs = c - 3;
    if (cs < c && cs > from && is_space(t[cs - 1])) {
        /* the names before, last first: "Bengio" before "and", then
         * each one before a comma ("LeCun, "), an Oxford comma after the
         * one before "and" or not */
        size_t rev[CITE_NAMES][2], m = 0, pe = cs, ps;
        rev[m][0] = ns, rev[m][1] = ne, m++;
        int oxford = 0;
        while (pe > from && is_space(t[pe - 1]))
            pe--;
        if (pe > from && t[pe - 1] == ',') {
            pe--, oxford = 1;
            while (pe > from && is_space(t[pe - 1]))
                pe--;
        }
        while (cited_name_before(t, from, pe, &ps, &init)) {
            if (m == CITE_NAMES)
                return 0; /* a list longer than a citation's */
            rev[m][0] = ps, rev[m][1] = pe, m++;
            size_t q = ps;
            while (q > from && is_space(t[q - 1]))
                q--;
            if (q == from || t[q - 1] != ',')
                break;
            q--;
            while (q > from && is_space(t[q - 1]))
                q--;
            pe = q;
        }
        /* two names, or a comma before each of three or more (APA
         * writes one before "&" of two names with initials too: "Wang,
         * X., & Li, Y."); and no capitalised word before the first (a
         * title's, a given name, or a list of acronyms) */
        if (m >= 2 && !(oxford && m == 2 && !init) && !capital_before(t, rev[m - 1][0])) {
            for (size_t i = 0; i < m; i++)
                names[i][0] = rev[m - 1 - i][0], names[i][1] = rev[m - 1 - i][1];
            *nn = m;
            return 1;
        }
    }
    if (cs < c)
        return 0; /* a list begun by a word not a name ("Deep, Wide and Shallow 2020") */
    /* names with their initials, commas between, as Vancouver writes
     * them: "Wang X, Li Y, Chen Z (2024)", "Wang X, Li Y. 2024" */
    if (init) {
        size_t list[CITE_NAMES][2] = {{ns, ne}};
        const size_t m = names_list_before(t, from, list);
        if (m >= 2 && !capital_before(t, list[0][0])) {
            /* the sentence's dot after the last initials ("Li Y. 2024"),
             * where Vancouver writes none, is not the name's */
            if (!memchr(t + ns, ',', ne - ns) && t[ne - 1] == '.' &&
                memchr(t + ns, '.', ne - ns) == t + ne - 1)
                list[m - 1][1]--;
            for (size_t i = 0; i < m; i++)
                names[i][0] = list[i][0], names[i][1] = list[i][1];
            *nn = m;
            return 1;
        }
    }
    /* one author: "Hinton (2006)", "(Hinton, 2006)", "(see Hinton
     * 2006)", "(Li, 2019; Hinton, 2006)" */
    const int inside = group_before(t, ns) && ye < n &&
                       (t[ye] == ')' || t[ye] == ';');
    if ((!(paren && *end > ye) && !inside) || capital_before(t, ns))
        return 0;
    names[0][0] = ns, names[0][1] = ne;
    *nn = 1;
    return 1;
}

/* A citation's filters in out[0..len): (start, end) of each, at most
 * `most`. */
typedef struct cite_span {
    size_t start, end;
} cite_span;

/* The words a group of citations begins with ("see", "e.g.", "cf.")
 * at out[j]: their length, 0 when there is none. */
static size_t cite_lead(const char *out, size_t len, size_t j)
{
    static const char *const w[] = {"see", "e.g.", "e.g.,", "cf.", "i.e.",
                                    "also", "and"};
    if (j && !is_space(out[j - 1]) && out[j - 1] != '(')
        return 0;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        const size_t l = strlen(w[i]);
        if (j + l <= len && !strncasecmp(out + j, w[i], l) &&
            (j + l == len || is_space(out[j + l]) || out[j + l] == ')'))
            return l;
    }
    return 0;
}

/* A group of citations alone in parentheses, "(Vaswani et al., 2017;
 * Devlin et al., 2019)", "(see Li et al. 2019)": its parentheses,
 * separators (',', ';') and leading words (cite_lead) are made spaces,
 * so that the filters apply to the whole query (in a group beside other
 * words they would be one more alternative of its OR). */
static void ungroup_citations(char *out, size_t len, const cite_span *cs,
                              size_t n)
{
    for (size_t i = 0; i < len; i++) {
        if (out[i] != '(')
            continue;
        size_t j = i + 1, k = 0, held = 0;
        int only = 1;
        while (j < len && out[j] != ')' && only) {
            while (k < n && cs[k].end <= j)
                k++;
            if (k < n && cs[k].start <= j) {
                j = cs[k].end;
                held++;
                continue;
            }
            const size_t lead = cite_lead(out, len, j);
            if (lead) {
                j += lead;
                continue;
            }
            only = out[j] == ' ' || out[j] == ',' || out[j] == ';';
            j++;
        }
        if (!only || j >= len || !held)
            continue;
        for (size_t c = i; c <= j; c++) {
            int in = 0;
            for (size_t m = 0; m < n; m++)
                in |= cs[m].start <= c && c < cs[m].end;
            if (!in)
                out[c] = ' ';
        }
        i = j;
    }
}

/* A whole query of authors as PubMed and MEDLINE write them, the family
 * name and the initials without dots: "Wu Z", "Manning CD", "van der
 * Berg J", a list of up to CITE_NAMES separated by commas or semicolons
 * ("Wu Z, Li Y").  Each name (family and initials) in names[0..*nn). */
static int pubmed_names(const char *t, size_t n, size_t names[][2], size_t *nn)
{
    size_t i = 0, m = 0;
    for (;;) {
        while (i < n && is_space(t[i]))
            i++;
        if (i == n || m == CITE_NAMES)
            return 0;
        const size_t start = i;
        size_t words = 0, capitals = 0, last_start = 0, last_end = 0;
        /* the words up to a separator or the end */
        while (i < n && t[i] != ',' && t[i] != ';') {
            while (i < n && is_space(t[i]))
                i++;
            if (i == n || t[i] == ',' || t[i] == ';')
                break;
            size_t ws = i;
            while (i < n && !is_space(t[i]) && t[i] != ',' && t[i] != ';')
                i++;
            size_t s2;
            if (words > 0) { /* the word before the last: of the family */
                if (!particle(t + last_start, last_end - last_start) &&
                    !name_before(t, last_start, last_end, 1, &s2))
                    return 0;
                capitals += !particle(t + last_start, last_end - last_start);
            }
            last_start = ws, last_end = i;
            if (++words > 4)
                return 0;
        }
        /* the last word: one to three capital letters, the initials */
        const size_t len = last_end - last_start;
        if (words < 2 || !capitals || len > 3)
            return 0;
        for (size_t c = last_start; c < last_end; c++)
            if (!isupper((unsigned char)t[c]))
                return 0;
        names[m][0] = start, names[m][1] = last_end;
        m++;
        if (i == n) {
            *nn = m;
            return 1;
        }
        i++; /* the separator */
    }
}

/* Whether t[ws..we) is one initial with its dot ("G.") or several glued
 * ("C.D.", "J.-P.", "J.R.R."): capitals, each followed by its dot and
 * perhaps a hyphen, ending at a dot. */
static int initials_word(const char *t, size_t ws, size_t we)
{
    size_t i = ws;
    while (i < we) {
        if (i + 1 >= we || !isupper((unsigned char)t[i]) || t[i + 1] != '.')
            return 0;
        i += 2;
        if (i < we && t[i] == '-')
            i++;
    }
    return i == we && we > ws && t[we - 1] == '.';
}

/* A whole query that is one person's name as a bibliography writes it:
 * two to four words, given names first ("Yann LeCun", "Ming-Hsuan Yang",
 * "G. E. Hinton", "Anton van den Hengel") or the family name first
 * before a comma ("LeCun, Yann"), each a word written as a name (a
 * capital, then a small letter), a particle, or initials with their dots
 * ("G.", "C.D.", "J.-P.");
 * at least two of them names, or a name and an initial.  The name,
 * trimmed, in [*s, *e). */
static int person_name(const char *t, size_t n, size_t *s, size_t *e)
{
    /* words of a title, never of a name ("Trust The Typical" found The
     * Royal Marsden NHS Foundation Trust); "He", "An", "Do" are names */
    static const char *const never[] = {"the", "of", "and", "for", "with",
                                        "from", "into", "via", "is", "are",
                                        "to", "at", "by", "on", "in", "or",
                                        "not", "as", "its", "this", "that"};
    size_t i = 0, words = 0, names = 0, initials = 0, particles = 0;
    while (i < n && is_space(t[i]))
        i++;
    *s = i;
    while (i < n) {
        const size_t ws = i;
        while (i < n && !is_space(t[i]) && t[i] != ',')
            i++;
        const size_t we = i;
        if (we == ws || ++words > 4)
            return 0;
        for (size_t k = 0; k < sizeof never / sizeof never[0]; k++)
            if (strlen(never[k]) == we - ws && !strncasecmp(t + ws, never[k], we - ws))
                return 0;
        size_t ns;
        if (initials_word(t, ws, we))
            initials++;
        else if (particle(t + ws, we - ws))
            particles++;
        else if (name_before(t, ws, we, 1, &ns) && ns == ws)
            names++;
        else
            return 0;
        *e = we;
        if (i < n && t[i] == ',') { /* "LeCun, Yann", "Ó Conaill, Ruairí":
                                     * after the family name only */
            if (words != particles + 1)
                return 0;
            i++;
        }
        while (i < n && is_space(t[i]))
            i++;
    }
    return words >= 2 && (names >= 2 || (names == 1 && initials));
}

/* The length of a separator of a list of names at t[i..n): "and" or
 * "&" between spaces (the spaces before it included), or 0. */
static size_t and_at(const char *t, size_t n, size_t i)
{
    size_t j = i;
    while (j < n && is_space(t[j]))
        j++;
    if (j == i && i > 0)
        return 0;
    size_t w = j + 3 <= n && !strncmp(t + j, "and", 3) ? 3 : j < n && t[j] == '&' ? 1 : 0;
    return w && j + w < n && is_space(t[j + w]) ? j + w - i : 0;
}

/* A whole query that is a list of people's names, each as person_name
 * reads one ("Kaiming He, Jian Sun", "Yann LeCun and Yoshua Bengio",
 * "Ming-Hsuan Yang; Jan van der Berg"): two to CITE_NAMES of them,
 * commas, semicolons, "and" or "&" between (an Oxford comma or not).
 * Each name in names[0..*nn). */
static int person_names(const char *t, size_t n, size_t names[][2], size_t *nn)
{
    size_t i = 0, m = 0;
    while (i < n) {
        size_t j = i, sep = 0;
        while (j < n && t[j] != ',' && t[j] != ';' && !(sep = and_at(t, n, j)))
            j++;
        size_t s, e;
        if (m == CITE_NAMES || !person_name(t + i, j - i, &s, &e))
            return 0;
        names[m][0] = i + s, names[m][1] = i + e, m++;
        if (j == n)
            break;
        i = j + (sep ? sep : 1);
        if (!sep) /* after a comma, "and" may follow (an Oxford comma) */
            i += and_at(t, n, i);
        if (i >= n)
            return 0; /* a separator last */
    }
    *nn = m;
    return m >= 2;
}

size_t qscan_author_names(const char *t, size_t n, size_t (*names)[2],
                          size_t most)
{
    size_t pn[CITE_NAMES][2], npn = 0, ps, pe;
    if (person_name(t, n, &ps, &pe))
        pn[0][0] = ps, pn[0][1] = pe, npn = 1;
    else if (!person_names(t, n, pn, &npn) && !pubmed_names(t, n, pn, &npn))
        npn = 0;
    if (npn > most)
        return 0;
    for (size_t m = 0; m < npn; m++)
        names[m][0] = pn[m][0], names[m][1] = pn[m][1];
    return npn;
}

size_t qscan_citations(const char *t, size_t n, int first, char *out,
                       size_t size, char *note, size_t note_size,
                       unsigned *kinds)
{
    size_t o = 0, from = 0, nspans = 0, nseconds = 0, pending = 0;
    cite_span spans[32], seconds[8];
    int in_quote = 0;
    if (note_size)
        note[0] = '\0';
    if (kinds)
        *kinds = 0;
    if (!size)
        return 0;
    /* A query of PubMed's names alone is its authors, every one of the
     * list (PubMed's [au]): "Wu Z" read as words found the works that
     * write a word "z".  A query of one person's name is that author, as
     * PubMed maps a full name to its author index: "Yann LeCun" read as
     * words ranked first the works whose abstracts quote him. */
    size_t pn[CITE_NAMES][2];
    const size_t npn = qscan_author_names(t, n, pn, CITE_NAMES);
    if (npn && n + 20 * npn + 4 < size) {
        for (size_t m = 0; m < npn; m++)
            o += (size_t)snprintf(out + o, size - o, "%sauthor:\"%.*s\"",
                                  m ? " AND " : "", (int)(pn[m][1] - pn[m][0]),
                                  t + pn[m][0]);
        if (note_size)
            snprintf(note, note_size, "read \"%.*s\" as %s (in quotes, as words)",
                     (int)n, t, out);
        if (kinds)
            *kinds |= QSCAN_CITED_AUTHORS;
        return o;
    }
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '"') {
            in_quote = !in_quote;
            continue;
        }
        if (in_quote || (i && !is_space(t[i - 1]) && t[i - 1] != '('))
            continue;
        size_t end, ye, names[CITE_NAMES][2], nn = 1, ys = 0;
        unsigned kind;
        if (et_al_at(t, n, i, &end) && (!i || is_space(t[i - 1]))) {
            /* the family name before it ("Bengio, et al.") */
            size_t ne = i;
            while (ne > from && is_space(t[ne - 1]))
                ne--;
            if (ne > from && t[ne - 1] == ',')
                ne--;
            /* written as a name with its initials after it ("Hinton
             * GE": not the name "GE"), or a family name alone */
            size_t fe;
            const int initials = initials_before(t, from, ne, &fe) &&
                                 name_before(t, from, fe, 1, &names[0][0]);
            if (!initials && !name_before(t, from, ne, 0, &names[0][0]))
                continue;
            names[0][1] = ne;
            if (initials)
                nn = names_list_before(t, from, names);
            /* a year after it: ", 2025", " (2025)", "(2019a)" */
            size_t y = end;
            while (y < n && (is_space(t[y]) || t[y] == ','))
                y++;
            const int paren = y < n && t[y] == '(';
            y += paren;
            if (year_at(t, n, y, &ye)) {
                ys = y;
                end = ye + (paren && ye < n && t[ye] == ')');
            }
            kind = QSCAN_CITED_ET_AL;
        } else if (isdigit((unsigned char)t[i]) && year_at(t, n, i, &ye) &&
                   named_citation(t, n, from, i, ye, names, &nn, &end)) {
            ys = i;
            kind = QSCAN_CITED_NAMED;
        } else {
            continue;
        }
        const size_t keep = names[0][0];
        /* Inline: the first name (firstauthor: with `first`) and, with
         * `first`, the second (any author: the only one of its prefix, so
         * nothing ORs with it); the others ANDed at the end (below), as
         * several author: filters would OR together. */
        const size_t inline_n = first && nn > 1 ? 2 : 1;
        size_t names_len = 0, anded = 0;
        for (size_t m = 0; m < nn; m++)
            names_len += names[m][1] - names[m][0] + 16;
        for (size_t m = inline_n; m < nn; m++)
            anded += 16 + (names[m][1] - names[m][0]);
        /* what stands before, the filters (firstauthor:"", year:NNNN,
         * spaces: 37 bytes beside the names, 16 a name more), the rest
         * after, the parentheses and what is ANDed at the end */
        if (o + (keep - from) + names_len + 39 + (n - end) + pending + anded + 2 >= size ||
            nseconds + (nn - inline_n) > sizeof seconds / sizeof seconds[0])
            break;
        memcpy(out + o, t + from, keep - from);
        o += keep - from;
        const size_t at = o;
        o += (size_t)snprintf(out + o, size - o, "%sauthor:\"%.*s\"",
                              first ? "first" : "", (int)(names[0][1] - names[0][0]),
                              t + names[0][0]);
        if (inline_n == 2)
            o += (size_t)snprintf(out + o, size - o, " author:\"%.*s\"",
                                  (int)(names[1][1] - names[1][0]), t + names[1][0]);
        const size_t first_anded = nseconds;
        for (size_t m = inline_n; m < nn; m++) {
            pending += 16 + (names[m][1] - names[m][0]) + (nseconds == 0 ? 2 : 0);
            seconds[nseconds++] = (cite_span){names[m][0], names[m][1]};
        }
        const size_t year_at_out = o;
        if (ys)
            o += (size_t)snprintf(out + o, size - o, " year:%.4s", t + ys);
        if (note_size) {
            size_t used = strlen(note);
            if (used + 3 < note_size)
                snprintf(note + used, note_size - used, "%sread \"%.*s\" as %.*s",
                         used ? "; " : "", (int)(end - names[0][0]), t + names[0][0],
                         (int)(year_at_out - at), out + at);
            for (size_t m = first_anded; m < nseconds; m++) {
                used = strlen(note);
                if (used + 3 < note_size)
                    snprintf(note + used, note_size - used, " AND author:\"%.*s\"",
                             (int)(seconds[m].end - seconds[m].start),
                             t + seconds[m].start);
            }
            used = strlen(note);
            if (used + 3 < note_size)
                snprintf(note + used, note_size - used, "%.*s",
                         (int)(o - year_at_out), out + year_at_out);
        }
        if (kinds)
            *kinds |= kind;
        if (nspans < sizeof spans / sizeof spans[0])
            spans[nspans++] = (cite_span){at, o};
        /* the filter's value ends here: a space before what follows
         * ("2017;") */
        if (end < n && !is_space(t[end]) && t[end] != ')')
            out[o++] = ' ';
        from = end;
        i = end - 1;
    }
    if (o + (n - from) + pending + 1 > size)
        n = from + (size - o - pending - 1);
    memcpy(out + o, t + from, n - from);
    o += n - from;
    out[o] = '\0';
    ungroup_citations(out, o, spans, nspans);
    /* Every author of a list: several author: filters OR together, as
     * Xapian's boolean prefixes do, so the names past the first (the
     * second too without `first`) are ANDed with the whole query, "(rest
     * author:\"A\" year:Y) AND author:\"B\"". */
    if (nseconds) {
        memmove(out + 1, out, o + 1);
        out[0] = '(';
        o++;
        out[o++] = ')';
        for (size_t k = 0; k < nseconds; k++)
            o += (size_t)snprintf(out + o, size - o, " AND author:\"%.*s\"",
                                  (int)(seconds[k].end - seconds[k].start),
                                  t + seconds[k].start);
    }
    return o;
}
