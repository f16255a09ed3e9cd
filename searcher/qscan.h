/*
 * qscan.h -- the one scanner of query text (README, "Query syntax").
 *
 * Whatever reads a query string before Xapian's QueryParser does --
 * checking parentheses and operators so that an error can name its
 * position (search.c), lowering the case of words but not of operators or
 * filter values, finding the words to correct for "did you mean"
 * (shim_read.cc), making a name safe to put in a query (batch.c) -- reads
 * it through these functions, so they all agree on what a token is.
 *
 * Tokens, left to right, white space between them skipped:
 *   (  )                     QT_LPAREN, QT_RPAREN
 *   "a quoted phrase"        QT_PHRASE (to the closing quote, or the end)
 *   AND OR NOT XOR NEAR ADJ  QT_OP: these words exactly, in capitals,
 *   NEAR/n ADJ/n             and NEAR and ADJ with Xapian's window
 *   category:V  year:V       QT_FILTER: a filter, its value as written
 *   author:V  subject:V
 *                            (V may be "quoted"; +/- may lead)
 *   anything else            QT_TERM: a run of characters that are not
 *                            white space, parentheses or quotes
 *                            (title:x, +x, -x, optim*, PP-OCRv3, ...)
 * Positions are byte offsets; a query's "position N" in messages is the
 * offset + 1.  Plain C, no allocation: the C++ side includes it too.
 */
#ifndef PDX_QSCAN_H
#define PDX_QSCAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qtok_kind {
    QT_END = 0,
    QT_LPAREN,
    QT_RPAREN,
    QT_PHRASE,
    QT_OP,
    QT_FILTER,
    QT_TERM
} qtok_kind;

typedef struct qtok {
    qtok_kind kind;
    size_t start, len; /* the token's bytes: t[start, start + len) */
} qtok;

/* The token at or after *pos in t[0..n) (white space skipped), in *out;
 * *pos moves past it.  Returns its kind, QT_END at the end. */
qtok_kind qscan_next(const char *t, size_t n, size_t *pos, qtok *out);

/* Is t[0..n) one of the operators?  Which: "AND", "OR", "NOT", ... */
int qscan_is_op(const char *t, size_t n);

/* The next run of ASCII letters ("a word" for case and spelling) in
 * t[*pos..end), as [*ws, *we); *pos moves past it.  0 when none is left.
 * `field` is set when the run is a field name (followed by ':'). */
int qscan_word(const char *t, size_t end, size_t *pos, size_t *ws,
               size_t *we, int *field);

/* Field names as people paste them, rewritten into out[0..size) (NUL
 * ended; QSCAN_FIELDS_ROOM(n) bytes always suffice: "cat:x" becomes
 * "category:x", at most 9 bytes for 4, "allintitle: a" "+title:a", 9
 * bytes for 2):
 *   - arXiv's prefixes become paperdex's: ti: title:, abs: abstract:,
 *     au: author:, cat: category:, all: nothing (the default field);
 *   - an au: or author: name with underscores, as arXiv writes a name's
 *     words ("au:bengio_y"), is the quoted name of those words
 *     ("author:\"bengio y\"": 12 bytes for 5);
 *   - Google Scholar's intitle: is title:, and its "allintitle: a b"
 *     (every word in the title) "+title:a +title:b";
 *   - a filter or field with no value ("glacier category:", "title:" at
 *     the end, "title:\"\"") is left out;
 *   - any other name in lower case before a value ("foo:bar",
 *     "subjetc:x") is searched as words ("foo bar"), and said.
 * Only at a token's start (after white space, '(' or a leading +/-),
 * never inside quotes.  A capitalised word before ':' ("Framework:
 * Enhanced" pasted from a title) is a word, not a field, and so are id
 * schemes (arXiv:, doi:, http:, https:, pmid:, pmc:).  note[0..note_size) gets
 * what was left out or not understood, "" when nothing was.  Returns the
 * length of out. */
#define QSCAN_FIELDS_ROOM(n) (5 * (n) + 16)
size_t qscan_fields(const char *t, size_t n, char *out, size_t size,
                    char *note, size_t note_size);

/* arXiv's category codes written as words ("cs.CL", "hep-th",
 * "astro-ph.GA", "-cs.LG", "[cs.CL]" as arXiv's listings write it, its
 * brackets dropped; any case; a code arXiv has, with its dot or
 * dash: never "math" nor "physics") as category filters
 * ("category:cs.CL"); outside quotes and fields.  note[0..note_size)
 * gets "read cs.CL as category:cs.CL", "" when none was.  Into
 * out[0..size), QSCAN_CATEGORIES_ROOM(n) bytes always suffice; returns
 * the length. */
#define QSCAN_CATEGORIES_ROOM(n) (3 * (n) + 16)
size_t qscan_categories(const char *t, size_t n, char *out, size_t size,
                        char *note, size_t note_size);

/* Lucene's proximity, "w1 w2 ... wk"~n, as Xapian's: (w1 NEAR/m w2 NEAR/m
 * ... wk) with m = n + 1, the words within k + n positions: "a b"~2
 * allows two words between them, in either order (Lucene counts a swap
 * as two moves; here the order is free); "a b"~0 is the phrase.  Any other text
 * is copied.  Into out[0..size), QSCAN_SLOP_ROOM(n) bytes always
 * suffice; returns the length. */
#define QSCAN_SLOP_ROOM(n) (16 * (n) + 16)
size_t qscan_slop(const char *t, size_t n, char *out, size_t size);

/* A citation as a bibliography writes it in a text, outside quotes:
 *   - with "et al.": "Bengio et al. 2025", "(Vaswani et al., 2017)",
 *     "van der Berg et al.", the year optional;
 *   - one author, two or a list of up to six, with its year: "Smith and
 *     Jones 2020", "(Smith & Jones, 2020)", "LeCun, Bengio and Hinton
 *     2015", "(LeCun, Bengio, & Hinton, 2015)", "Hinton (2006)",
 *     "(Hinton, 2006)"; the names capitalised, not after another
 *     capitalised word (a title's, a given name), one name only with the
 *     year or the whole in parentheses.
 * The family name before "et al" or first of the list (with the
 * particles before it: van, von, de, der, del, della, den, di, da, du,
 * dos, le, la, ter, ten) is a filter on the first author (`first`) or,
 * without `first`, on any author, each other name a filter on any author
 * that must hold too (the second beside the first's with `first`, the
 * rest ANDed with the whole query, as several author: filters would OR),
 * and the year ("2019a" too) a year filter, so "Bengio et al. 2025" is
 * `firstauthor:"Bengio" year:2025`.  Read as words, "et" and "al" matched the works that cite
 * others so, not the author's.  A group of citations alone in
 * parentheses loses its parentheses, separators and leading words
 * ("see", "e.g.", "cf."), its filters then applying to the whole query.
 * A query of nothing but names as PubMed writes them ("Wu Z", "Wu Z, Li
 * Y"), or of one person's name ("Yann LeCun", "LeCun, Yann", "G. E.
 * Hinton"), is those authors, every one: `author:"Wu Z"`, whatever
 * `first`.
 * note[0..note_size) gets how each was read ("read \"Bengio et al.
 * 2025\" as firstauthor:\"Bengio\" year:2025"), "" when none was;
 * *kinds (when not NULL) the QSCAN_CITED_ bits of the forms read.  Into
 * out[0..size), QSCAN_CITATION_ROOM(n) bytes always suffice; returns the
 * length. */
#define QSCAN_CITATION_ROOM(n) (5 * (n) + 64)
/* The names of a query that qscan_citations reads as authors alone
 * (QSCAN_CITED_AUTHORS): their spans in names[0..k), k returned (0: not
 * such a query, or more than `most` names). */
size_t qscan_author_names(const char *t, size_t n, size_t (*names)[2],
                          size_t most);
#define QSCAN_CITED_ET_AL 1u /* a name and "et al." */
#define QSCAN_CITED_NAMED 2u /* names without "et al.", and a year */
#define QSCAN_CITED_AUTHORS 4u /* a query of authors' names alone */
size_t qscan_citations(const char *t, size_t n, int first, char *out,
                       size_t size, char *note, size_t note_size,
                       unsigned *kinds);

/* Text pasted from a PDF or a TeX source, as the index reads the same
 * text in a work:
 *   - a dash a PDF writes between the parts of a compound (U+2010 hyphen,
 *     U+2011 no-break hyphen, U+2012 figure dash, U+2013 en dash, U+2212
 *     minus, U+FE63, U+FF0D), standing between two word characters, is
 *     '-': "Navier–Stokes" and "GPT‐4" are Navier-Stokes and
 *     GPT-4 (Xapian's parser joins parts by ASCII's '-' alone); an em
 *     dash, a break in a sentence, stays;
 *   - a Greek letter alone in TeX math, "$\beta$", is the letter, so that
 *     "$\beta$-VAE" is the compound it writes (the letter and its name
 *     then meet as everywhere), and a formula's closing '$' before a
 *     hyphen is left out, so that "$\ell_1$-norm" is the compound that
 *     "L1-norm" is;
 *   - a Latin ligature ("ﬁ", "ﬂ", "ﬃ") or a full-width letter or digit
 *     ("ＧＰＴ４") is its letters (text_compat_letters), as the indexer
 *     reads a work's text: "Eﬃcient ﬁne-tuning" is Efficient fine-tuning;
 *   - the quotation marks of other languages (German's „…“, French's
 *     «…», Japanese 「…」 and 『…』, the full-width ＂) are '"', so that
 *     a quotation pasted in any of them is a phrase (Xapian's parser
 *     takes '"' and English's “…” alone);
 *   - a word a PDF broke at a line's end, copied with its hyphen and the
 *     break ("classi- fication", "pre- trained"), is one word again: a
 *     letter, '-', white space and a word in small letters, unless that
 *     word is one a compound's first part stands before ("pre- and
 *     post-training", "low- to high-resolution": and, or, nor, to, vs,
 *     versus, than, but, as, via, into);
 *   - an initial glued to the name after it, as a copied reference may
 *     leave it ("Y.LeCun", "J.R.R.Tolkien", "M.-H.Yang": a capital alone
 *     before the dot, a capital and a small letter after it), gets a
 *     space after its dot, so that the name is read as "Y. LeCun" is.
 * Any other text is copied.  Into out[0..size), QSCAN_PASTED_ROOM(n)
 * bytes always suffice; returns the length. */
#define QSCAN_PASTED_ROOM(n) (2 * (n) + 1)
size_t qscan_pasted(const char *t, size_t n, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
