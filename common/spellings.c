/*
 * spellings.c -- a British word's American spelling, looked up in the
 * table spellings.py makes from SCOWL.
 *
 * Why.  arXiv's abstracts are written in both: on the arXiv 101k,
 * "optimisation" is held by 542 works and "optimization" by 21,941,
 * "colour" by 61 and "color" by 1,450, and the stemmer keeps them apart
 * (optimis, optim).  A researcher who writes one spelling means the works
 * of both, as PubMed maps "tumour" to "tumor" and Google Scholar matches
 * either.  So an index stamped LAYOUT_META_SPELLINGS stems each British
 * word as its American spelling, in its works and in its queries: the
 * two are one term, weighed as one (as two terms of an OR, the rarer
 * spelling's weight would put the works that write it first).  A quoted
 * word still matches the works that write it as quoted: the words as
 * written are kept beside the stems (common/forms.cc).
 *
 * The pairs come from SCOWL, which lists the words spelt one way only, on
 * each side; a modern word SCOWL lacks (tokenisation, vectorise) gets its
 * -ise ending read as -ize unless SCOWL lists it as spelt alike on both
 * sides (precise, size, expertise) or it ends in -wise (pairwise).
 */
#include "spellings.h"

#include <stdlib.h>
#include <string.h>

static int by_uk(const void *key, const void *elt)
{
    return strcmp(key, ((const struct spelling_pair *)elt)->uk);
}

static int by_word(const void *key, const void *elt)
{
    return strcmp(key, *(const char *const *)elt);
}

/* The endings the -ise rule reads, after "is". */
static const char *const ENDINGS[] = {"e", "ed", "es", "ing", "er", "ers",
                                      "ation", "ations", "able"};

/* word (n bytes) with its -ise ending written -ize, into out: 0 when it
 * has no such ending, fewer than three letters before it, or is -wise. */
static size_t ise_to_ize(const char *word, size_t n, char *out)
{
    for (size_t e = 0; e < sizeof ENDINGS / sizeof *ENDINGS; e++) {
        const size_t k = strlen(ENDINGS[e]);
        if (n < k + 5 || strcmp(word + n - k, ENDINGS[e]) != 0)
            continue;
        const size_t at = n - k - 2; /* the "is" */
        if (word[at] != 'i' || word[at + 1] != 's' || word[at - 1] == 'w')
            continue;
        memcpy(out, word, n + 1);
        out[at + 1] = 'z';
        return n;
    }
    return 0;
}

size_t spelling_american(const char *word, size_t len, char *out)
{
    if (len == 0 || len >= SPELLING_MAX)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (word[i] < 'a' || word[i] > 'z')
            return 0;
    char w[SPELLING_MAX];
    memcpy(w, word, len);
    w[len] = '\0';
    const struct spelling_pair *hit =
        bsearch(w, spelling_by_uk, spelling_pairs, sizeof *spelling_by_uk, by_uk);
    if (hit) {
        while (hit > spelling_by_uk && strcmp(hit[-1].uk, w) == 0)
            hit--;
        const size_t n = strlen(hit->us);
        if (n >= SPELLING_MAX)
            return 0;
        memcpy(out, hit->us, n + 1);
        return n;
    }
    if (bsearch(w, spelling_keep, spelling_keeps, sizeof *spelling_keep, by_word))
        return 0;
    return ise_to_ize(w, len, out);
}
