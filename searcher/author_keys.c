/*
 * author_keys.c -- an author name as a user writes it, as the keys the
 * index's author terms answer, and the check of a work's stored names
 * against them (the contracts are in author_keys.h).
 *
 * A name gives, for each way text_name_filter_keys reads it (common/
 * names.c), one or two keys: a family name alone (XAL<family>), initials
 * ("family i": every XAF term that begins with it), or a full given name
 * ("family given", and "family i" for the works that know only the
 * initial).
 *
 * German names are written with umlauts, without them, and transliterated
 * (Müller, Muller, Mueller); folding takes the umlaut off, so each family
 * name is also tried with "ue", "oe", "ae" (at the start or after a
 * consonant, before a consonant or at the end) made "u", "o", "a", and
 * the other way round: Mueller gives "mueller" and
 * "muller", Muller and Müller give "muller" and "mueller" (spellings
 * has the rule); a full given name too (Jörg, Jorg, Joerg).  Only names of four letters or more without the 'e':
 * "Sun" is never "Suen".
 *
 * The index holds the first given name (or the first initial) only, so
 * "M.-H. Yang" finds through its terms every Yang whose given name opens
 * with M.  Its key carries the initials ("mh"), and a posting source
 * (InitialsSource, searcher/query_parse.cc) keeps the works with an
 * author whose initials open with them ("Ming-Hsuan", "Ming H.",
 * "M.-H."), or who has fewer initials that agree ("M."): never "Ming
 * Yang".
 */
#include <string.h>

#include "../common/text.h"
#include "author_keys.h"

static int is_vowel(char c)
{
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' ||
           c == 'y';
}

static int is_consonant(char c)
{
    return c >= 'a' && c <= 'z' && !is_vowel(c) && c != 'q';
}

/* Is f[i] a u, o or a where an umlaut may have stood: at the start or
 * after a consonant, and before a consonant or at the end ("muller",
 * "olberg", "hyyppa")? */
static int umlaut_place(const char *f, size_t i)
{
    return (f[i] == 'u' || f[i] == 'o' || f[i] == 'a') &&
           (i == 0 || is_consonant(f[i - 1])) &&
           (is_consonant(f[i + 1]) || !f[i + 1]);
}

/* The spellings of a folded name f (family or given) into out[0..5): f
 * itself, its form with every transliterated umlaut taken off (c: "mueller" ->
 * "muller"), and c with each set of its u, o, a between consonants
 * transliterated ("muller" -> "mueller"; for two places, both and each
 * alone).  Only when c has four letters or more, and two such places or
 * fewer (else f and c alone): the same set for every spelling of one
 * name.  Returns how many. */
static size_t spellings(arena *a, const char *f, const char *out[5])
{
    size_t n = 0, len = strlen(f);
    out[n++] = f;
    char *c = arena_alloc(a, len + 1);
    if (!c)
        return n;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        c[k++] = f[i];
        if ((f[i] == 'u' || f[i] == 'o' || f[i] == 'a') && f[i + 1] == 'e' &&
            (i == 0 || is_consonant(f[i - 1])) &&
            (is_consonant(f[i + 2]) || !f[i + 2]))
            i++; /* the transliteration's 'e' */
    }
    c[k] = '\0';
    if (k < 4)
        return n;
    if (strcmp(c, f))
        out[n++] = c;
    size_t at[2], m = 0;
    for (size_t i = 0; i < k; i++)
        if (umlaut_place(c, i)) {
            if (m == 2)
                return n;
            at[m++] = i;
        }
    for (unsigned pick = 1; pick < (1u << m); pick++) {
        char *s = arena_alloc(a, k + m + 1);
        if (!s)
            return n;
        size_t o = 0;
        for (size_t i = 0; i < k; i++) {
            s[o++] = c[i];
            for (size_t j = 0; j < m; j++)
                if (at[j] == i && (pick >> j & 1u))
                    s[o++] = 'e';
        }
        s[o] = '\0';
        if (strcmp(s, f))
            out[n++] = s;
    }
    return n;
}

/* The given names of nk written apart, each a name of two letters or
 * more ("Ming Hsuan", not "Ming H." nor "Ming-Hsuan"), joined and folded
 * as the index keys a hyphenated given name ("minghsuan"); NULL when
 * they are not so written (or out of memory). */
static const char *apart_given_joined(arena *a, const name_keys *nk)
{
    const char *g = nk->given_src;
    const size_t n = g ? nk->given_len : 0;
    size_t words = 0;
    char buf[128];
    size_t len = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && g[i] == ' ')
            i++;
        size_t j = i;
        while (j < n && g[j] != ' ')
            j++;
        if (j == i)
            break;
        if (j - i < 2 || len + (j - i) >= sizeof buf)
            return NULL;
        for (size_t c = i; c < j; c++)
            if (g[c] == '.' || g[c] == '-')
                return NULL;
        memcpy(buf + len, g + i, j - i);
        len += j - i;
        words++;
        i = j;
    }
    return words >= 2 ? text_fold(a, buf, len) : NULL;
}

/* The keys of one parse, the family name in each of its spellings and
 * a full given name too; for given names written apart, the key of
 * them joined, and the first one's held to the initials while the index
 * has the joined one (shim_author_key's strict_if). */
static int parse_keys(arena *a, const name_keys *nk, shim_author_key *out,
                      size_t *n)
{
    const char *initials = text_name_initials(a, nk);
    if (!initials)
        return -1;
    const char *ini = strlen(initials) >= 2 ? initials : NULL;
    const char *fams[5], *givens[5];
    size_t nf = spellings(a, nk->family, fams);
    size_t ng = *nk->initial && !nk->given_is_initial
                    ? spellings(a, nk->given, givens)
                    : 0;
    const char *apart = ng && ini ? apart_given_joined(a, nk) : NULL;
    for (size_t f = 0; f < nf; f++) {
        if (!*nk->initial) {
            out[(*n)++] = (shim_author_key){SHIM_AUTHOR_FAMILY, fams[f], NULL, 0, NULL};
            continue;
        }
        char *initial = text_join2(a, fams[f], nk->initial);
        if (!initial)
            return -1;
        /* the full name (each spelling), or a work that only knows the
         * initial(s) */
        const char *joined = apart ? text_join2(a, fams[f], apart) : NULL;
        if (apart && !joined)
            return -1;
        if (joined)
            out[(*n)++] = (shim_author_key){SHIM_AUTHOR_FULL, joined, NULL, 0, NULL};
        for (size_t g = 0; g < ng; g++) {
            char *full = text_join2(a, fams[f], givens[g]);
            if (!full)
                return -1;
            out[(*n)++] = (shim_author_key){SHIM_AUTHOR_FULL, full,
                                            joined ? ini : NULL, 0, joined};
        }
        out[(*n)++] = (shim_author_key){
            ng ? SHIM_AUTHOR_FULL : SHIM_AUTHOR_INITIAL, initial, ini, 0, NULL};
    }
    return 0;
}

int author_filter_keys(arena *a, const char *name, int rules,
                       shim_author_key *out, size_t *n)
{
    name_keys nk[3];
    char *clean = text_clean(a, name);
    int parses = clean ? text_name_filter_keys(a, clean, rules, nk) : -1;
    if (parses < 0)
        return -1;
    if (!*nk[0].family)
        return -2;
    for (int i = 0; i < parses; i++)
        if (*nk[i].family && parse_keys(a, &nk[i], out, n))
            return -1;
    return 0;
}

/* May an author with name keys nk be the person of initials q (two or
 * more)?  Full given names: their initials open with q ("Ming-Hsuan",
 * "Ming H." for "mh"); initials only: one row opens the other ("M." for
 * "mh", "M. H. J." too). */
static int initials_agree(arena *a, const name_keys *nk, const char *q)
{
    const char *ai = text_name_initials(a, nk);
    if (!ai)
        return 0;
    size_t lq = strlen(q), la = strlen(ai);
    if (!nk->given_is_initial)
        return la >= lq && !strncmp(ai, q, lq);
    return !strncmp(ai, q, la < lq ? la : lq);
}

int author_answers(arena *a, const char *name, int rules,
                   const shim_author_key *keys, size_t n)
{
    name_keys nk;
    if (text_name_keys_rules(a, name, rules, &nk) || !*nk.family)
        return 0;
    const char *g = nk.given_is_initial ? nk.initial : nk.given;
    const char *full = *nk.initial ? text_join2(a, nk.family, g) : NULL;
    /* the family name without its particles, or the double family
     * name, answers too (rules 3, as the indexer writes it) */
    const char *bare = text_name_other_family(&nk);
    const char *full_bare = bare && *nk.initial ? text_join2(a, bare, g) : NULL;
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i].key;
        const size_t kn = strlen(k);
        int hit;
        switch (keys[i].kind) {
        case SHIM_AUTHOR_FAMILY:
            hit = !strcmp(nk.family, k) || (bare && !strcmp(bare, k));
            break;
        case SHIM_AUTHOR_INITIAL:
            hit = (full && !strncmp(full, k, kn)) ||
                  (full_bare && !strncmp(full_bare, k, kn));
            break;
        default:
            hit = (full && !strcmp(full, k)) ||
                  (full_bare && !strcmp(full_bare, k));
        }
        if (hit && keys[i].initials &&
            (keys[i].kind == SHIM_AUTHOR_INITIAL || nk.given_is_initial ||
             keys[i].strict_if))
            hit = initials_agree(a, &nk, keys[i].initials);
        if (hit)
            return 1;
    }
    return 0;
}

/* May the name s[0..n) hold the folded key `fam` (its letters and digits
 * in a row, case and everything else ignored)?  Always for a name with
 * a byte past ASCII, which folding may change; so a name that cannot
 * answer is passed over before it is parsed. */
static int may_hold(const char *s, size_t n, const char *fam, size_t fn)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return 1;
    if (!fn)
        return 1;
    for (size_t i = 0; i < n; i++) {
        if ((s[i] | 0x20) != fam[0])
            continue; /* the key's first letter, in either case */
        size_t j = i, k = 0;
        while (j < n && k < fn) {
            char c = s[j++];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
                continue;
            if (c != fam[k])
                break;
            k++;
        }
        if (k == fn)
            return 1;
    }
    return 0;
}

int authors_answer(const char *joined, size_t len, int rules,
                   const shim_author_key *keys, size_t n)
{
    arena a = {0};
    int found = 0;
    /* one key (the posting source's): its family, to pass over names
     * that cannot hold it */
    const char *fam = n == 1 ? keys[0].key : "";
    const char *sp = strchr(fam, ' ');
    size_t fn = sp ? (size_t)(sp - fam) : strlen(fam);
    for (size_t i = 0; i < len && !found;) {
        const char *sep = memchr(joined + i, '\x1f', len - i);
        size_t end = sep ? (size_t)(sep - joined) : len;
        if (!may_hold(joined + i, end - i, fam, fn)) {
            i = end + 1;
            continue;
        }
        char *name = arena_strndup(&a, joined + i, end - i);
        if (!name) {
            found = -1;
            break;
        }
        found = author_answers(&a, name, rules, keys, n);
        i = end + 1;
    }
    arena_free(&a);
    return found;
}
