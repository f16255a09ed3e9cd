/*
 * names.c -- the keys of a personal name, for the author filters, the
 * index's author terms, facets by person and name suggestions: one name
 * model, so that the indexer and every reader agree (common/text.h has
 * the contracts).  A name is a family name, with the particles that open
 * it (van der, de la, von), and given names; "Family, Given", "Given
 * Family" and, in a filter, "Family Given", PubMed's "Family GM" and the
 * other forms text_name_filter_keys lists are read.  The keys are folded
 * (text_fold: case, accents, punctuation gone).
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>

#include "text.h"

/* White space or a control character (names split on them). */
static int is_space_or_ctl(unsigned char c)
{
    return c <= 0x20 || c == 0x7f;
}

/* Words that belong to a family name when they precede it. */
static int is_particle(const char *w, size_t n)
{
    static const char *const particles[] = {
        "van", "von", "der", "den", "de", "del", "della", "di", "da", "du",
        "dos", "das", "la", "le", "ten", "ter", "zu", "af", "av", "bin",
        "al", "el", "st.", "y"};
    for (size_t i = 0; i < sizeof particles / sizeof particles[0]; i++)
        if (strlen(particles[i]) == n && !memcmp(particles[i], w, n))
            return 1;
    return 0;
}

int text_name_is_suffix(const char *w, size_t n)
{
    static const char *const suffixes[] = {"Jr", "Jr.", "Sr", "Sr.", "II",
                                           "III", "IV", "jr", "jr."};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (strlen(suffixes[i]) == n && !memcmp(suffixes[i], w, n))
            return 1;
    return 0;
}

typedef struct span {
    const char *p;
    size_t n;
} span;

/* Does an initial's dot end at s[j], glued to the name after it, as a
 * copied reference may leave it ("Y.LeCun", "J.R.R.Tolkien",
 * "M.-H.Yang"): a capital letter alone before the dot (after the word's
 * start, a dot or a hyphen), a capital and a small letter after it? */
static int glued_initial(const char *s, size_t i, size_t j, size_t n)
{
    return s[j] == '.' && j > i && j + 2 < n && isupper((unsigned char)s[j - 1]) &&
           (j - 1 == i || s[j - 2] == '.' || s[j - 2] == '-') &&
           isupper((unsigned char)s[j + 1]) && islower((unsigned char)s[j + 2]);
}

/* Split on white space, and after an initial glued to the name after it
 * (glued_initial); at most `max` words. */
static size_t split_words(const char *s, size_t n, span *w, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < max;) {
        while (i < n && is_space_or_ctl((unsigned char)s[i]))
            i++;
        size_t j = i;
        while (j < n && !is_space_or_ctl((unsigned char)s[j]) && !(j > i && glued_initial(s, i, j - 1, n)))
            j++;
        if (j > i) {
            w[k].p = s + i;
            w[k].n = j - i;
            k++;
        }
        i = j;
    }
    return k;
}

/* w[0..n) in lower case (its ASCII letters) in low[0..n), or 0 when it
 * does not fit there. */
static int lower_word(const char *w, size_t n, char low[8])
{
    if (n == 0 || n >= 8)
        return 0;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)w[i]);
    return 1;
}

int text_name_irish_particle(const char *w, size_t n)
{
    static const char *const irish[] = {
        "o", "\xc3\xb3", "\xc3\x93", "n\xc3\xad", "nic", "mac", "mc",
        "ua", "u\xc3\xad"};
    char low[8];
    if (!lower_word(w, n, low))
        return 0;
    for (size_t i = 0; i < sizeof irish / sizeof irish[0]; i++)
        if (strlen(irish[i]) == n && !memcmp(irish[i], low, n))
            return 1;
    return 0;
}

/* is_particle, whatever the case ("Van", "DE"); and the Irish ones,
 * which are written in capitals ("Ó Conaill", "Ní Bhriain", "Mac
 * Mathúna", "O Connell"). */
static int is_particle_ci(const char *w, size_t n)
{
    char low[8];
    return (lower_word(w, n, low) && is_particle(low, n)) ||
           text_name_irish_particle(w, n);
}

/* Is w[0..n) the y that joins two family names ("Ortega y Gasset",
 * "Ramón y Cajal"): a y in lower case? */
static int is_joining_y(const char *w, size_t n)
{
    return n == 1 && w[0] == 'y';
}

/* Does the word before a family name open it, under name rules `rules`:
 * a particle in lower case (rules 1 and 2), or in any case and the
 * Irish ones (rules 3: "Chiara De Santis" is family "De Santis", as
 * "De Santis, C." writes her). */
static int opens_family(const char *w, size_t n, int rules)
{
    return rules >= 3 ? is_particle_ci(w, n) : is_particle(w, n);
}

/* Under rules 3, the family name `fam` (n bytes, as written: "van der
 * Berg", "Ó Conaill", "Al-Farsi") without the particles that open it,
 * folded ("berg", "conaill", "farsi"); "" when none opens it.  A work's
 * author is found by either: "Beethoven" finds Ludwig van Beethoven, as
 * a library's catalogue and the web's engines find him. */
static char *bare_family(arena *a, const char *fam, size_t n, int rules)
{
    span w[16];
    size_t k = split_words(fam, n, w, 16);
    if (k == 0)
        return arena_strdup(a, "");
    /* rules 4: two family names joined by y, found by the second too
     * ("Cajal" finds Santiago Ramón y Cajal, as "Gasset" did when "y
     * Gasset" was his family name) */
    for (size_t j = 1; rules >= 4 && j + 1 < k; j++)
        if (is_joining_y(w[j].p, w[j].n))
            return text_fold(a, w[k - 1].p, w[k - 1].n);
    size_t f = k - 1;
    while (f > 0 && is_particle_ci(w[f - 1].p, w[f - 1].n))
        f--;
    const char *last = w[k - 1].p;
    size_t ln = w[k - 1].n;
    /* Arabic's article written onto the name: "Al-Farsi", "el-Din" */
    if (ln > 3 && (!strncasecmp(last, "al-", 3) || !strncasecmp(last, "el-", 3)))
        return text_fold(a, last + 3, ln - 3);
    if (f == 0 && k > 1)
        return text_fold(a, last, ln);
    return arena_strdup(a, "");
}

/* Is w[0..n) a whole word of a name: two letters or more, no dot, not
 * a suffix ("García"; not "M.", "M", "Jr")? */
static int whole_word(const char *w, size_t n)
{
    size_t letters = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] == '.')
            return 0;
        letters += ((unsigned char)w[i] & 0xc0) != 0x80;
    }
    return letters >= 2 && !text_name_is_suffix(w, n);
}

/* First letter (one code point) of a folded key, as a string. */
static char *first_char(arena *a, const char *key)
{
    size_t k = 0;
    if (*key) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t r =
            utf8proc_iterate((const utf8proc_uint8_t *)key, -1, &cp);
        k = r > 0 ? (size_t)r : 1;
    }
    return arena_strndup(a, key, k);
}

/* Parts split on spaces, dots and hyphens ("Ming-Hsuan", "M.-H.", "M H"
 * all "mh"); a part that folds to nothing gives none. */
char *text_name_initials(arena *a, const name_keys *k)
{
    const char *g = k->given_src ? k->given_src : "";
    size_t n = k->given_src ? k->given_len : 0;
    char buf[TEXT_NAME_INITIALS * 4 + 1];
    size_t len = 0, count = 0;
    for (size_t i = 0; i < n && count < TEXT_NAME_INITIALS;) {
        while (i < n && (g[i] == ' ' || g[i] == '.' || g[i] == '-'))
            i++;
        size_t j = i;
        while (j < n && g[j] != ' ' && g[j] != '.' && g[j] != '-')
            j++;
        if (j > i) {
            char *f = text_fold(a, g + i, j - i);
            if (!f)
                return NULL;
            if (*f) {
                char *c = first_char(a, f);
                if (!c)
                    return NULL;
                size_t cl = strlen(c);
                memcpy(buf + len, c, cl);
                len += cl;
                count++;
            }
        }
        i = j;
    }
    return arena_strndup(a, buf, len);
}

/* Given-name parts are separated by spaces, dots and hyphens: "J.-P." is
 * two initials.  Under rules 1, "Jean-Pierre" is two names and the first
 * is the given name ("jean"); under rules 2 (TEXT_NAME_RULES) a hyphen
 * between letters joins one given name ("jeanpierre"), so that
 * "Ming-Hsuan" is never "Ming". */
static int given_keys(arena *a, const char *g, size_t n, int rules,
                      name_keys *out)
{
    int all_initial = 1, any = 0;
    char *first = NULL;
    for (size_t i = 0; i < n;) {
        while (i < n && (g[i] == ' ' || g[i] == '.' || g[i] == '-'))
            i++;
        size_t j = i;
        while (j < n && g[j] != ' ' && g[j] != '.' &&
               (g[j] != '-' ||
                (rules >= 2 && j + 1 < n && g[j + 1] != ' ' &&
                 g[j + 1] != '.' && g[j + 1] != '-')))
            j++;
        if (j > i) {
            char *f = text_fold(a, g + i, j - i);
            if (!f)
                return -1;
            if (*f) {
                if (!first)
                    first = f;
                any = 1;
                size_t cps = 0;
                for (const char *p = f; *p; p++)
                    cps += ((unsigned char)*p & 0xC0) != 0x80;
                /* "M-H" joined is two initials, not a name "mh" */
                int initials = 1;
                for (size_t k = i; k < j; k++)
                    if (g[k] != '-' && (k + 1 < j && g[k + 1] != '-') &&
                        (k == i || g[k - 1] == '-'))
                        initials = 0;
                if (cps > 1 && !(memchr(g + i, '-', j - i) && initials))
                    all_initial = 0;
                else if (cps > 1) /* initials joined: the first of them */
                    first = first == f ? first_char(a, f) : first;
            }
        }
        i = j;
    }
    out->given = first ? first : arena_strdup(a, "");
    out->initial = first_char(a, out->given);
    out->given_src = g;
    out->given_len = n;
    out->given_is_initial = any && all_initial;
    return (out->given && out->initial) ? 0 : -1;
}

const char *text_name_other_family(const name_keys *k)
{
    if (k->bare && *k->bare)
        return k->bare;
    return k->family2 && *k->family2 ? k->family2 : NULL;
}

int text_name_keys(arena *a, const char *name, name_keys *out)
{
    return text_name_keys_rules(a, name, 1, out);
}

int text_name_keys_rules(arena *a, const char *name, int rules,
                         name_keys *out)
{
    size_t n = strlen(name);
    const char *comma = memchr(name, ',', n);
    memset(out, 0, sizeof *out);
    if (comma) {
        /* "Family, Given" or "Family, Given, Jr." */
        const char *g = comma + 1;
        const char *g_end = memchr(g, ',', (size_t)(name + n - g));
        if (!g_end)
            g_end = name + n;
        out->family = text_fold(a, name, (size_t)(comma - name));
        if (!out->family ||
            (rules >= 3 &&
             (!(out->bare = bare_family(a, name, (size_t)(comma - name), rules)) ||
              !(out->family2 = arena_strdup(a, "")))))
            return -1;
        return given_keys(a, g, (size_t)(g_end - g), rules, out);
    }
    span w[64];
    size_t k = split_words(name, n, w, 64);
    while (k > 1 && text_name_is_suffix(w[k - 1].p, w[k - 1].n))
        k--;
    if (k == 0) {
        out->family = arena_strdup(a, "");
        out->given = arena_strdup(a, "");
        out->initial = arena_strdup(a, "");
        return (out->family && out->given && out->initial) ? 0 : -1;
    }
    size_t f = k - 1;
    while (f > 1 && opens_family(w[f - 1].p, w[f - 1].n, rules))
        f--;
    /* rules 4: a y in lower case joins two family names ("José Ortega y
     * Gasset", "Santiago Ramón y Cajal"): the family name opens with the
     * word before it, while a given name is left before that */
    while (rules >= 4 && f >= 2 && f + 1 < k && is_joining_y(w[f].p, w[f].n)) {
        f--;
        while (f > 1 && opens_family(w[f - 1].p, w[f - 1].n, rules))
            f--;
    }
    const size_t fam_len = (size_t)(w[k - 1].p + w[k - 1].n - w[f].p);
    out->family = text_fold(a, w[f].p, fam_len);
    if (!out->family ||
        (rules >= 3 && !(out->bare = bare_family(a, w[f].p, fam_len, rules))))
        return -1;
    if (rules >= 3) {
        /* "Gabriel García Márquez": the last two words may be one
         * family name */
        out->family2 = k >= 3 && f == k - 1 && whole_word(w[k - 2].p, w[k - 2].n) &&
                               whole_word(w[k - 1].p, w[k - 1].n)
                           ? text_fold(a, w[k - 2].p,
                                       (size_t)(w[k - 1].p + w[k - 1].n - w[k - 2].p))
                           : arena_strdup(a, "");
        if (!out->family2)
            return -1;
    }
    if (f == 0)
        return given_keys(a, "", 0, rules, out);
    return given_keys(a, w[0].p, (size_t)(w[f - 1].p + w[f - 1].n - w[0].p),
                      rules, out);
}

/* Is w[0..n) initials as PubMed and MEDLINE write them: one to four
 * capital letters, no dots ("Z", "CD", "MH", "ŞB", "DLCA")? */
static int is_pubmed_initials(const char *w, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; count++) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t r = utf8proc_iterate((const utf8proc_uint8_t *)w + i,
                                              (utf8proc_ssize_t)(n - i), &cp);
        if (r <= 0 || utf8proc_category(cp) != UTF8PROC_CATEGORY_LU)
            return 0;
        i += (size_t)r;
    }
    return count >= 1 && count <= 4;
}

/* Is w[0..n) one lower-case letter ("z", "ş")? */
static int is_one_lower_letter(const char *w, size_t n)
{
    utf8proc_int32_t cp;
    utf8proc_ssize_t r = utf8proc_iterate((const utf8proc_uint8_t *)w,
                                          (utf8proc_ssize_t)n, &cp);
    return r > 0 && (size_t)r == n &&
           utf8proc_category(cp) == UTF8PROC_CATEGORY_LL;
}

/* Is w[0..n) a particle written in lower case, as one that opens a
 * family name ("van der Schaar", "de Gaulle")? */
static int is_lower_particle(const char *w, size_t n)
{
    return n && !(w[0] >= 'A' && w[0] <= 'Z') && is_particle(w, n);
}

/* Is w[0..n) a name of two or more hyphenated parts of two letters or
 * more each, with no dot ("Fei-Fei", "Ming-Hsuan"; not "F.-F.", "M-H",
 * "Smith-")? */
static int whole_hyphenated(const char *w, size_t n)
{
    size_t parts = 0, run = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || w[i] == '-') {
            if (run < 2)
                return 0;
            parts++;
            run = 0;
        } else if (w[i] == '.' || w[i] == ',') {
            return 0;
        } else if (((unsigned char)w[i] & 0xc0) != 0x80) {
            run++; /* a code point's first byte */
        }
    }
    return parts >= 2;
}

/* One parse: family from f[0..fn), given names from g[0..gn) (initials
 * when `initials` is set, each letter one initial). */
static int filter_parse(arena *a, const char *f, size_t fn, const char *g,
                        size_t gn, int initials, int rules, name_keys *out)
{
    memset(out, 0, sizeof *out);
    out->family = text_fold(a, f, fn);
    if (!out->family || (rules >= 3 && !(out->bare = bare_family(a, f, fn, rules))))
        return -1;
    if (!initials)
        return given_keys(a, g, gn, rules, out);
    char spaced[32]; /* each letter (code point) one initial */
    size_t k = 0;
    for (size_t i = 0; i < gn;) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t r = utf8proc_iterate((const utf8proc_uint8_t *)g + i,
                                              (utf8proc_ssize_t)(gn - i), &cp);
        size_t len = r > 0 ? (size_t)r : 1;
        if (k + len + 1 >= sizeof spaced)
            break;
        memcpy(spaced + k, g + i, len);
        k += len;
        spaced[k++] = ' ';
        i += len;
    }
    /* in `a`: out->given_src points at it */
    const char *kept = arena_strndup(a, spaced, k);
    return kept ? given_keys(a, kept, k, rules, out) : -1;
}

/* The length of s[0..n) without a citation's "et al." at its end ("He
 * et al.", "Vaswani, et al", "He K, et. al.", "Smith and others"), or n. */
static size_t without_et_al(const char *s, size_t n)
{
    static const char *const tails[] = {"et al.", "et al", "et. al.",
                                        "et.al.", "etal.", "and others"};
    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        const size_t l = strlen(tails[t]);
        size_t e = n;
        while (e && is_space_or_ctl((unsigned char)s[e - 1]))
            e--;
        if (e <= l || strncasecmp(s + e - l, tails[t], l) ||
            !is_space_or_ctl((unsigned char)s[e - l - 1]))
            continue;
        e -= l;
        while (e && (is_space_or_ctl((unsigned char)s[e - 1]) ||
                     s[e - 1] == ',' || s[e - 1] == ';'))
            e--;
        if (e)
            return e;
    }
    return n;
}

int text_name_filter_keys(arena *a, const char *name, int rules,
                          name_keys out[3])
{
    size_t n = strlen(name);
    const size_t cut = without_et_al(name, n);
    if (cut < n) {
        char *c = arena_strndup(a, name, cut);
        if (!c)
            return -1;
        name = c;
        n = cut;
    }
    const char *comma = memchr(name, ',', n);
    if (comma) {
        /* "Family, Given": particles written after the given names, as
         * arXiv's parsed names have them ("Schaar, Mihaela van der"),
         * belong to the family name. */
        const char *g = comma + 1;
        const char *g_end = memchr(g, ',', (size_t)(name + n - g));
        if (!g_end)
            g_end = name + n;
        span w[64];
        size_t k = split_words(g, (size_t)(g_end - g), w, 64);
        size_t p = k;
        while (p > 0 && is_lower_particle(w[p - 1].p, w[p - 1].n))
            p--;
        if (p == k || p == 0) {
            if (text_name_keys_rules(a, name, rules, &out[0]))
                return -1;
            /* "Li, Fei-Fei": a work may write the name family first
             * without the comma ("Li Fei-Fei"), which reads as given Li,
             * family Fei-Fei.  A hyphenated given name of whole parts is
             * read that way too: nobody else is given "Li" and named
             * "Fei-Fei" (an initial, "Li, F.-F.", or a plain given name,
             * "Martin, Paul", is never turned round). */
            if (k == 1 && whole_hyphenated(w[0].p, w[0].n) &&
                split_words(name, (size_t)(comma - name), w + 1, 2) == 1)
                return filter_parse(a, w[0].p, w[0].n, w[1].p, w[1].n, 0,
                                    rules, &out[1])
                           ? -1
                           : 2;
            return 1;
        }
        char *fam;
        size_t plen = (size_t)(w[k - 1].p + w[k - 1].n - w[p].p);
        size_t flen = (size_t)(comma - name);
        fam = arena_alloc(a, plen + 1 + flen + 1);
        if (!fam)
            return -1;
        memcpy(fam, w[p].p, plen);
        fam[plen] = ' ';
        memcpy(fam + plen + 1, name, flen);
        fam[plen + 1 + flen] = '\0';
        return filter_parse(a, fam, plen + 1 + flen, w[0].p,
                            (size_t)(w[p - 1].p + w[p - 1].n - w[0].p), 0, rules, &out[0])
                   ? -1
                   : 1;
    }
    span w[64];
    size_t k = split_words(name, n, w, 64);
    while (k > 1 && text_name_is_suffix(w[k - 1].p, w[k - 1].n))
        k--;
    if (k < 2)
        return text_name_keys_rules(a, name, rules, &out[0]) ? -1 : 1;
    const char *end = w[k - 1].p + w[k - 1].n;
    /* A name in capitals throughout ("ZHIHUA WU") has no initials to
     * tell apart but single letters. */
    int has_lower = 0;
    for (const char *p = name; p < end; p++)
        has_lower |= *p >= 'a' && *p <= 'z';
    /* PubMed and MEDLINE: "Wu Z", "Manning CD", "van der Schaar M"; not
     * after an initial ("H. M" is family M), and with three words or more
     * a last single letter may be a family name too ("Hemanth Kumar M"). */
    int first_initial = memchr(w[0].p, '.', w[0].n) != NULL || w[0].n == 1;
    /* ... and typed in lower case throughout ("wu z", "lecun y"): a last
     * word of one letter is an initial */
    int has_upper = 0;
    for (const char *p = name; p < end; p++)
        has_upper |= *p >= 'A' && *p <= 'Z';
    const int lower_initial =
        !has_upper && is_one_lower_letter(w[k - 1].p, w[k - 1].n);
    if ((is_pubmed_initials(w[k - 1].p, w[k - 1].n) || lower_initial) &&
        (has_lower || w[k - 1].n == 1) && !(k == 2 && first_initial)) {
        if (filter_parse(a, w[0].p, (size_t)(w[k - 2].p + w[k - 2].n - w[0].p),
                         w[k - 1].p, w[k - 1].n, 1, rules, &out[0]))
            return -1;
        if (is_particle_ci(w[0].p, w[0].n))
            return 1;
        int np = 1;
        /* "Hemanth Kumar M", "Ganeshkumar M" (a family name of one
         * letter), a family name in capitals ("Zitong YU"): "Given
         * Family" too */
        if ((k >= 3 && w[k - 1].n == 1) || k == 2)
            if (text_name_keys_rules(a, name, rules, &out[np++]))
                return -1;
        /* "Barral Joelle K", "Wu David JH": family first, middle
         * initials last */
        if (k >= 3 && filter_parse(a, w[0].p, w[0].n, w[1].p,
                                   (size_t)(end - w[1].p), 0, rules,
                                   &out[np++]))
            return -1;
        return np;
    }
    /* "CD Manning": initials first, run together (two words only: "MD
     * Mahbubur Rahman" is a given name "MD"). */
    if (k == 2 && is_pubmed_initials(w[0].p, w[0].n) && w[0].n > 1 &&
        has_lower && !is_particle_ci(w[0].p, w[0].n))
        /* and a family name in capitals first ("YU Zedong") */
        return filter_parse(a, w[1].p, (size_t)(end - w[1].p), w[0].p,
                            w[0].n, 1, rules, &out[0]) ||
                       filter_parse(a, w[0].p, w[0].n, w[1].p,
                                    (size_t)(end - w[1].p), 0, rules, &out[1])
                   ? -1
                   : 2;
    /* rules 4: two family names joined by y, typed alone ("Ortega y
     * Gasset", "Ramón y Cajal"), or family first ("Ortega y Gasset
     * José") */
    if (rules >= 4 && k >= 3 && is_joining_y(w[1].p, w[1].n)) {
        const char *g = k > 3 ? w[3].p : "";
        return filter_parse(a, w[0].p, (size_t)(w[2].p + w[2].n - w[0].p), g,
                            k > 3 ? (size_t)(end - g) : 0, 0, rules, &out[0])
                   ? -1
                   : 1;
    }
    /* A family name that opens with its particles: "van der Schaar",
     * "De la Cruz", "de Gaulle".  A single capitalised one ("Van Kroft",
     * "Da Wenhao") may be a given name too: both are tried. */
    size_t lead = 0;
    while (lead < k - 1 && is_particle_ci(w[lead].p, w[lead].n))
        lead++;
    if (lead == k - 1) {
        if (filter_parse(a, w[0].p, (size_t)(end - w[0].p), "", 0, 0, rules, &out[0]))
            return -1;
        /* a particle in lower case opens a family name, unless the
         * whole name is in lower case ("le zhang") */
        if (lead >= 2 || (has_upper && is_lower_particle(w[0].p, w[0].n)))
            return 1;
        /* else also "Given Family" and "Family Given" ("Le Nguyen-Khang") */
        if (text_name_keys_rules(a, name, rules, &out[1]))
            return -1;
        if (k != 2)
            return 2;
        return filter_parse(a, w[0].p, w[0].n, w[1].p, w[1].n, 0, rules,
                            &out[2])
                   ? -1
                   : 3;
    }
    if (text_name_keys_rules(a, name, rules, &out[0]))
        return -1;
    /* "von Gerlach Chiara": a family name that opens with particles,
     * written first ("Family Given"), as well as "Given Family". */
    if (is_lower_particle(w[0].p, w[0].n) && lead < k - 1) {
        const char *g = w[lead + 1].p;
        return filter_parse(a, w[0].p, (size_t)(w[lead].p + w[lead].n - w[0].p),
                            g, (size_t)(end - g), 0, rules, &out[1])
                   ? -1
                   : 2;
    }
    /* In lower case throughout ("luca della libera") a particle inside may
     * be a middle name: the last word alone is the family name too. */
    if (!has_upper && k >= 3 && is_particle(w[k - 2].p, w[k - 2].n))
        return filter_parse(a, w[k - 1].p, w[k - 1].n, w[0].p,
                            (size_t)(w[k - 2].p + w[k - 2].n - w[0].p), 0,
                            rules, &out[1])
                   ? -1
                   : 2;
    /* "Yann Le Cun", "Anton Van Den Hengel": particles written in
     * capitals before the last word open the family name too, as "Le
     * Cun, Yann" reads it; */
    int np = 1;
    size_t pf = k - 1;
    while (pf > 1 && is_particle_ci(w[pf - 1].p, w[pf - 1].n))
        pf--;
    if (k >= 3 && pf < k - 1 &&
        filter_parse(a, w[pf].p, (size_t)(end - w[pf].p), w[0].p,
                     (size_t)(w[pf - 1].p + w[pf - 1].n - w[0].p), 0, rules,
                     &out[np++]))
        return -1;
    /* and in lower case ("Anton van den Hengel") the last word alone,
     * as a work that writes them in capitals is read */
    if (np == 2 && !strcmp(out[1].family, out[0].family) &&
        !strcmp(out[1].given, out[0].given) &&
        filter_parse(a, w[k - 1].p, w[k - 1].n, w[0].p,
                     (size_t)(w[pf - 1].p + w[pf - 1].n - w[0].p), 0, rules,
                     &out[1]))
        return -1;
    /* No comma: "Given Family" as read above, or "Family Given" (Chinese,
     * Hungarian, Japanese order; "Wu Zhihua", "Trawinski Arkadiusz P."):
     * both are tried, unless the first word is an initial ("Z. Wu"), or
     * the second of two ("Zhihua W."), or the name holds a particle ("Jan
     * van der Berg"): those fix the order. */
    /* "Gabriel García Márquez", "G. García Márquez": the last two words
     * as a double family name too, as a work that writes "García
     * Márquez, G." is read */
    if (rules >= 3 && np < 3 && out[0].family2 && *out[0].family2) {
        if (filter_parse(a, w[k - 2].p, (size_t)(end - w[k - 2].p), w[0].p,
                         (size_t)(w[k - 3].p + w[k - 3].n - w[0].p), 0, rules,
                         &out[np]))
            return -1;
        np++;
    }
    const char *g1 = w[1].p;
    size_t last_letters = 0;
    for (size_t i = 0; i < w[k - 1].n; i++)
        last_letters += isalpha((unsigned char)w[k - 1].p[i]) ||
                        (unsigned char)w[k - 1].p[i] >= 0x80;
    size_t first_letters = 0;
    for (size_t i = 0; i < w[0].n; i++)
        first_letters += isalpha((unsigned char)w[0].p[i]) ||
                         (unsigned char)w[0].p[i] >= 0x80;
    int particles = 0;
    for (size_t i = 1; i < k; i++)
        particles |= is_lower_particle(w[i].p, w[i].n);
    if ((k == 2 && (last_letters < 2 || memchr(w[k - 1].p, '.', w[k - 1].n))) ||
        first_letters < 2 || memchr(w[0].p, '.', w[0].n) || particles ||
        is_particle(w[0].p, w[0].n) || np >= 3)
        return np;
    if (filter_parse(a, w[0].p, w[0].n, g1, (size_t)(end - g1), 0, rules, &out[np]))
        return -1;
    if (!strcmp(out[np].family, out[0].family) && !strcmp(out[np].given, out[0].given))
        return np;
    return np + 1;
}

