/*
 * plurals.c -- an irregular plural's singular, looked up in the table
 * plurals.py makes from WordNet's exception list.
 *
 * Why.  Porter's stemmer (libstemmer's English) takes off a plural's
 * regular endings only, so a Latin or Greek plural keeps a stem of its
 * own, and sometimes another word's: on the arXiv 101k, "matrix" found
 * the 1,760 works that write it and none of the 638 that write only
 * "matrices"; "criterion" none of the 1,235 that write only "criteria";
 * and "indices" (stem indic) found 6,162 works, those of indicate and
 * indicator, where 311 write it.  A researcher who writes one number means
 * the works of both, as Google Scholar and Lucene's KStem (Krovetz) match
 * them.  So an index stamped LAYOUT_META_PLURALS stems each such plural as
 * its singular, in its works and in its queries: the two are one term,
 * weighed as one.  A quoted word still matches the works that write it as
 * quoted: the words as written are kept beside the stems
 * (common/forms.cc).
 */
#include "plurals.h"

#include <stdlib.h>
#include <string.h>

static int by_plural(const void *key, const void *elt)
{
    return strcmp(key, ((const struct plural_pair *)elt)->plural);
}

size_t plural_singular(const char *word, size_t len, char *out)
{
    if (len < 3 || len >= PLURAL_MAX)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (word[i] < 'a' || word[i] > 'z')
            return 0;
    char w[PLURAL_MAX];
    memcpy(w, word, len);
    w[len] = '\0';
    const struct plural_pair *hit =
        bsearch(w, plural_by_plural, plural_pairs, sizeof *plural_by_plural, by_plural);
    if (!hit)
        return 0;
    const size_t n = strlen(hit->singular);
    if (n >= PLURAL_MAX)
        return 0;
    memcpy(out, hit->singular, n + 1);
    return n;
}
