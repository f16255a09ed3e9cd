/*
 * arxiv_categories.h -- arXiv's categories by their names
 * (common/arxiv_categories.c): the filters' reading of "Machine Learning"
 * as cs.LG and stat.ML.
 */
#ifndef PDX_ARXIV_CATEGORIES_H
#define PDX_ARXIV_CATEGORIES_H

#include <stddef.h>

/* The codes of the categories arXiv names `value` (compared by words:
 * case, punctuation and "&" for "and" aside), into codes[0..2): two for
 * a name two categories share ("Machine Learning": cs.LG, stat.ML).  Returns how many,
 * 0 when no category has that name.  The strings are static. */
size_t arxiv_categories_named(const char *value, const char *codes[2]);

/* The codes of the categories whose names hold every word of `value`,
 * each as a word or the start of one ("vision": cs.CV; "quantum gas":
 * cond-mat.quant-gas), in the taxonomy's order, at most max of them.
 * Returns how many.  The strings are static. */
size_t arxiv_categories_like(const char *value, const char **codes,
                             size_t max);

/* arXiv's name for category `code` (any case), or NULL.  Static. */
const char *arxiv_category_name(const char *code);

#endif
