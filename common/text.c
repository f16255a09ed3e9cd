/*
 * text.c -- shared text rules (see text.h): UTF-8 validity, cleaning of
 * line-wrapped and TeX-accented fields, folding, and personal-name keys.
 *
 * Unicode work (validation, NFC, case folding, accent stripping, character
 * categories) is utf8proc's; this file only adds what utf8proc cannot know:
 * TeX accent commands as they appear in arXiv metadata, and how paper
 * authors' names are written.
 */
#include "text.h"
#include "arxiv_categories.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

/* FNV-1a, 64 bits (text_hash64): its basis, and one byte into h.  Every
 * index stores such hashes in its keys (layout.h), so they never change. */
#define FNV_BASIS 1469598103934665603ULL
static inline unsigned long long fnv_step(unsigned long long h, unsigned char c)
{
    return (h ^ c) * 1099511628211ULL;
}

/* Eight bytes at a time: 1 if the word at p is plain ASCII without a
 * NUL, the common case that every loop below skips in one step. */
static int word_is_ascii(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    const uint64_t lo = 0x0101010101010101ULL, hi = 0x8080808080808080ULL;
    return !(v & hi) && !((v - lo) & ~v & hi);
}

int text_utf8_valid(const char *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        if (i + 8 <= n && word_is_ascii(s + i)) {
            i += 8;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if (c == 0)
                break;
            i++;
            continue;
        }
        utf8proc_int32_t cp;
        utf8proc_ssize_t k =
            utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                             (utf8proc_ssize_t)(n - i), &cp);
        if (k < 0)
            break;
        i += (size_t)k;
    }
    if (i == n)
        return 1;
    if (bad)
        *bad = i;
    return 0;
}

static int is_space_or_ctl(unsigned char c)
{
    return c <= 0x20 || c == 0x7f;
}

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Combining marks for TeX accent commands. */
static uint32_t accent_mark(char cmd)
{
    switch (cmd) {
    case '\'': return 0x0301; /* acute */
    case '`': return 0x0300;  /* grave */
    case '^': return 0x0302;  /* circumflex */
    case '"': return 0x0308;  /* diaeresis */
    case '~': return 0x0303;  /* tilde */
    case '=': return 0x0304;  /* macron */
    case '.': return 0x0307;  /* dot above */
    case 'u': return 0x0306;  /* breve */
    case 'v': return 0x030C;  /* caron */
    case 'H': return 0x030B;  /* double acute */
    case 'c': return 0x0327;  /* cedilla */
    case 'k': return 0x0328;  /* ogonek */
    case 'r': return 0x030A;  /* ring */
    case 'd': return 0x0323;  /* dot below */
    default: return 0;
    }
}

static void put_cp(strbuf *b, uint32_t cp)
{
    utf8proc_uint8_t tmp[4];
    utf8proc_ssize_t k = utf8proc_encode_char((utf8proc_int32_t)cp, tmp);
    sb_append(b, (const char *)tmp, (size_t)k);
}

/* Special letters written as control words. Longest names first. */
static const struct {
    const char *name;
    uint32_t cp;
} tex_letters[] = {
    {"ss", 0x00DF}, {"aa", 0x00E5}, {"AA", 0x00C5}, {"ae", 0x00E6},
    {"AE", 0x00C6}, {"oe", 0x0153}, {"OE", 0x0152}, {"o", 0x00F8},
    {"O", 0x00D8},  {"l", 0x0142},  {"L", 0x0141},  {"i", 0x0131},
    {"j", 0x0237}, /* standalone \i, \j are dotless; as an accent's base
                      (\'{\i}) they are plain i, j: see accent_arg */
};

/* Parse an accent argument at s[i..n): "a", "{a}", "{\i}", "\i".  Sets
 * *base and returns the index after it, or 0 if there is none. */
static size_t accent_arg(const char *s, size_t i, size_t n, char *base)
{
    int braced = 0;
    if (i < n && s[i] == '{') {
        braced = 1;
        i++;
    }
    if (i + 1 < n && s[i] == '\\' && (s[i + 1] == 'i' || s[i + 1] == 'j') &&
        !(i + 2 < n && is_alpha(s[i + 2]))) {
        *base = s[i + 1];
        i += 2;
        if (!braced && i < n && s[i] == ' ')
            i++;
    } else if (i < n && is_alpha(s[i])) {
        *base = s[i];
        i++;
    } else {
        return 0;
    }
    if (braced) {
        if (i >= n || s[i] != '}')
            return 0;
        i++;
    }
    return i;
}

/* Try to decode one TeX accent or letter command at s[i] == '\\'.
 * Appends the result and returns the index after it, or 0 if s[i..] is
 * not one (the caller then copies it literally). */
static size_t tex_decode_at(const char *s, size_t i, size_t n, strbuf *b)
{
    if (i + 1 >= n)
        return 0;
    char cmd = s[i + 1];
    uint32_t mark = accent_mark(cmd);
    if (mark && !is_alpha(cmd)) {
        char base;
        size_t j = accent_arg(s, i + 2, n, &base);
        if (!j)
            return 0;
        sb_putc(b, base);
        put_cp(b, mark);
        return j;
    }
    if (mark && i + 2 < n && (s[i + 2] == '{' || s[i + 2] == ' ')) {
        char base;
        size_t j = accent_arg(s, i + 2 + (s[i + 2] == ' '), n, &base);
        if (!j)
            return 0;
        sb_putc(b, base);
        put_cp(b, mark);
        return j;
    }
    for (size_t k = 0; k < sizeof tex_letters / sizeof tex_letters[0]; k++) {
        size_t len = strlen(tex_letters[k].name);
        if (i + 1 + len > n || memcmp(s + i + 1, tex_letters[k].name, len))
            continue;
        size_t j = i + 1 + len;
        if (j < n && is_alpha(s[j]))
            continue; /* a longer control word, e.g. \omega */
        put_cp(b, tex_letters[k].cp);
        if (j + 1 < n && s[j] == '{' && s[j + 1] == '}')
            j += 2;
        else if (j < n && s[j] == ' ')
            j++;
        return j;
    }
    return 0;
}

/* TeX's text commands as reference managers write them into titles and
 * abstracts (a 3,725-entry Better BibTeX library holds \&, \textendash,
 * \textbf, \emph, \textit, \mkbibquote and \ldots among others).  A
 * symbol command is its character; a command that only formats its
 * argument is dropped with the braces of its argument, which keeps its
 * text ("\textbf{ShapeBots}" -> "ShapeBots"); a font switch ("{\bf x}")
 * is dropped.  Math ($...$) and Greek letters are left as written. */
static const struct {
    const char *name;
    uint32_t cp;
} tex_symbols[] = {
    {"textendash", 0x2013},       {"textemdash", 0x2014},
    {"ldots", 0x2026},            {"dots", 0x2026},
    {"textellipsis", 0x2026},     {"textquoteright", 0x2019},
    {"textquoteleft", 0x2018},    {"textquotedblleft", 0x201C},
    {"textquotedblright", 0x201D}, {"textregistered", 0x00AE},
    {"texttrademark", 0x2122},    {"textcopyright", 0x00A9},
    {"textdegree", 0x00B0},       {"S", 0x00A7},
    {"P", 0x00B6},                {"pounds", 0x00A3},
    {"euro", 0x20AC},             {"textasciitilde", '~'},
    {"textbackslash", '\\'},      {"textunderscore", '_'},
    {"textless", '<'},            {"textgreater", '>'},
    {"textbar", '|'},             {"textbullet", 0x2022},
    {"textperiodcentered", 0x00B7}, {"textpm", 0x00B1},
    {"texttimes", 0x00D7},        {"hyphen", '-'},
    {"slash", '/'},               {"textslash", '/'},
};
static const char *const tex_formats[] = { /* one argument, kept */
    "textbf", "textit", "emph", "textsc", "texttt", "textrm", "textsf",
    "textsl", "textup", "textmd", "textnormal", "mkbibquote", "mkbibemph",
    "mkbibitalic", "mkbibbold", "enquote", "mbox", "hbox", "NoCaseChange",
    "textsuperscript", "textsubscript", "uppercase", "lowercase",
    "MakeUppercase", "MakeLowercase", "url", "nolinkurl", "autocap"};
static const char *const tex_switches[] = { /* no argument: dropped */
    "bf", "it", "em", "sc", "tt", "rm", "sf", "sl", "bfseries", "itshape",
    "scshape", "ttfamily", "rmfamily", "sffamily", "upshape", "mdseries",
    "normalfont", "relax", "protect", "noopsort", "nobreakdash"};
static const char *const tex_logos[] = {"LaTeX", "TeX", "BibTeX", "LaTeXe"};

/* The index of the '}' closing the group that opens at s[i] == '{', or
 * 0 when it is not closed. */
static size_t group_end(const char *s, size_t i, size_t n)
{
    int depth = 0;
    for (size_t k = i; k < n; k++) {
        if (s[k] == '\\' && k + 1 < n) {
            k++; /* an escaped brace is no brace */
            continue;
        }
        if (s[k] == '{')
            depth++;
        else if (s[k] == '}' && --depth == 0)
            return k;
    }
    return 0;
}

/* A text command at s[i] == '\\' (see tex_symbols): appends what it
 * stands for and returns the index after it; for a formatting command
 * whose argument is a group, *close is set to the index of the group's
 * '}' (its '{' is passed over), else 0.  0 when s[i..] is no such
 * command (the caller copies it literally). */
static size_t tex_text_at(const char *s, size_t i, size_t n, strbuf *b,
                          size_t *close)
{
    *close = 0;
    if (i + 1 >= n)
        return 0;
    char c = s[i + 1];
    if (strchr("&%$#_{}", c)) { /* \& \% ...: the character */
        sb_putc(b, c);
        return i + 2;
    }
    if (c == ' ' || c == ',' || c == ';' || c == ':') { /* spaces */
        sb_putc(b, ' ');
        return i + 2;
    }
    if (c == '-' || c == '/' || c == '!' || c == '@') /* no text */
        return i + 2;
    size_t j = i + 1;
    while (j < n && is_alpha(s[j]))
        j++;
    size_t len = j - (i + 1);
    if (!len)
        return 0;
    const char *name = s + i + 1;
#define IS(word) (strlen(word) == len && !memcmp(name, word, len))
    size_t after = j;
    while (after < n && s[after] == ' ')
        after++; /* TeX eats the spaces after a control word */
    for (size_t k = 0; k < sizeof tex_symbols / sizeof tex_symbols[0]; k++)
        if (IS(tex_symbols[k].name)) {
            put_cp(b, tex_symbols[k].cp);
            if (j + 1 < n && s[j] == '{' && s[j + 1] == '}')
                return j + 2;
            return after;
        }
    for (size_t k = 0; k < sizeof tex_logos / sizeof tex_logos[0]; k++)
        if (IS(tex_logos[k])) {
            sb_append(b, name, len);
            if (j + 1 < n && s[j] == '{' && s[j + 1] == '}')
                return j + 2;
            return j;
        }
    for (size_t k = 0; k < sizeof tex_switches / sizeof tex_switches[0]; k++)
        if (IS(tex_switches[k]))
            return after;
    if (IS("href")) { /* \href{url}{text}: the text */
        size_t e = after < n && s[after] == '{' ? group_end(s, after, n) : 0;
        if (!e)
            return 0;
        after = e + 1;
        while (after < n && s[after] == ' ')
            after++;
        len = 3, name = "url"; /* the second argument as \url's */
    }
    for (size_t k = 0; k < sizeof tex_formats / sizeof tex_formats[0]; k++)
        if (IS(tex_formats[k])) {
            if (after < n && s[after] == '{') {
                size_t e = group_end(s, after, n);
                if (e) {
                    *close = e;
                    return after + 1;
                }
            }
            return after;
        }
#undef IS
    return 0;
}

/* 1 if s[0..n) is plain ASCII, which every rule here leaves to a fast
 * path. */
static int is_ascii(const char *s, size_t n)
{
    size_t i = 0;
    for (uint64_t v; i + 8 <= n; i += 8) {
        memcpy(&v, s + i, sizeof v);
        if (v & 0x8080808080808080ULL)
            return 0;
    }
    for (; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return 0;
    return 1;
}

static char *finish_nfc(arena *a, strbuf *b)
{
    char *out = NULL;
    if (!b->ok) {
        sb_release(b);
        return NULL;
    }
    size_t len = b->len;
    while (len && b->s[len - 1] == ' ')
        len--;
    /* ASCII is its own NFC: most records never reach utf8proc. */
    utf8proc_uint8_t *nfc = b->s && !is_ascii(b->s, len)
                                ? utf8proc_NFC((const utf8proc_uint8_t *)b->s)
                                : NULL;
    if (nfc) {
        size_t m = strlen((const char *)nfc);
        while (m && nfc[m - 1] == ' ')
            m--;
        out = arena_strndup(a, (const char *)nfc, m);
        free(nfc);
    } else {
        out = arena_strndup(a, b->s ? b->s : "", len);
    }
    sb_release(b);
    return out;
}

/* 1 if clean() copies byte c as it is, whatever surrounds it: not
 * white space or a control character, not the lead byte of a no-break
 * space, and (with tex) not where a TeX command may begin. */
static int plain_byte(unsigned char c, int tex)
{
    return !is_space_or_ctl(c) && c != 0xC2 && c != 0xEF &&
           !(tex && (c == '\\' || c == '{'));
}

/* Whether cp is read as its compatibility decomposition's letters
 * (text_compat_letters): a Latin ligature, a full-width Latin letter or
 * digit, the micro sign. */
static int compat_letter(utf8proc_int32_t cp)
{
    return (cp >= 0xFB00 && cp <= 0xFB06) || cp == 0x00B5 ||
           (cp >= 0xFF10 && cp <= 0xFF19) || (cp >= 0xFF21 && cp <= 0xFF3A) ||
           (cp >= 0xFF41 && cp <= 0xFF5A);
}

size_t text_compat_letters(const char *s, size_t n, char out[3],
                           size_t *out_len)
{
    /* every such character's UTF-8 begins so: the rest of a text is
     * passed over without decoding */
    if (!n || ((unsigned char)s[0] != 0xC2 && (unsigned char)s[0] != 0xEF))
        return 0;
    utf8proc_int32_t cp, d[3];
    const utf8proc_ssize_t k = utf8proc_iterate(
        (const utf8proc_uint8_t *)s, (utf8proc_ssize_t)(n < 4 ? n : 4), &cp);
    int last = 0;
    const utf8proc_ssize_t m =
        k > 0 && compat_letter(cp)
            ? utf8proc_decompose_char(cp, d, 3,
                                      UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT, &last)
            : 0;
    if (m <= 0 || m > 3)
        return 0;
    /* letters of ASCII, or mu (2 bytes) alone: at most 3 bytes */
    size_t o = 0;
    for (utf8proc_ssize_t i = 0; i < m; i++)
        o += (size_t)utf8proc_encode_char(d[i], (utf8proc_uint8_t *)out + o);
    *out_len = o;
    return (size_t)k;
}

/* How many formatting commands' groups may be open at once (nested
 * deeper, their closing braces are kept). */
#define TEX_MAX_OPEN 16

static char *clean(arena *a, const char *s, int tex)
{
    strbuf b = STRBUF_INIT;
    size_t n = strlen(s);
    int pending_space = 0;
    /* The '}' of each formatting command's argument still open, the
     * innermost (the nearest) last. */
    size_t closes[TEX_MAX_OPEN];
    int n_closes = 0;
    sb_append(&b, "", 0);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (n_closes && i == closes[n_closes - 1]) {
            n_closes--; /* the argument's closing brace */
            i++;
            continue;
        }
        if (is_space_or_ctl(c)) {
            pending_space = b.len > 0;
            i++;
            continue;
        }
        /* U+00A0 no-break space counts as white space too. */
        if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0xA0) {
            pending_space = b.len > 0;
            i += 2;
            continue;
        }
        if (pending_space) {
            sb_putc(&b, ' ');
            pending_space = 0;
        }
        /* A run of bytes no rule here looks at (most of a field: its
         * words and the single spaces between them) is copied in one
         * step. */
        size_t run = i;
        size_t stop = n_closes ? closes[n_closes - 1] : n;
        while (run < stop) {
            if (s[run] == ' ' && run + 1 < stop &&
                plain_byte((unsigned char)s[run + 1], tex)) {
                run += 2; /* one space between two plain bytes: kept */
                continue;
            }
            if (!plain_byte((unsigned char)s[run], tex))
                break;
            run++;
        }
        if (run > i) {
            sb_append(&b, s + i, run - i);
            i = run;
            continue;
        }
        if (tex && c == '{' && i + 1 < n && s[i + 1] == '\\') {
            size_t save = b.len;
            size_t j = tex_decode_at(s, i + 1, n, &b);
            if (j && j < n && s[j] == '}') {
                i = j + 1;
                continue;
            }
            b.len = save;
            if (b.s)
                b.s[save] = '\0';
        }
        if (tex && c == '\\') {
            size_t j = tex_decode_at(s, i, n, &b), close = 0;
            if (!j && (j = tex_text_at(s, i, n, &b, &close)) && close) {
                if (n_closes < TEX_MAX_OPEN)
                    closes[n_closes++] = close;
                else
                    j = 0; /* too deep: copied as written */
            }
            if (j) {
                i = j;
                continue;
            }
        }
        char letters[3];
        size_t nl, k = text_compat_letters(s + i, n - i, letters, &nl);
        if (k) {
            sb_append(&b, letters, nl);
            i += k;
            continue;
        }
        sb_putc(&b, (char)c);
        i++;
    }
    return finish_nfc(a, &b);
}

char *text_clean(arena *a, const char *s) { return clean(a, s, 1); }

char *text_collapse(arena *a, const char *s) { return clean(a, s, 0); }

int text_markup_kind(const char *name, size_t n)
{
    static const struct {
        const char *name;
        int kind;
    } tags[] = {{"i", TEXT_MARKUP_EMPHASIS},      {"b", TEXT_MARKUP_EMPHASIS},
                {"u", TEXT_MARKUP_EMPHASIS},      {"em", TEXT_MARKUP_EMPHASIS},
                {"strong", TEXT_MARKUP_EMPHASIS}, {"sc", TEXT_MARKUP_EMPHASIS},
                {"scp", TEXT_MARKUP_EMPHASIS},    {"span", TEXT_MARKUP_EMPHASIS},
                {"a", TEXT_MARKUP_EMPHASIS},      {"font", TEXT_MARKUP_EMPHASIS},
                {"small", TEXT_MARKUP_EMPHASIS},  {"italic", TEXT_MARKUP_EMPHASIS},
                {"bold", TEXT_MARKUP_EMPHASIS},   {"sub", TEXT_MARKUP_JOINED},
                {"sup", TEXT_MARKUP_JOINED},      {"inf", TEXT_MARKUP_JOINED},
                {"p", TEXT_MARKUP_BREAK},         {"br", TEXT_MARKUP_BREAK},
                {"div", TEXT_MARKUP_BREAK}};
    if (n > 4 && !strncasecmp(name, "mml:", 4))
        return TEXT_MARKUP_JOINED; /* MathML's text joins as written */
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (strlen(tags[i].name) == n && !strncasecmp(tags[i].name, name, n))
            return tags[i].kind;
    return 0;
}

int text_word_byte(unsigned char c)
{
    return c >= 0x80 || isalnum(c);
}

const char *const text_greek[TEXT_GREEK_LETTERS][2] = {
    {"\xce\xb1", "alpha"},   {"\xce\xb2", "beta"},    {"\xce\xb3", "gamma"},
    {"\xce\xb4", "delta"},   {"\xce\xb5", "epsilon"}, {"\xce\xb6", "zeta"},
    {"\xce\xb7", "eta"},     {"\xce\xb8", "theta"},   {"\xce\xb9", "iota"},
    {"\xce\xba", "kappa"},   {"\xce\xbb", "lambda"},  {"\xce\xbc", "mu"},
    {"\xce\xbd", "nu"},      {"\xce\xbe", "xi"},      {"\xce\xbf", "omicron"},
    {"\xcf\x80", "pi"},      {"\xcf\x81", "rho"},     {"\xcf\x83", "sigma"},
    {"\xcf\x82", "sigma"},   {"\xcf\x84", "tau"},     {"\xcf\x85", "upsilon"},
    {"\xcf\x86", "phi"},     {"\xcf\x87", "chi"},     {"\xcf\x88", "psi"},
    {"\xcf\x89", "omega"},
};

/* The inline tag at s ('<' first), as text_strip_markup reads it: its
 * length through '>', its text_markup_kind in *kind; 0 when s begins no
 * such tag.  Attributes are taken only where HTML writes them (span,
 * a, font, em, strong, p, br, div): "x<b and y>" is no tag. */
static size_t markup_tag(const char *s, int *kind)
{
    static const char *const with_attrs[] = {"em", "strong", "span", "a",
                                             "font", "p", "br", "div"};
    const char *p = s + 1;
    if (*p == '/')
        p++;
    const char *name = p;
    while (isalnum((unsigned char)*p) || *p == ':' || *p == '-')
        p++;
    size_t n = (size_t)(p - name);
    const int k = n ? text_markup_kind(name, n) : 0;
    if (!k)
        return 0;
    const char *end = strchr(p, '>');
    if (!end || memchr(p, '<', (size_t)(end - p)))
        return 0;
    int has_attrs = 0;
    for (const char *q = p; q < end; q++)
        if (*q != '/' && !isspace((unsigned char)*q))
            has_attrs = 1;
    int attrs_ok = n > 4 && !strncasecmp(name, "mml:", 4);
    for (size_t i = 0; i < sizeof with_attrs / sizeof with_attrs[0]; i++)
        attrs_ok |= strlen(with_attrs[i]) == n && !strncasecmp(with_attrs[i], name, n);
    if (has_attrs && !attrs_ok)
        return 0;
    *kind = k;
    return (size_t)(end - s) + 1;
}

/* The entity at s ('&' first): its length through ';', its character in
 * *cp; 0 when s begins no entity read here. */
static size_t markup_entity(const char *s, utf8proc_int32_t *cp)
{
    static const struct {
        const char *name;
        utf8proc_int32_t cp;
    } named[] = {{"amp", '&'},  {"lt", '<'},    {"gt", '>'},
                 {"quot", '"'}, {"apos", '\''}, {"nbsp", ' '}};
    const char *semi = strchr(s, ';');
    if (!semi || semi - s > 10)
        return 0;
    size_t n = (size_t)(semi - s) - 1;
    if (s[1] == '#') {
        char *e;
        const int hex = s[2] == 'x' || s[2] == 'X';
        const char *digits = s + 2 + hex;
        if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
            return 0;
        long v = strtol(digits, &e, hex ? 16 : 10);
        if (e != semi || !utf8proc_codepoint_valid((utf8proc_int32_t)v) || v == 0)
            return 0;
        *cp = (utf8proc_int32_t)v;
        return (size_t)(semi - s) + 1;
    }
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strlen(named[i].name) == n && !memcmp(named[i].name, s + 1, n)) {
            *cp = named[i].cp;
            return (size_t)(semi - s) + 1;
        }
    return 0;
}

char *text_strip_markup(arena *a, const char *s)
{
    if (!strpbrk(s, "<&"))
        return arena_strdup(a, s);
    strbuf b = STRBUF_INIT;
    int gap = 0; /* an emphasis (1) or a break (2) tag before p */
    for (const char *p = s; *p;) {
        int kind = 0;
        utf8proc_int32_t cp;
        size_t n;
        if (*p == '<' && (n = markup_tag(p, &kind))) {
            if (kind == TEXT_MARKUP_BREAK)
                gap = 2;
            else if (kind == TEXT_MARKUP_EMPHASIS && !gap)
                gap = 1;
            p += n;
            continue;
        }
        if (gap) { /* 1: a space between word characters; 2: a space */
            if (b.len && (gap == 2 ? !isspace((unsigned char)b.s[b.len - 1]) &&
                                         !isspace((unsigned char)*p)
                                   : text_word_byte((unsigned char)b.s[b.len - 1]) &&
                                         text_word_byte((unsigned char)*p)))
                sb_putc(&b, ' ');
            gap = 0;
        }
        if (*p == '&' && (n = markup_entity(p, &cp))) {
            utf8proc_uint8_t u[4];
            sb_append(&b, (const char *)u, (size_t)utf8proc_encode_char(cp, u));
            p += n;
            continue;
        }
        sb_putc(&b, *p++);
    }
    char *r = b.ok ? arena_strndup(a, b.s ? b.s : "", b.len) : NULL;
    sb_release(&b);
    return r;
}

/* The length of the script at s[i] == '$' ("$_2$", "$^{2+}$"), with
 * its text at *at (*len bytes); 0 when s[i] begins none. */
static size_t tex_script_at(const char *s, size_t n, size_t i,
                            const char **at, size_t *len)
{
    size_t j = i + 1;
    if (j + 2 >= n || (s[j] != '_' && s[j] != '^'))
        return 0;
    j++;
    const int braced = s[j] == '{';
    j += braced;
    const size_t from = j;
    while (j < n && j - from < 8 &&
           (isalnum((unsigned char)s[j]) || (braced && (s[j] == '+' || s[j] == '-'))))
        j++;
    if (j == from || (!braced && j - from != 1))
        return 0;
    *at = s + from;
    *len = j - from;
    if (braced) {
        if (j >= n || s[j] != '}')
            return 0;
        j++;
    }
    if (j >= n || s[j] != '$')
        return 0;
    return j + 1 - i;
}

/* The length of a digit script at s[i] == '_' or '^' inside a formula
 * ("_1", "^{2}", "_{10}": one to three digits), with its digits at *at
 * (*len bytes); 0 when s[i] begins none. */
static size_t digit_script_at(const char *s, size_t n, size_t i,
                              const char **at, size_t *len)
{
    size_t j = i + 1;
    if (s[i] != '_' && s[i] != '^')
        return 0;
    const int braced = j < n && s[j] == '{';
    j += braced;
    const size_t from = j;
    while (j < n && j - from < 4 && s[j] >= '0' && s[j] <= '9')
        j++;
    if (j == from || j - from > 3 || (!braced && j - from != 1))
        return 0;
    *at = s + from;
    *len = j - from;
    if (braced) {
        if (j >= n || s[j] != '}')
            return 0;
        j++;
    }
    return j - i;
}

/* The digit of a Unicode sub- or superscript digit at s[i..n) in *digit,
 * and its length in bytes; 0 for anything else.  Such a digit is a
 * character whose compatibility decomposition is <super> or <sub> of one
 * ASCII digit (U+2070, U+00B9, U+00B2, U+00B3, U+2074-U+2079,
 * U+2080-U+2089), which utf8proc's tables say; only a 0xC2 or 0xE2
 * byte, which each of them begins with, is decoded. */
static size_t unicode_script_digit(const char *s, size_t n, size_t i,
                                   char *digit)
{
    if (i >= n || ((unsigned char)s[i] != 0xC2 && (unsigned char)s[i] != 0xE2))
        return 0;
    utf8proc_int32_t cp, d[2];
    const utf8proc_ssize_t k = utf8proc_iterate(
        (const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(n - i < 4 ? n - i : 4), &cp);
    if (k <= 0)
        return 0;
    const utf8proc_property_t *p = utf8proc_get_property(cp);
    if (p->decomp_type != UTF8PROC_DECOMP_TYPE_SUPER &&
        p->decomp_type != UTF8PROC_DECOMP_TYPE_SUB)
        return 0;
    int last = 0;
    if (utf8proc_decompose_char(cp, d, 2, UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT,
                                &last) != 1 ||
        d[0] < '0' || d[0] > '9')
        return 0;
    *digit = (char)d[0];
    return (size_t)k;
}

size_t text_compound_hyphen(const char *s, size_t n)
{
    if (n >= 1 && s[0] == '-')
        return 1;
    if (n >= 3 && !memcmp(s, "\xe2\x80", 2) &&
        ((unsigned char)s[2] == 0x90 || (unsigned char)s[2] == 0x91))
        return 3;
    return 0;
}

/* The ASCII letters a part of text_dotted_abbrev begins with at s[0..n):
 * their count when no letter or digit follows them, else 0; any run of
 * three or more is 3 (no part), unread past its third letter. */
static size_t abbrev_part(const char *s, size_t n)
{
    size_t m = 0;
    while (m < n && m < 3 && isalpha((unsigned char)s[m]))
        m++;
    if (m == 3)
        return 3;
    return m > 0 && (m == n || !isalnum((unsigned char)s[m])) ? m : 0;
}

size_t text_dotted_abbrev(const char *s, size_t n, size_t *parts)
{
    size_t k = 0, m, count = 0, two = 0;
    while ((m = abbrev_part(s + k, n - k)) && m <= 2) {
        count++;
        two += m == 2;
        k += m;
        if (!(k + 1 < n && s[k] == '.' && abbrev_part(s + k + 1, n - k - 1)))
            break;
        k++;
    }
    if (count < 2 || !two || m > 2)
        return 0;
    if (parts)
        *parts = count;
    return k;
}

int text_may_hold_scripts(const char *s, size_t n, int math)
{
    if (memchr(s, '$', n))
        return 1;
    if (!math)
        return 0;
    char digit;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '_' || s[i] == '^' || s[i] == '\\' ||
            (unsigned char)s[i] == 0xe2 ||
            (math >= TEXT_MATH_JOINED && (unsigned char)s[i] == 0xc2 &&
             unicode_script_digit(s, n, i, &digit)))
            return 1;
    return 0;
}

size_t text_join_tex_scripts(const char *s, size_t n, char *out, int math)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        const char *at;
        size_t len, k;
        if (s[i] == '$' && o > 0 && text_word_byte((unsigned char)out[o - 1]) &&
            (k = tex_script_at(s, n, i, &at, &len))) {
            memmove(out + o, at, len);
            o += len;
            i += k;
            continue;
        }
        if (math) {
            /* \ell and U+2113, the script l of a norm's name */
            if (s[i] == '\\' && i + 4 <= n && !memcmp(s + i + 1, "ell", 3) &&
                (i + 4 == n || !isalpha((unsigned char)s[i + 4]))) {
                out[o++] = 'l';
                i += 4;
                continue;
            }
            if (i + 3 <= n && !memcmp(s + i, "\xe2\x84\x93", 3)) {
                out[o++] = 'l';
                i += 3;
                continue;
            }
            /* a digit script right after a letter or digit ("L_1",
             * "R^2", "x_{10}") */
            if (o > 0 && isalnum((unsigned char)out[o - 1]) &&
                (k = digit_script_at(s, n, i, &at, &len))) {
                memmove(out + o, at, len);
                o += len;
                i += k;
                continue;
            }
            /* a formula's closing '$' between a word and a hyphen that a
             * word follows: the compound "$k$-means" */
            if (math >= TEXT_MATH_JOINED && s[i] == '$' && o > 0 &&
                isalnum((unsigned char)out[o - 1]) && i + 2 < n &&
                s[i + 1] == '-' && text_word_byte((unsigned char)s[i + 2])) {
                i++;
                continue;
            }
            /* one to three digits written as Unicode's sub- or
             * superscripts right after a letter or digit ("CO₂", "R²") */
            char d[4];
            size_t m = 0, j = i;
            while (math >= TEXT_MATH_JOINED && o > 0 &&
                   isalnum((unsigned char)out[o - 1]) && m < 4 &&
                   (k = unicode_script_digit(s, n, j, &d[m]))) {
                j += k;
                m++;
            }
            if (m >= 1 && m <= 3) {
                memcpy(out + o, d, m); /* m bytes for at least 2 m read */
                o += m;
                i = j;
                continue;
            }
        }
        out[o++] = s[i++];
    }
    return o;
}

/* Letters that carry no combining mark in Unicode but are matched as
 * their base letter by every bibliographic search users know. */
static utf8proc_int32_t fold_special(utf8proc_int32_t cp)
{
    switch (cp) {
    case 0x0142: return 'l'; /* ł */
    case 0x00F8: return 'o'; /* ø */
    case 0x0111: return 'd'; /* đ */
    case 0x0127: return 'h'; /* ħ */
    case 0x0131: return 'i'; /* dotless ı */
    case 0x00F0: return 'd'; /* ð */
    case 0x00FE: return 't'; /* þ (as "th" would need two) */
    /* Their capitals, for text_unaccent, which keeps case (text_fold
     * has case-folded before it asks). */
    case 0x0141: return 'L'; /* Ł */
    case 0x00D8: return 'O'; /* Ø */
    case 0x0110: return 'D'; /* Đ */
    case 0x0126: return 'H'; /* Ħ */
    case 0x00D0: return 'D'; /* Ð */
    case 0x00DE: return 'T'; /* Þ */
    default: return cp;
    }
}

/* The ASCII fold of one byte: the byte lowered, or 0 when it is
 * dropped (neither letter nor digit). */
static char fold_ascii(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
        return (char)c;
    return 0;
}

int text_fold_hash64(const char *s, size_t n, unsigned long long *h)
{
    if (is_ascii(s, n)) { /* text_hash64 of the fold, without building it */
        unsigned long long x = FNV_BASIS;
        int any = 0;
        for (size_t i = 0; i < n; i++) {
            char f = fold_ascii((unsigned char)s[i]);
            if (f) {
                x = fnv_step(x, (unsigned char)f);
                any = 1;
            }
        }
        if (any)
            *h = x;
        return any;
    }
    arena a = {0};
    char *f = text_fold(&a, s, n);
    int rc = !f ? -1 : *f ? 1 : 0;
    if (rc == 1)
        *h = text_hash64(f, strlen(f));
    arena_free(&a);
    return rc;
}

char *text_fold(arena *a, const char *s, size_t n)
{
    /* ASCII, the common case, folds without utf8proc: letters lowered,
     * digits kept, the rest dropped, exactly as the general path does. */
    if (is_ascii(s, n)) {
        char *out = arena_alloc(a, n + 1);
        if (!out)
            return NULL;
        size_t o = 0;
        for (size_t i = 0; i < n; i++) {
            char f = fold_ascii((unsigned char)s[i]);
            if (f)
                out[o++] = f;
        }
        out[o] = '\0';
        return out;
    }
    utf8proc_uint8_t *m = NULL;
    utf8proc_ssize_t len = utf8proc_map(
        (const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &m,
        UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE |
            UTF8PROC_CASEFOLD | UTF8PROC_STRIPMARK);
    if (len < 0)
        return arena_strdup(a, ""); /* invalid UTF-8 folds to nothing */
    strbuf b = STRBUF_INIT;
    sb_append(&b, "", 0);
    for (utf8proc_ssize_t i = 0; i < len;) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(m + i, len - i, &cp);
        if (k <= 0)
            break;
        i += k;
        utf8proc_category_t cat = utf8proc_category(cp);
        if (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) {
            cp = fold_special(cp);
            if (cp == 0x00E6) { /* æ */
                sb_puts(&b, "ae");
                continue;
            }
            if (cp == 0x0153) { /* œ */
                sb_puts(&b, "oe");
                continue;
            }
            put_cp(&b, (uint32_t)cp);
        } else if (cat >= UTF8PROC_CATEGORY_ND &&
                   cat <= UTF8PROC_CATEGORY_NO) {
            put_cp(&b, (uint32_t)cp);
        }
    }
    free(m);
    char *out = b.ok ? arena_strndup(a, b.s, b.len) : NULL;
    sb_release(&b);
    return out;
}

static int is_diacritic(utf8proc_int32_t cp)
{
    return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
           (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
           (cp >= 0xFE20 && cp <= 0xFE2F);
}

/* The invisible characters a PDF or a web page leaves inside a word
 * copied from it: the soft hyphen (U+00AD: "classi\u00adfication" is
 * classification), the zero-width space (U+200B), the word joiner (U+2060)
 * and the zero-width no-break space (U+FEFF). */
static int is_invisible(utf8proc_int32_t cp)
{
    return cp == 0x00AD || cp == 0x200B || cp == 0x2060 || cp == 0xFEFF;
}

char *text_unaccent(const char *s, size_t n, size_t *len)
{
    if (is_ascii(s, n)) /* nothing to fold, the common case */
        return NULL;
    /* utf8proc_map's own steps: decompose to code points, drop the
     * marks (and fold the special letters) in place, then compose and
     * encode in the same buffer (utf8proc_reencode). */
    const utf8proc_option_t opts = UTF8PROC_STABLE | UTF8PROC_DECOMPOSE;
    utf8proc_ssize_t dl = utf8proc_decompose((const utf8proc_uint8_t *)s,
                                             (utf8proc_ssize_t)n, NULL, 0, opts);
    if (dl < 0)
        return NULL;
    utf8proc_int32_t *cps = malloc(((size_t)dl + 1) * sizeof *cps);
    if (!cps || utf8proc_decompose((const utf8proc_uint8_t *)s,
                                   (utf8proc_ssize_t)n, cps, dl, opts) != dl) {
        free(cps);
        return NULL;
    }
    utf8proc_ssize_t nc = 0;
    int changed = 0;
    for (utf8proc_ssize_t k = 0; k < dl; k++) {
        if (is_diacritic(cps[k]) || is_invisible(cps[k])) {
            changed = 1;
            continue;
        }
        utf8proc_int32_t f = fold_special(cps[k]);
        changed |= f != cps[k];
        cps[nc++] = f;
    }
    utf8proc_ssize_t r = changed ? utf8proc_reencode(
                                       cps, nc, UTF8PROC_STABLE | UTF8PROC_COMPOSE)
                                 : -1;
    if (r < 0) {
        free(cps);
        return NULL;
    }
    *len = (size_t)r;
    return (char *)cps; /* the UTF-8 now fills the front of the buffer */
}

unsigned long long text_hash64(const char *s, size_t n)
{
    unsigned long long h = FNV_BASIS;
    for (size_t i = 0; i < n; i++)
        h = fnv_step(h, (unsigned char)s[i]);
    return h;
}

size_t text_truncate_utf8(char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max)
        return n;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    s[max] = '\0';
    return max;
}

/* ---------------------------------------------------------- categories */

/* arXiv's computer-science subject codes, as profile pages show them bare
 * ("CV" for cs.CV). */
static int is_cs_code(const char *c)
{
    static const char codes[] =
        " AI AR CC CE CG CL CR CV CY DB DC DL DM DS ET FL GL GR GT HC IR IT "
        "LG LO MA MM MS NA NE NI OH OS PF PL RO SC SD SE SI SY ";
    char probe[5];
    if (strlen(c) != 2 || !isupper((unsigned char)c[0]) ||
        !isupper((unsigned char)c[1]))
        return 0;
    snprintf(probe, sizeof probe, " %s ", c);
    return strstr(codes, probe) != NULL;
}

/* Lower-case ASCII copy with surrounding blanks trimmed. */
static char *lower_trim(arena *a, const char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    char *k = arena_strndup(a, s, n);
    if (k)
        for (char *p = k; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return k;
}

/* Keys of one category: itself and its archive ("cs.cv" and "cs").  With
 * `query`, a bare cs code "CV" means cs.CV and only the given key is
 * produced.  Returns the number of keys written to k[0..2), -1 on OOM. */
int text_category_keys(arena *a, const char *cat, int query,
                       char *k[TEXT_CATEGORY_KEYS])
{
    char tmp[8];
    if (query && is_cs_code(cat)) {
        snprintf(tmp, sizeof tmp, "cs.%s", cat);
        cat = tmp;
    }
    k[0] = lower_trim(a, cat);
    if (!k[0])
        return -1;
    if (!*k[0])
        return 0;
    if (query) {
        /* A category's name ("Machine Learning"), when it is not a code
         * itself: its code, or both codes of a name two categories share,
         * beside it. */
        const char *codes[2];
        const size_t n =
            strchr(k[0], '.') ? 0 : arxiv_categories_named(cat, codes);
        for (size_t i = 0; i < n; i++)
            if (!(k[1 + i] = lower_trim(a, codes[i])))
                return -1;
        return 1 + (int)n;
    }
    const char *dot = strchr(k[0], '.');
    if (!dot || dot == k[0])
        return 1;
    k[1] = arena_strndup(a, k[0], (size_t)(dot - k[0]));
    return k[1] ? 2 : -1;
}

char *text_join2(arena *a, const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);
    char *s = arena_alloc(a, nx + ny + 2);
    if (s) {
        memcpy(s, x, nx);
        s[nx] = ' ';
        memcpy(s + nx + 1, y, ny + 1);
    }
    return s;
}

