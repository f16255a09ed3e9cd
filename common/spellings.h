/*
 * spellings.h -- a word's American spelling (optimisation: optimization,
 * colour: color, haemoglobin: hemoglobin), which the stemmer of an index
 * stamped LAYOUT_META_SPELLINGS reads a British word as, in the works and
 * in the queries alike (common/shim.cc, SnowballEnglish).  The table is
 * made at build time from SCOWL's word lists (common/spellings.py).
 */
#ifndef PDX_SPELLINGS_H
#define PDX_SPELLINGS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest word looked up, with its NUL. */
#define SPELLING_MAX 48

struct spelling_pair {
    const char *uk, *us;
};

/* Made by spellings.py: the pairs sorted by the British word, and the
 * words both sides spell alike that end as the -ise rule reads. */
extern const struct spelling_pair spelling_by_uk[];
extern const size_t spelling_pairs;
extern const char *const spelling_keep[];
extern const size_t spelling_keeps;

/* The American spelling of word (len bytes, lower-case as the stemmer
 * gets it), written to out (SPELLING_MAX bytes) with its NUL: the word
 * the table pairs it with (the first, for a word with two), or for a word
 * that neither the table nor SCOWL's common words hold, its -ise ending
 * (-ised, -ising, -isation, ...) written -ize (tokenisation:
 * tokenization).  Returns the length written, or 0 when the word is no
 * British spelling (an American or common word, one not of a-z alone, or
 * of SPELLING_MAX bytes or more). */
size_t spelling_american(const char *word, size_t len, char *out);

#ifdef __cplusplus
}
#endif

#endif
