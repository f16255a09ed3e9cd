/*
 * plurals.h -- an irregular plural's singular (matrices: matrix,
 * criteria: criterion, corpora: corpus, mice: mouse), which the stemmer
 * of an index stamped LAYOUT_META_PLURALS reads the plural as, in the
 * works and in the queries alike (common/shim.cc, SnowballEnglish).  The
 * table is made at build time from WordNet's exception list
 * (common/plurals.py).
 */
#ifndef PDX_PLURALS_H
#define PDX_PLURALS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest word looked up, with its NUL. */
#define PLURAL_MAX 48

struct plural_pair {
    const char *plural, *singular;
};

/* Made by plurals.py: the pairs sorted by the plural. */
extern const struct plural_pair plural_by_plural[];
extern const size_t plural_pairs;

/* The singular of word (len bytes, lower-case as the stemmer gets it),
 * written to out (PLURAL_MAX bytes) with its NUL, when word is a plural
 * of the table.  Returns the length written, or 0 when it is not (a
 * regular plural, which the stemmer reads itself, or a word of
 * PLURAL_MAX bytes or more). */
size_t plural_singular(const char *word, size_t len, char *out);

#ifdef __cplusplus
}
#endif

#endif
