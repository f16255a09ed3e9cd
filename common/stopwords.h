/*
 * stopwords.h -- the English stop words: function words that carry no
 * topic.  An index does not index its list's words and gives them no
 * position (common/layout.h, STOP_ALL); the query parser drops them, from
 * a phrase too; feedback (--expand) never adds them.
 *
 * Two lists.  PDX_STOPWORDS, which every new index uses (stamped
 * LAYOUT_META_STOP_WORDS), is Snowball's English list less 14 words that
 * carry meaning in titles: against, through, during, before, after,
 * above, below, over, under, few, more, most, only, same ("Less is
 * More", "Few-Shot", "Adversarial Attacks against", "under Uncertainty",
 * "Only Connect").  Left out, such a title would be searched as its
 * other words.  Pronouns, question words, auxiliaries and "all", "between"
 * stay out: indexed, they lowered the test collections' scores
 * (bench/eval.py: CACM's questions, "List all articles ...", weigh
 * them), where these 14 move no score by 0.005.  Lucene's English list is
 * 33 words and keeps all of them; Xapian's Omega indexes every word.
 * Snowball's whole list (PDX_STOPWORDS_SNOWBALL, 174 words), which older
 * indexes were built with, stays for them, and for the prose rules of the
 * query (searcher/search.c), which ask whether a word is a function word.
 *
 * A header of its own so that bench/xapian_floor.cc and the suite's
 * reference writer (tests/unit/terms_ref.hh) drop the very same words.
 * Scripts that read the list a new index leaves out read the words of
 * PDX_STOPWORDS_FUNCTION.
 */
#ifndef PDX_STOPWORDS_H
#define PDX_STOPWORDS_H

/* Snowball's English list less the 14 words below: the words both lists
 * hold, in Snowball's order. */
#define PDX_STOPWORDS_FUNCTION \
    "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", \
    "your", "yours", "yourself", "yourselves", "he", "him", "his", \
    "himself", "she", "her", "hers", "herself", "it", "its", "itself", \
    "they", "them", "their", "theirs", "themselves", "what", "which", \
    "who", "whom", "this", "that", "these", "those", "am", "is", "are", \
    "was", "were", "be", "been", "being", "have", "has", "had", "having", \
    "do", "does", "did", "doing", "would", "should", "could", "ought", \
    "i'm", "you're", "he's", "she's", "it's", "we're", "they're", "i've", \
    "you've", "we've", "they've", "i'd", "you'd", "he'd", "she'd", "we'd", \
    "they'd", "i'll", "you'll", "he'll", "she'll", "we'll", "they'll", \
    "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", \
    "doesn't", "don't", "didn't", "won't", "wouldn't", "shan't", \
    "shouldn't", "can't", "cannot", "couldn't", "mustn't", "let's", \
    "that's", "who's", "what's", "here's", "there's", "when's", "where's", \
    "why's", "how's", "a", "an", "the", "and", "but", "if", "or", \
    "because", "as", "until", "while", "of", "at", "by", "for", "with", \
    "about", "between", "into", "to", "from", "up", "down", "in", "out", \
    "on", "off", "again", "further", "then", "once", "here", "there", \
    "when", "where", "why", "how", "all", "any", "both", "each", "other", \
    "some", "such", "no", "nor", "not", "own", "so", "than", "too", \
    "very"

/* The list a new index leaves out. */
static const char *const PDX_STOPWORDS[] = {PDX_STOPWORDS_FUNCTION, 0};

/* Snowball's English list (porter2's stop.txt): the list above and 14
 * words that titles mean. */
static const char *const PDX_STOPWORDS_SNOWBALL[] = {
    PDX_STOPWORDS_FUNCTION, "against", "through", "during", "before", "after",
    "above", "below", "over", "under", "few", "more", "most", "only", "same", 0};

#endif
