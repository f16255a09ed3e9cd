/*
 * text.h -- the text rules every layer shares: UTF-8 validity, field
 * cleaning (line-wrap collapse, TeX accents), folding for matching, and the
 * keys a personal name is matched by.
 *
 * These live in one place because an author filter only works if the
 * indexer and the query side fold a name identically.
 */
#ifndef PDX_TEXT_H
#define PDX_TEXT_H

#include <stddef.h>

#include "arena.h"

/* 1 if s[0..n) is valid UTF-8 (no overlongs, no surrogates, no NUL);
 * otherwise 0 and *bad (if given) is the offset of the first bad byte. */
int text_utf8_valid(const char *s, size_t n, size_t *bad);

/* A display form of a field: TeX accent commands decoded (Bal\'azs,
 * {\"o}, \c{c}, \ss, ...), every run of white space or control characters
 * (line wraps included) collapsed to one space, a ligature or full-width
 * letter as its letters (text_compat_letters), ends trimmed, NFC.
 * Input must be valid UTF-8.  Allocated in `a`; NULL on out-of-memory.
 * The result may be "" (all blank). */
char *text_clean(arena *a, const char *s);

/* The letters a compatibility character at s[0..n) stands for, as a
 * PDF's text layer, a word processor and a CJK keyboard write them: a
 * Latin ligature (U+FB00-U+FB06: ff, fi, fl, ffi, ffl, st, st) is its
 * letters, a full-width Latin letter or digit (U+FF10-U+FF19,
 * U+FF21-U+FF3A, U+FF41-U+FF5A) the ASCII one, the micro sign (U+00B5,
 * "µm") the Greek mu, as Unicode's compatibility decomposition (NFKC)
 * and Lucene's CJKWidthFilter read them.  Returns how many bytes of s it
 * stands for (2 or 3), the letters (1 to 3 bytes, never more than that)
 * in out and their count in *out_len; 0 for anything else. */
size_t text_compat_letters(const char *s, size_t n, char out[3],
                           size_t *out_len);

/* A matching form: compatibility-decomposed, case-folded, accents and
 * every character that is not a letter or digit removed ("Balázs" ->
 * "balazs", "O'Brien" -> "obrien").  Allocated in `a`. */
char *text_fold(arena *a, const char *s, size_t n);

/* text_hash64 of text_fold(s, n), without keeping the fold (the merge
 * keys and a record's route hash the folded title and abstract of every
 * record).  1 and *h set; 0 when the fold is empty (*h untouched); -1 on
 * out-of-memory. */
int text_fold_hash64(const char *s, size_t n, unsigned long long *h);

/* The form of free text that is indexed and searched (layout 2): Latin,
 * Greek and Cyrillic diacritics removed (canonical decomposition, the
 * combining diacritical marks dropped, recomposed), and the letters that
 * carry no combining mark folded as text_fold does (ł, ø, đ, ħ, ı, ð, þ
 * and their capitals), and the invisible characters a copied word may
 * hold dropped (the soft hyphen, the zero-width space, the word joiner,
 * U+FEFF).  Case and everything else are kept, so operators
 * in a query (AND, OR) survive, and so does the byte layout of plain
 * ASCII.  Returns a malloc'd string and its length in *len, or NULL when
 * s is unchanged (no such character, or not valid UTF-8) or on
 * out-of-memory: the caller then uses s as it is. */
char *text_unaccent(const char *s, size_t n, size_t *len);

/* The keys of a personal name.  `name` is "Given Family", "Family, Given"
 * or a bare family name; family particles (van, de, ...) stay with the
 * family name and suffixes (Jr., III) are dropped.
 *   family   folded family name ("wu"); "" if none could be found
 *   given    folded first given name ("zhihua"), or "" if none
 *   initial  the first letter of the given name, folded ("z"), or ""
 *   given_is_initial  nonzero when every given-name part was one letter
 *   given_src, given_len  the given names as written (borrowed from
 *            `name`, or in `a`), for text_name_initials
 *   bare     under rules 3, the family name without the particles that
 *            open it ("berg" for van der Berg, "farsi" for Al-Farsi),
 *            or "" when none does; NULL under rules 1 and 2
 *   family2  under rules 3, for a name of three words or more written
 *            given names first, with no particle before its family name
 *            and a whole word before that, its last two words folded
 *            ("garciamarquez" for Gabriel García Márquez): the double
 *            family name Spanish and Portuguese names have, which
 *            bibliographies write "García Márquez, G."; "" else, NULL
 *            under rules 1 and 2
 * Strings allocated in `a`.  Returns 0, or -1 on out-of-memory. */
typedef struct name_keys {
    char *family;
    char *bare;
    char *family2;
    char *given;
    char *initial;
    int given_is_initial;
    const char *given_src;
    size_t given_len;
} name_keys;

/* The other family name an author is found by (rules 3): k's bare
 * family name, else its double family name; NULL when it has neither.
 * The indexer writes its keys and a work's stored names are checked
 * against it. */
const char *text_name_other_family(const name_keys *k);

/* The first letter of every part of k's given names, hyphenated parts
 * apart ("Ming-Hsuan" and "M.-H." give "mh"), at most TEXT_NAME_INITIALS
 * letters, folded, in `a`; "" if none, NULL on out-of-memory.  Made on
 * demand: only the initials check of an author filter needs them. */
#define TEXT_NAME_INITIALS 8
char *text_name_initials(arena *a, const name_keys *k);
int text_name_keys(arena *a, const char *name, name_keys *out);
/* Is the n-byte word w a name's suffix ("Jr", "Jr.", "Sr.", "III")? */
int text_name_is_suffix(const char *w, size_t n);
/* Is the n-byte word w an Irish particle that opens a family name ("Ó"
 * of Ó Conaill, "Ní", "Nic", "Mac", "Mc", "Ua", "Uí", "O"), in any case
 * of its ASCII letters? */
int text_name_irish_particle(const char *w, size_t n);

/* The name rules an index was built with (its LAYOUT_META_NAMES): 1, a
 * hyphenated given name is its first part ("Ming-Hsuan" as "ming"); 2, a
 * hyphen between letters joins one given name ("minghsuan"); 3, a
 * particle in capitals opens the family name too ("Chiara De Santis" is
 * family "desantis"), and so do the Irish ones ("Seán Ó Conaill",
 * "Máire Ní Bhriain", "Ciarán Mac Mathúna"), and the family name is
 * also known without them (name_keys.bare); 4, a y in lower case joins
 * two family names into one ("José Ortega y Gasset" is family
 * "ortegaygasset", where rules 3 read "ygasset"), also known by the
 * second ("gasset").  New indexes are built with TEXT_NAME_RULES. */
#define TEXT_NAME_RULES 4

/* text_name_keys under the given rules (text_name_keys is rules 1). */
int text_name_keys_rules(arena *a, const char *name, int rules,
                         name_keys *out);

/* The parses of a name as a user writes it in an author filter, which
 * reads more forms than a record's author line, under the index's name
 * rules (text_name_keys_rules): out[0], and out[1] (and out[2]) when the
 * name may be meant in either order.  Besides text_name_keys' forms:
 *   "Wu Zhihua"               no comma, two words or more: both "Given
 *                             Family" and "Family Given" (returns 2);
 *   "Wu Z", "Manning CD"      PubMed/MEDLINE: initials, capitals without
 *   "CD Manning"              dots, after or before the family name;
 *   "Barral Joelle K"         also family first with a middle initial;
 *   "van der Schaar"          a family name opening with particles;
 *   "Schaar, Mihaela van der" particles after the given names (arXiv's
 *                             parsed names) belong to the family name;
 *   "He et al.", "He K, et al." a citation's "et al." (or "and others")
 *                             is left out.
 * Returns how many parses (1 to 3), or -1 on out-of-memory. */
int text_name_filter_keys(arena *a, const char *name, int rules,
                          name_keys out[3]);

/* A name key of two parts, "family initial" or "family given" (the
 * author keys of layout.h), in `a`; NULL on out-of-memory. */
char *text_join2(arena *a, const char *x, const char *y);

/* The most keys text_category_keys makes of one category. */
#define TEXT_CATEGORY_KEYS 3

/* The filter keys of one category: itself folded to lower case and, for
 * an indexed category (query == 0), its archive too ("cs.cv" and "cs").
 * For a filter (query != 0) a bare cs subject code as profile pages show
 * it ("CV") means cs.CV; and a category's arXiv name ("Machine
 * Learning", common/arxiv_categories.c) adds its code, or both codes of
 * a name two categories share ("cs.lg", "stat.ml"), after the value
 * itself, which a source's own category may spell.  The same rule for
 * the indexer and for --category and `category:`, so the two sides
 * cannot disagree.
 * Writes k[0..TEXT_CATEGORY_KEYS) in `a`; returns how many, 0 for an
 * empty category, -1 on out-of-memory. */
int text_category_keys(arena *a, const char *cat, int query,
                       char *k[TEXT_CATEGORY_KEYS]);

/* Collapse white space only (no TeX), for free text that must otherwise
 * stay as it is.  Same contract as text_clean. */
char *text_collapse(arena *a, const char *s);

/* s with the inline HTML that Crossref and OpenAlex titles and abstracts
 * carry made plain text: the tags of emphasis (i, b, u, em, strong, sc,
 * scp, span, a, font, small), of sub- and superscripts and of MathML
 * (mml:...) dropped, keeping their text; where emphasis stands between
 * two word characters ("the<i>TERT</i>gene") a space instead, and for p,
 * br and div a space; the entities &amp; &lt; &gt; &quot; &apos; &nbsp;
 * and numeric ones (&#233; &#xE9;) decoded.  Anything else that is no
 * such tag ("a < b", "x<y>z") stays as it is.  In `a`; NULL on
 * out-of-memory. */
char *text_strip_markup(arena *a, const char *s);

/* What an inline element named name[0..n) stands for in a title or an
 * abstract (text_strip_markup's set, the XML readers' too): emphasis,
 * whose text is still its own words, a sub- or superscript joined to
 * the word before it, a break between words; 0 for any other name. */
enum { TEXT_MARKUP_EMPHASIS = 1, TEXT_MARKUP_JOINED, TEXT_MARKUP_BREAK };
int text_markup_kind(const char *name, size_t n);

/* A letter or digit, or a byte of a character past ASCII: where the two
 * sides of a tag are word characters, the tag stood inside a word. */
int text_word_byte(unsigned char c);

/* The small Greek letters (UTF-8) and their names as TeX and English
 * write them (\beta, beta): TEXT_GREEK_LETTERS pairs {letter, name}, final
 * sigma beside sigma. */
#define TEXT_GREEK_LETTERS 25
extern const char *const text_greek[TEXT_GREEK_LETTERS][2];

/* The n bytes at s with each TeX sub- or superscript of letters, digits,
 * + and - written right after a word joined to it, as a formula is said
 * and searched: "CO$_2$" is CO2, "H$_{2}$O" H2O, "MoS$_2$" MoS2, "T$_c$"
 * Tc, "Ca$^{2+}$" Ca2+ (up to 8 characters a script).  Anything else
 * stays as it is.  Written to out, which has room for n bytes (joining
 * only shortens) and may be s itself; returns the length written. */
size_t text_join_tex_scripts(const char *s, size_t n, char *out, int math);

/* With math set (TEXT_MATH_TEX: an index stamped LAYOUT_MATH_SCRIPTS, and
 * the searches of one), text_join_tex_scripts also reads a norm's and a
 * formula's names as they are said and searched: \ell and the script
 * small l (U+2113) are l, and a script of one to three digits right
 * after a letter or digit, in a formula or not, is joined to it: "$L_1$",
 * "$\ell_1$", "$l_{1}$", "ℓ_1" and "ℓ1" are all L1 or l1, "$R^2$"
 * R2, "$x_{10}$" x10.  A letter's script ("x_i") stays.  With
 * TEXT_MATH_JOINED (an index stamped LAYOUT_MATH_JOINED, every new
 * one), a formula is joined to the words around it in two more ways:
 *   - one to three digits written as Unicode's sub- or superscripts
 *     (U+2070-U+2079 and ¹ ² ³, U+2080-U+2089) right after a letter or
 *     digit are the digits, as a PDF or a web page writes the same
 *     formula: "CO₂" is CO2, "H₂O" H2O, "R²" R2 (a longer run stays);
 *   - a formula's closing '$' between a letter or digit and a hyphen
 *     that a word follows is left out, so that the formula's last word
 *     and the word after the hyphen are a compound, as the query's
 *     reader (qscan_pasted) takes them: "$k$-means" is k-means,
 *     "$\ell_1$-norm" l1-norm, "$n$-gram" n-gram. */
#define TEXT_MATH_TEX 1
#define TEXT_MATH_JOINED 2

/* Might text_join_tex_scripts(s, n, out, math) change s?  (A cheap
 * test: false means it would not.) */
int text_may_hold_scripts(const char *s, size_t n, int math);

/* The length in bytes of the hyphen at s[0..n) that joins a compound's
 * parts in a work ('-', U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN), or 0.
 * The indexer joins the words on either side of it (LAYOUT_META_COMPOUNDS)
 * and the snippet marks them whole. */
size_t text_compound_hyphen(const char *s, size_t n);

/* An abbreviation at s[0..n) of two parts or more of one or two ASCII
 * letters joined by dots, one part of two at least ("Ph.D.", "M.Sc."),
 * each part letters that no letter or digit follows: the length in bytes
 * of its parts and the dots between them (its last dot left out), and
 * in *parts (not null) how many parts; 0 when s does not begin with one.
 * The indexer also holds the parts joined (phd), and the query reads the
 * dotted form as that compound, so that PhD and Ph.D. meet. */
size_t text_dotted_abbrev(const char *s, size_t n, size_t *parts);

/* 64-bit FNV-1a of s[0..n): a stable fingerprint for derived ids. */
unsigned long long text_hash64(const char *s, size_t n);

/* Truncate s (valid UTF-8) to at most max bytes at a character boundary,
 * in place.  Returns the new length. */
size_t text_truncate_utf8(char *s, size_t max);

#endif
