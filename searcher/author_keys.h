/*
 * author_keys.h -- an author name as a user writes it, turned into the
 * keys the index's author terms answer (searcher/author_keys.c), and the
 * check of a work's stored author names against those keys.  One place,
 * so that --author, HTTP author= and the query's author: read a name by
 * the same rules (common/names.c), and the hits' matched authors are the
 * ones the terms matched.
 */
#ifndef PDX_AUTHOR_KEYS_H
#define PDX_AUTHOR_KEYS_H

#include "../common/arena.h"
#include "shim_read.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most keys one name gives: 3 parses, each with 5 spellings of the
 * family name, each with 5 of the given name, the initial and the given
 * names joined. */
#define AUTHOR_KEYS_MAX 105

/* Append to out[*n..] the keys of the author filter `name` (as a user
 * wrote it; cleaned of TeX here) under the index's name rules `rules`:
 * every parse text_name_filter_keys finds, each with the German
 * transliterations of its names ("muller", "mueller").  A key of
 * initials carries them all when there are two or more ("M.-H. Yang":
 * "mh"), for authors_answer to check.  Strings in `a`.  Returns 0; -1 out
 * of memory; -2 when the name has no family name.  out must have room
 * for AUTHOR_KEYS_MAX more. */
int author_filter_keys(arena *a, const char *name, int rules,
                       shim_author_key *out, size_t *n);

/* Does the author `name` (as a record writes it) answer one of keys[0..n)
 * as the index's XAL and XAF terms do (indexer/write.c writes them from
 * the same text_name_keys_rules), with the initials check on top? */
int author_answers(arena *a, const char *name, int rules,
                   const shim_author_key *keys, size_t n);

/* Does any of the names in `joined` (a work's SLOT_AUTHORS value, names
 * separated by 0x1f) answer one of keys[0..n)?  For the posting source
 * of a filter of several initials (searcher/query_parse.cc).  -1 out of
 * memory. */
int authors_answer(const char *joined, size_t len, int rules,
                   const shim_author_key *keys, size_t n);

#ifdef __cplusplus
}
#endif

#endif
