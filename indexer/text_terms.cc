/*
 * text_terms.cc -- a work's text as the layout's terms and positions.
 *
 * What and why.  The layout (common/layout.h) indexes each field's words
 * as Xapian::TermGenerator makes them under STEM_ALL and STOP_ALL: the
 * stem of every word that is not a stop word, at the next position.
 * TermGenerator writes them into a Xapian::Document, a std::map of terms
 * each holding a vector of positions, and the writer then walked that
 * document's term list to build the work's real document (the positions
 * go into a value, not into Xapian's table: common/positions.cc).
 * Under perf, on a --jobs 2 build, TermGenerator is about a fifth of
 * the samples: the map's string compares and node allocations, a new string
 * for each word and another for each term, and Unicode's character
 * table for every ASCII letter.  This file reads the text the way
 * TermGenerator does and gathers the terms in a hash table, sorted once
 * at the end: one work's terms, their positions and their order are
 * exactly TermGenerator's (tests/unit/test_text_terms.cc compares the
 * two on edge cases, on corpus/samples and, when ../shared is there, on
 * the arXiv records; tests/fuzz/fuzz_terms.cc on any bytes).
 *
 * The rules (Xapian 1.4's termgenerator_internal.cc, parse_terms(), for
 * text without CJK characters): a word is a run of word
 * characters (Unicode letters, marks, numbers and connector punctuation,
 * Xapian::Unicode::is_wordchar), lower-cased; a run of ASCII capitals
 * separated by dots is one word without them ("U.S.A" is "usa") unless a
 * word character follows; inside a word, an apostrophe, '&', U+00B7,
 * U+05F4 or U+2027 (and U+2019, U+201B as an apostrophe) join two word
 * characters, ',', '.' or ';' (and a few others) join two digits, and
 * zero-width characters join anything, left out; a word may end in up to
 * three '+' or '#' ("c++", "c#") when no word character follows them.
 * Non-ASCII characters, and bytes that are not UTF-8, are decoded by
 * Xapian::Utf8Iterator and classified by Xapian::Unicode, as
 * TermGenerator does; ASCII is classified here directly.
 *
 * One addition, in an index that says so (LAYOUT_META_COMPOUNDS): a
 * compound of two words joined by a hyphen is also indexed as one word,
 * its parts joined, at the position of its last part ("pre-trained" is
 * pre, train and pretrain), so that a search for the closed word finds
 * the works that write the compound (TextTerms::compounds).  Of a
 * compound of three parts or more, only a name of letters and a version
 * of digits ("Phi-3-mini", "GPT-4-turbo", "GPT-4o-mini") are joined, at the version's
 * position: such a model name is searched closed ("phi3") as often as
 * hyphenated, where "state-of-the-art" joined would be a word no one
 * types.  And in an index that says so (LAYOUT_META_STOP_COMPOUNDS), a
 * compound of three parts or more, letters alone, that stop words leave
 * one word of ("out-of-distribution", "up-to-date") is joined at that
 * word's position (TextTerms::stop_compounds): its stop words are not
 * indexed, so the one word is all that is left of it otherwise, and a
 * search for the compound would find every work that writes the word.
 * Where the index says so too (LAYOUT_META_STOP_RUNS), a compound of stop
 * words alone ("on-off", "to-do", "all-to-all") is joined as well, at a
 * position of its own, the next one, as a word of the text
 * (TextTerms::stop_runs): none of its parts is indexed, so otherwise it
 * leaves nothing, and a search for it finds nothing.  Lucene's
 * word_delimiter_graph filter does the same with catenate_words; Xapian's
 * TermGenerator does not, and the query parser reads "pre-trained" as a
 * phrase, which searcher/query_parse.cc ("Variants") ORs with the closed
 * word.
 *
 * And where the index says so (LAYOUT_META_SLASH_PAIRS), a pair of words
 * joined by a slash with a stop word in it ("A/B", "I/O", "and/or",
 * "yes/no") is also indexed as one word, its parts joined by an
 * underscore ("a_b"), at its other part's position, or of stop words
 * alone at a position of its own (TextTerms::slash_pairs): apart, "A/B"
 * is the letter b in the index and "and/or" nothing.  An underscore
 * rather than nothing between them, since "ab" and "io" are words of
 * their own ("ab initio"); Xapian's query parser reads it as a word's
 * character, so the query's pair is one word as well.  Other pairs
 * ("TCP/IP", "encoder/decoder") are their words, found as a phrase.
 *
 * Another, in an index that says so (LAYOUT_META_STARS): a letter
 * written alone with a star after it ("A*", "Q*", "C*-algebra") is the
 * word a* (TextTerms::stars), which TermGenerator reads as the letter
 * alone, a stop word for "a".
 *
 * And (LAYOUT_META_DOTTED): a run of three letters or more, each written
 * alone with dots between them and a lower-case one among them
 * ("i.i.d.", "w.r.t.", "a.k.a."), is one word, its letters joined
 * (TextTerms::dotted), as TermGenerator reads a run of capitals ("U.S.A"
 * is usa): read as its letters, "i.i.d." is the stop word i twice and
 * the letter d that thousands of formulas hold.  Lucene's
 * StandardTokenizer (UAX #29) keeps such a run as one word too ("i.i.d").
 * Two letters with a dot between them ("U.S.", "e.g."), where the index
 * says so (LAYOUT_META_DOTTED_PAIRS), are one word that keeps its dot
 * ("u.s", TextTerms::dotted_pairs), as StandardTokenizer keeps them:
 * joined, "U.S." is the word us, which thousands of works write as the
 * pronoun.
 * An abbreviation of parts of one or two letters joined by dots, one
 * part of two ("Ph.D.", "M.Sc."), is its parts as words, and with
 * compounds also its parts joined ("phd"), as a hyphenated compound is,
 * so that PhD finds the works that write Ph.D.
 *
 * CJK text is read in n-grams, as TermGenerator's FLAG_CJK_NGRAM reads
 * it (each character, and each pair of neighbours, a term), when the
 * index says so (LAYOUT_META_CJK, common/layout.h: every new index); the
 * query parser reads it alike.  Xapian's CJK tokenizer is not public, so
 * a field holding a CJK character is then handed to a TermGenerator set
 * up as the layout says, and its terms and positions join the others
 * (tests/unit/test_text_terms.cc compares both readings).
 */
#include "text_terms.hh"

#include "../common/hash_counts.hh"
#include "../common/shim_db.hh"
extern "C" {
#include "../common/text.h"
}

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <stdexcept>

namespace pdxshim {

namespace {

const unsigned IGNORED = UINT_MAX; /* check_infix's UNICODE_IGNORE */

/* The code point at p (< end) and its length in bytes. */
inline unsigned decode(const char *p, const char *end, size_t *len)
{
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    Xapian::Utf8Iterator u(p, static_cast<size_t>(end - p));
    const unsigned ch = *u;
    ++u;
    *len = static_cast<size_t>(u.raw() - p);
    return ch;
}

inline bool ascii_upper(unsigned ch) { return ch >= 'A' && ch <= 'Z'; }
inline bool ascii_lower(unsigned ch) { return ch >= 'a' && ch <= 'z'; }

inline bool is_wordchar(unsigned ch)
{
    if (ch < 0x80)
        return (ch >= 'a' && ch <= 'z') || ascii_upper(ch) ||
               (ch >= '0' && ch <= '9') || ch == '_';
    return Xapian::Unicode::is_wordchar(ch);
}

/* TermGenerator's check_wordchar: the character lower-cased, or 0. */
inline unsigned wordchar(unsigned ch)
{
    if (ch < 0x80) {
        if (ascii_upper(ch))
            return ch + ('a' - 'A');
        return is_wordchar(ch) ? ch : 0;
    }
    return Xapian::Unicode::is_wordchar(ch) ? Xapian::Unicode::tolower(ch)
                                            : 0;
}

inline bool is_digit(unsigned ch)
{
    if (ch < 0x80)
        return ch >= '0' && ch <= '9';
    return Xapian::Unicode::get_category(ch) ==
           Xapian::Unicode::DECIMAL_DIGIT_NUMBER;
}

inline bool zero_width(unsigned ch)
{
    return ch >= 0x200b && (ch <= 0x200d || ch == 0x2060 || ch == 0xfeff);
}

inline unsigned check_infix(unsigned ch)
{
    if (ch == '\'' || ch == '&' || ch == 0xb7 || ch == 0x5f4 || ch == 0x2027)
        return ch;
    if (ch == 0x2019 || ch == 0x201b)
        return '\'';
    return zero_width(ch) ? IGNORED : 0;
}

inline unsigned check_infix_digit(unsigned ch)
{
    switch (ch) {
    case ',': case '.': case ';': case 0x037e: case 0x0589: case 0x060d:
    case 0x07f8: case 0x2044: case 0xfe10: case 0xfe13: case 0xfe14:
        return ch;
    }
    return zero_width(ch) ? IGNORED : 0;
}

inline void append(std::string &s, unsigned ch)
{
    if (ch < 0x80)
        s += static_cast<char>(ch);
    else
        Xapian::Unicode::append_utf8(s, ch);
}

} // namespace

TextTerms::TextTerms(const Xapian::Stem &stem_, const char *const *stopwords,
                     const Xapian::Stopper *stopper_, size_t max_word_,
                     bool cjk_ngram)
    : stem(stem_), stopper(stopper_), max_word(max_word_), cjk(cjk_ngram)
{
    for (const char *const *s = stopwords; *s; s++) {
        stop.insert(*s);
        const size_t n = strlen(*s);
        if (n >= 64)
            throw std::logic_error("a stop word of 64 bytes or more");
        if (n)
            stop_lengths[static_cast<unsigned char>(**s)] |= uint64_t(1) << n;
    }
}

/* Might text hold a character Xapian reads as CJK?  Every Xapian 1.4
 * release's list (cjk-tokenizer.cc, codepoint_is_cjk) lies within Thai
 * (U+0E00..U+0E7F, in the latest), Hangul Jamo (U+1100..U+11FF) and
 * U+2E80 up: a field holding such a character goes to TermGenerator,
 * which decides; one whose characters from U+0800 up are all punctuation
 * and symbols below U+2E80 (dashes, quotation marks, arrows, ℓ) is read
 * here, as every other field.  Bytes are decoded as TermGenerator decodes
 * them (Xapian::Utf8Iterator, decode()). */
static bool may_hold_cjk(const char *text, size_t n)
{
    const char *const end = text + n;
    for (const char *p = text; p != end;) {
        if (static_cast<unsigned char>(*p) < 0xe0) {
            p++;
            continue;
        }
        size_t len;
        const unsigned cp = decode(p, end, &len);
        if ((cp >= 0x0e00 && cp <= 0x0e7f) || (cp >= 0x1100 && cp <= 0x11ff) ||
            cp >= 0x2e80)
            return true;
        p += len;
    }
    return false;
}

void TextTerms::clear()
{
    for (size_t i = 0; i < used; i++) /* the slots in use, alone: a
                                         * long work's table stays large */
        where[slot[i]] = 0;
    used = 0;
    pos = 0;
    written.clear();
    joined_terms.clear();
}

/* How many capitals a term's name begins with: its prefix (S, A or
 * none, for the fields of words). */
static size_t prefix_length(const std::string &name)
{
    size_t n = 0;
    while (n < name.size() && name[n] >= 'A' && name[n] <= 'Z')
        n++;
    return n;
}

/* Are the n bytes at p all a-z (a word the spelling table lists)? */
static bool all_az(const char *p, size_t n)
{
    return std::all_of(p, p + n, [](char c) { return c >= 'a' && c <= 'z'; });
}

/* A word read (w): its stem at the next position, as TermGenerator's
 * index_text action does under STEM_ALL and STOP_ALL. */
void TextTerms::word(const std::string &prefix)
{
    if (w.size() > max_word || is_stop(w))
        return;
    if (forms_only) {
        form_of(prefix);
        return;
    }
    if (spelling && w.size() >= 4 && all_az(w.data(), w.size()))
        spelling->push_back(w);
    const std::string s = stem_of(w);
    if (s.empty())
        return;
    key.assign(prefix);
    key += s;
    Term &t = add(++pos);
    if (forms)
        form(t, s);
}

/* A compound just read, joined (word: its parts as one word), beside its
 * last part: its stem at the position of its last part that was indexed
 * (at; 0 when every part was a stop word), TextTerms::compounds.  With
 * run (a compound of stop words alone, stop_runs), at the next position
 * instead, as a word of the text, and not among joined_terms.  The
 * spelling table does not list it, so its form is marked unlisted as any
 * such form is (form()).  word is lent to w meanwhile, and given back as
 * it was. */
void TextTerms::compound_word(const std::string &prefix, std::string &word,
                              Xapian::termpos at, bool run)
{
    if ((!at && !run) || word.size() > max_word)
        return; /* no part of it indexed (stop words); or too long */
    const std::string s = stem(word);
    if (s.empty())
        return;
    key.assign(prefix);
    key += s;
    if (const Term *t = find(key_hash(key)))
        if (!run && !t->at.empty() && t->at.back() == at)
            return; /* its last part's own stem: held there already */
    /* a run is a word of its own, which no part stands beside: it counts
     * in the work's length, and feedback may take it */
    if (!run)
        joined_terms.push_back(key);
    Term &t = add(run ? ++pos : at);
    if (forms) {
        std::vector<std::string> *listed = spelling;
        spelling = nullptr;
        w.swap(word);
        form(t, s);
        w.swap(word);
        spelling = listed;
    }
}

/* A pair joined by a slash ("A/B", "and/or"; slash_pairs), its second
 * part just read (w, at its position `at`, 0 when not indexed) and its
 * first kept (slash_first, slash_at): when both parts are a-z alone and
 * one of them is a stop word, the pair joined by an underscore ("a_b")
 * is indexed as a compound of two is, at its indexed part's position, or
 * of stop words alone at a position of its own (compound_word). */
void TextTerms::slash_word(const std::string &prefix, Xapian::termpos at)
{
    auto az = [](const std::string &p) {
        return !p.empty() && std::all_of(p.begin(), p.end(),
                                         [](char c) { return c >= 'a' && c <= 'z'; });
    };
    if (!az(slash_first) || !az(w) || !(is_stop(slash_first) || is_stop(w)))
        return;
    std::string pair = slash_first + "_" + w;
    const Xapian::termpos pair_at = at ? at : slash_at;
    compound_word(prefix, pair, pair_at, pair_at == 0);
}

/* Does a slash at it join the word before it to a word after it (no
 * space between)? */
static bool slash_joins(const char *it, const char *end)
{
    size_t len;
    return it != end && *it == '/' && it + 1 != end && wordchar(decode(it + 1, end, &len)) != 0;
}

/* Does a hyphen at it join the word before it to a word after it (no
 * space between: text_compound_hyphen)? */
static bool hyphen_joins(const char *it, const char *end)
{
    const size_t h = text_compound_hyphen(it, static_cast<size_t>(end - it));
    size_t len;
    return h && it + h != end && wordchar(decode(it + h, end, &len)) != 0;
}

/* Do two parts make a compound to join: one of them letters alone (a-z
 * or beyond ASCII), neither a number with a point or a comma ("1-2" and
 * "1.4-1.8x" are no word, "3-D" is), nor a starred letter ("R*-tree" is
 * r* and tree: stars)? */
static bool joinable(const std::string &a, const std::string &b)
{
    auto letters = [](const std::string &p) {
        return std::all_of(p.begin(), p.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
        });
    };
    auto pointed = [](const std::string &p) {
        return p.find_first_of(".,;") != std::string::npos;
    };
    auto starred = [](const std::string &p) { return !p.empty() && p.back() == '*'; };
    return (letters(a) || letters(b)) && !pointed(a) && !pointed(b) &&
           !starred(a) && !starred(b);
}

/* Is p a word of letters alone (a-z, or any letter beyond ASCII)? */
static bool letters_only(const std::string &p)
{
    return !p.empty() && std::all_of(p.begin(), p.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
    });
}

/* Do the first two parts of a compound of three or more make a name and
 * its version, to join as a compound of two is: letters alone and digits
 * alone, the digits perhaps with one letter after them ("Phi-3-mini",
 * "GPT-4-turbo", "Llama-3-8B", "COVID-19-related", "GPT-4o-mini":
 * phi3, gpt4, llama3, covid19, gpt4o)?  Other runs of three are left
 * apart ("state-of-the-art", "k-means-based": where a word ends is not
 * known). */
static bool version_pair(const std::string &a, const std::string &b)
{
    auto version = [](const std::string &p) {
        size_t n = p.size();
        if (n >= 2 && p[n - 1] >= 'a' && p[n - 1] <= 'z')
            n--; /* "4o" */
        return n > 0 && std::all_of(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(n),
                                    [](char c) { return c >= '0' && c <= '9'; });
    };
    return letters_only(a) && version(b);
}

/* The word w read (of stem s, term t) as written (common/forms.cc).  A
 * possessive's "'s" is not part of it: "model's" is "model", as
 * Lucene's English analyzer reads it. */
void TextTerms::form(Term &t, const std::string &s)
{
    size_t n = w.size();
    if (n > 2 && w[n - 2] == '\'' && w[n - 1] == 's')
        n -= 2;
    /* The index in t.at of this word's position: the last one added, or
     * in a field TermGenerator read, the term's next there (it gives one
     * to each occurrence of a word outside CJK text, in the order read). */
    const size_t k = forms_only ? t.next_at++ : t.at.size() - 1;
    if (!t.self && !t.other) {
        const size_t skip = prefix_length(t.name);
        t.hash = form_hash32(t.name.data() + skip, t.name.size() - skip);
    }
    if (n == s.size() && w.compare(0, n, s) == 0) {
        t.self = true;
        return;
    }
    t.other = true;
    const uint32_t h = form_hash32(w.data(), n);
    written.push_back(h);
    const bool placed =
        k < t.at.size() && !(forms_only && may_hold_cjk(w.data(), w.size()));
    t.seen.emplace_back(h, placed ? t.at[k] : 0);
    t.unsure |= !placed;
    /* A form the spelling table does not list (an author name's word,
     * one of under four letters or not a-z alone, a word TermGenerator
     * read): the stem's unlisted mark, which a search for the stem as
     * written cannot learn from the table. */
    if (forms_only || !spelling || n < 4 || !all_az(w.data(), n))
        written.push_back(form_unlisted_hash32(s));
}

/* A word of a field TermGenerator read (index_cjk): its form, on the
 * term of its stem when TermGenerator made one. */
void TextTerms::form_of(const std::string &prefix)
{
    const std::string s = stem_of(w);
    if (s.empty())
        return;
    key.assign(prefix);
    key += s;
    if (Term *t = find(key_hash(key)))
        form(*t, s);
}

/* The term named key (of hash h), or null. */
TextTerms::Term *TextTerms::find(uint64_t h)
{
    if (where.empty())
        return nullptr;
    const size_t mask = where.size() - 1;
    for (size_t i = h & mask; where[i]; i = (i + 1) & mask) {
        const uint32_t k = where[i] - 1;
        if (name_hash[k] == h && terms[k].name == key)
            return &terms[k];
    }
    return nullptr;
}

/* Term i (of name hash h) into where, doubling it when half full. */
void TextTerms::place(uint32_t i, uint64_t h)
{
    if (2 * (size_t(i) + 1) > where.size()) {
        where.assign(where.empty() ? 512 : 2 * where.size(), 0);
        for (uint32_t k = 0; k < i; k++)
            place(k, name_hash[k]);
    }
    const size_t mask = where.size() - 1;
    size_t j = h & mask;
    while (where[j])
        j = (j + 1) & mask;
    where[j] = i + 1;
    slot[i] = static_cast<uint32_t>(j);
}

/* Term key at position at, after every position it has. */
TextTerms::Term &TextTerms::add(Xapian::termpos at)
{
    const uint64_t h = key_hash(key);
    if (Term *t = find(h)) {
        t->at.push_back(at);
        return *t;
    }
    if (used == terms.size()) {
        terms.emplace_back();
        name_hash.push_back(0);
        slot.push_back(0);
    }
    name_hash[used] = h;
    Term &t = terms[used];
    t.name = key;
    t.at.clear();
    t.at.push_back(at);
    t.self = t.other = false;
    t.seen.clear();
    t.unsure = false;
    t.next_at = 0;
    place(static_cast<uint32_t>(used), h);
    used++;
    return t;
}

/* A field through TermGenerator itself, from the position reached; its
 * positions all come after the ones already held. */
void TextTerms::index_cjk(const char *text, size_t n,
                          const std::string &prefix)
{
    if (!tg) {
        tg.reset(new Xapian::TermGenerator);
        tg->set_stemmer(stem);
        tg->set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
        tg->set_stopper(stopper);
        tg->set_stopper_strategy(Xapian::TermGenerator::STOP_ALL);
        tg->set_max_word_length(static_cast<unsigned>(max_word));
        tg->set_flags(Xapian::TermGenerator::FLAG_CJK_NGRAM);
    }
    Xapian::Document scratch;
    tg->set_document(scratch);
    tg->set_termpos(pos);
    tg->index_text(Xapian::Utf8Iterator(text, n), 1, prefix);
    pos = tg->get_termpos();
    tg->set_document(Xapian::Document()); /* let go of it on this thread */
    for (Xapian::TermIterator t = scratch.termlist_begin();
         t != scratch.termlist_end(); ++t) {
        key = *t;
        for (Xapian::PositionIterator p = t.positionlist_begin();
             p != t.positionlist_end(); ++p)
            add(*p);
    }
}

void TextTerms::index(const char *text, size_t n, const std::string &prefix,
                      Xapian::termpos gap)
{
    /* A formula's scripts joined to it ("CO$_2$" is the word co2; with
     * math, "$\ell_1$" is l1) */
    if (text_may_hold_scripts(text, n, math)) {
        joined.resize(n);
        n = text_join_tex_scripts(text, n, &joined[0], math);
        text = joined.data();
    }
    if (cjk && may_hold_cjk(text, n)) {
        for (size_t i = 0; i < used; i++) /* their positions so far */
            terms[i].next_at = terms[i].at.size();
        index_cjk(text, n, prefix);
        if (forms) {
            /* The field's words again, for their forms alone: a run of
             * CJK characters is one word here, its own "stem". */
            forms_only = true;
            read(text, n, prefix);
            forms_only = false;
        }
    } else
        read(text, n, prefix);
    pos += gap;
}

/* The words of text, each handed to word(). */
void TextTerms::read(const char *text, size_t n, const std::string &prefix)
{
    const char *const end = text + n;
    const char *it = text;
    size_t len = 0; /* of the character at it */
    unsigned raw = 0, ch = 0;
    /* A compound of words joined by hyphens (compounds): whether the
     * word read continues one, and which part of it the word is; its
     * first part is kept (compound, compound_at) only when a hyphen
     * follows it. */
    const bool join = compounds && !forms_only && prefix != LAYOUT_P_AUTHOR;
    /* letters of either case with dots between them (dotted) */
    const bool dotted_field = dotted && prefix != LAYOUT_P_AUTHOR;
    bool linked = false, starred_before = false;
    size_t parts = 0;
    /* A run of words joined by slashes (slash_pairs): whether the word
     * read continues one, and how many parts it has so far. */
    bool slashed = false;
    size_t slash_parts = 0;
    /* An abbreviation of parts of one or two letters joined by dots, one
     * part of two ("Ph.D.", "M.Sc."): its parts are words as before, and
     * once its last is read the parts joined ("phd") are indexed at the
     * last indexed part's position, as a hyphenated compound's are, so
     * that the closed form a work or a query writes (PhD) finds it
     * (text_dotted_abbrev, the query parser's rule too).  abbrev_left:
     * its parts not yet read. */
    size_t abbrev_left = 0;
    Xapian::termpos abbrev_at = 0;
    const char *abbrev_end = nullptr; /* past its last part's letters */
    while (true) {
        /* To the start of the next word. */
        while (true) {
            if (it == end)
                goto done;
            raw = decode(it, end, &len);
            if ((ch = wordchar(raw)))
                break;
            it += len;
        }
        w.clear();
        if (join && abbrev_left == 0 && !(it > text && it[-1] == '.')) {
            size_t count = 0;
            const size_t span = text_dotted_abbrev(it, static_cast<size_t>(end - it), &count);
            if (span) {
                abbrev.clear();
                for (const char *c = it; c < it + span; c++)
                    if (*c != '.')
                        abbrev += static_cast<char>(*c | 0x20);
                abbrev_left = count;
                abbrev_at = 0;
                abbrev_end = it + span;
            }
        }
        /* a star right before the word: emphasis ("**R**easoning") */
        starred_before = it > text && it[-1] == '*';
        /* Capitals separated by dots: an acronym; with dotted, letters of
         * either case, three at least when one is lower-case. */
        const bool any = dotted_field && !(it > text && it[-1] == '.');
        if (ascii_upper(raw) || (any && ascii_lower(raw))) {
            bool lower = false;
            const char *p = it;
            unsigned c = raw;
            while (true) {
                lower = lower || ascii_lower(c);
                w += static_cast<char>(ascii_lower(c) ? c : c + ('a' - 'A'));
                ++p;
                if (p == end || *p != '.')
                    break;
                ++p;
                if (p == end || !(ascii_upper(static_cast<unsigned char>(*p)) ||
                                  (any && ascii_lower(static_cast<unsigned char>(*p)))))
                    break;
                c = static_cast<unsigned char>(*p);
            }
            /* two letters with a dot between: one word that keeps it */
            const bool pair = dotted_pairs && any && w.size() == 2;
            if (pair || w.size() > (lower ? 2u : 1u)) {
                size_t l;
                if (p == end || !is_wordchar(decode(p, end, &l))) {
                    if (pair)
                        w.insert(1, 1, '.');
                    it = p;
                    goto endofterm;
                }
            }
            w.clear();
        }
        while (true) {
            unsigned prevch;
            do {
                append(w, ch);
                prevch = ch;
                it += len;
                if (it == end)
                    goto endofterm;
                raw = decode(it, end, &len);
                ch = wordchar(raw);
            } while (ch);
            /* it is at a character that is not a word's: does it join
             * two parts of one? */
            const char *next = it + len;
            if (next == end)
                break;
            size_t nlen;
            const unsigned nextraw = decode(next, end, &nlen);
            const unsigned nextch = wordchar(nextraw);
            if (!nextch)
                break;
            const unsigned infix = is_digit(prevch) && is_digit(nextraw)
                                       ? check_infix_digit(raw)
                                       : check_infix(raw);
            if (!infix)
                break;
            if (infix != IGNORED)
                append(w, infix);
            ch = nextch;
            it = next;
            len = nlen;
        }
        {
            /* Up to three '+' or '#' ("c++"), unless a word goes on. */
            const size_t keep = w.size();
            unsigned count = 0;
            while (raw == '+' || raw == '#') {
                if (++count > 3) {
                    w.resize(keep);
                    break;
                }
                w += static_cast<char>(raw);
                it += len;
                if (it == end)
                    goto endofterm;
                raw = decode(it, end, &len);
            }
            if (is_wordchar(raw))
                w.resize(keep);
            /* "A*": one letter and a star, unless a word or another
             * star goes on, or a star opened it (Markdown's emphasis,
             * "**R**easoning", "*a*") */
            if (stars && raw == '*' && w.size() == 1 && w[0] >= 'a' &&
                w[0] <= 'z' && !starred_before && prefix != LAYOUT_P_AUTHOR &&
                !forms_only) {
                const char *const star = it;
                w += '*';
                it += len;
                if (it == end)
                    goto endofterm;
                raw = decode(it, end, &len);
                if (is_wordchar(raw) || raw == '*') { /* "a*b", "a**" */
                    w.resize(1);
                    it = star;
                    raw = '*';
                    len = 1;
                }
            }
        }
    endofterm:
        if (!join) {
            word(prefix);
            continue;
        }
        {
            const Xapian::termpos before = pos;
            word(prefix);
            const Xapian::termpos at = pos != before ? pos : 0; /* indexed */
            if (abbrev_left) {
                if (at)
                    abbrev_at = at;
                /* each part read as a word of its own, the last ending
                 * where the abbreviation's letters end */
                if (it > abbrev_end)
                    abbrev_left = 0;
                else if (--abbrev_left == 0 && it == abbrev_end)
                    compound_word(prefix, abbrev, abbrev_at, false);
            }
            parts = linked ? parts + 1 : 1;
            linked = hyphen_joins(it, end);
            if (parts == 1 && linked) {
                compound = w;
                compound_at = at;
            } else if (parts == 2 && (linked ? version_pair(compound, w)
                                              : joinable(compound, w))) {
                compound += w;
                if (at)
                    compound_at = at;
                /* two stop words ("on-off", "to-do"): neither part
                 * indexed, letters alone (a part too long to index
                 * makes the joined word too long too) */
                compound_word(prefix, compound, compound_at,
                              stop_runs && !linked && !compound_at &&
                                  letters_only(compound));
            }
            if (stop_compounds && (linked || parts >= 2)) {
                const bool letters = letters_only(w);
                if (parts == 1) {
                    chain = w;
                    chain_kept = 0;
                    chain_at = 0;
                    chain_letters = letters;
                } else {
                    chain += w;
                    chain_letters = chain_letters && letters;
                }
                if (at) {
                    chain_kept++;
                    chain_at = at;
                }
                /* one word kept ("out-of-distribution"), or none: all
                 * stop words ("all-to-all": stop_runs; a part of letters
                 * too long to index makes the joined word too long) */
                const bool run = stop_runs && chain_kept == 0;
                if (!linked && parts >= 3 && (chain_kept == 1 || run) && chain_letters)
                    compound_word(prefix, chain, chain_at, run);
            }
            if (slash_pairs) {
                slash_parts = slashed ? slash_parts + 1 : 1;
                slashed = slash_joins(it, end);
                if (slash_parts == 1 && slashed) {
                    slash_first = w;
                    slash_at = at;
                } else if (slash_parts == 2 && !slashed) {
                    slash_word(prefix, at);
                }
            }
        }
    }
done:
    return;
}

const std::vector<uint32_t> &TextTerms::word_forms()
{
    /* A stem written as itself in one field and otherwise in another
     * counts as both: the prefix (S, A or none) is left out. */
    self_forms.clear();
    other_forms.clear();
    for (size_t i = 0; i < used; i++) {
        const Term &t = terms[i];
        if (t.self)
            self_forms.push_back(t.hash);
        if (t.other)
            other_forms.push_back(t.hash);
    }
    std::sort(self_forms.begin(), self_forms.end());
    std::sort(other_forms.begin(), other_forms.end());
    std::set_intersection(self_forms.begin(), self_forms.end(),
                          other_forms.begin(), other_forms.end(),
                          std::back_inserter(written));
    std::sort(written.begin(), written.end());
    written.erase(std::unique(written.begin(), written.end()), written.end());
    return written;
}

const std::vector<FormAt> &TextTerms::form_positions()
{
    form_at.clear();
    bool any = false;
    for (size_t i = 0; i < used && !any; i++)
        any = terms[i].other;
    if (!any)
        return form_at; /* every stem written as itself */
    /* Each term's field's forms (the stem's own hash for itself),
     * ascending and distinct in flat, and the work's forms of each stem
     * over all its fields: (stem, form). */
    fields.clear();
    flat.clear();
    work.clear();
    for (size_t i = 0; i < used; i++) {
        const Term &t = terms[i];
        if (!t.self && !t.other)
            continue;
        const size_t skip = prefix_length(t.name);
        if (skip > 1)
            continue; /* a field of a longer prefix has no phrases */
        const size_t begin = flat.size();
        if (t.self)
            flat.push_back(t.hash);
        for (const auto &hp : t.seen)
            flat.push_back(hp.first);
        if (flat.size() - begin > 1) {
            std::sort(flat.begin() + begin, flat.end());
            flat.erase(std::unique(flat.begin() + begin, flat.end()),
                       flat.end());
        }
        for (size_t k = begin; k < flat.size(); k++)
            work.push_back(uint64_t(t.hash) << 32 | flat[k]);
        fields.push_back(Field{i, skip ? t.name[0] : '\0', begin, flat.size()});
    }
    std::sort(work.begin(), work.end());
    work.erase(std::unique(work.begin(), work.end()), work.end());
    for (const Field &f : fields) {
        Term &t = terms[f.term];
        const size_t n_forms = f.end - f.begin;
        /* A field writing its stem in the one form the work writes it
         * in needs nothing: the work's forms say it all. */
        if (n_forms < 2) {
            const auto lo = std::lower_bound(work.begin(), work.end(),
                                             uint64_t(t.hash) << 32);
            size_t in_work = 0;
            for (auto it = lo; it != work.end() && (*it >> 32) == t.hash; ++it)
                in_work++;
            if (in_work == n_forms)
                continue;
        }
        FormAt g{f.prefix, t.hash, {}};
        if (n_forms == 1 || t.unsure) {
            /* One form here, or forms without their positions: each at
             * every position of the stem in the field. */
            for (size_t k = f.begin; k < f.end; k++)
                g.forms.emplace_back(flat[k], std::vector<Xapian::termpos>());
        } else {
            std::stable_sort(t.seen.begin(), t.seen.end(),
                             [](const std::pair<uint32_t, Xapian::termpos> &a,
                                const std::pair<uint32_t, Xapian::termpos> &b) {
                                 return a.first < b.first;
                             });
            if (t.self) {
                /* The stem as itself: the positions no other form took. */
                std::vector<Xapian::termpos> other, own;
                for (const auto &hp : t.seen)
                    other.push_back(hp.second);
                std::sort(other.begin(), other.end());
                std::set_difference(t.at.begin(), t.at.end(), other.begin(),
                                    other.end(), std::back_inserter(own));
                g.forms.emplace_back(t.hash, std::move(own));
            }
            for (size_t k = 0; k < t.seen.size();) {
                std::pair<uint32_t, std::vector<Xapian::termpos>> e(
                    t.seen[k].first, {});
                for (; k < t.seen.size() && t.seen[k].first == e.first; k++)
                    e.second.push_back(t.seen[k].second);
                g.forms.push_back(std::move(e));
            }
        }
        form_at.push_back(std::move(g));
    }
    return form_at;
}

const std::vector<const TextTerms::Term *> &TextTerms::sorted()
{
    /* By the names' first eight bytes as one integer, the rest of the
     * names only to break a tie: most compares are one. */
    keyed.clear();
    for (size_t i = 0; i < used; i++) {
        const std::string &n = terms[i].name;
        uint64_t k = 0;
        for (size_t j = 0; j < 8; j++)
            k = k << 8 | (j < n.size() ? static_cast<unsigned char>(n[j]) : 0);
        keyed.emplace_back(k, &terms[i]);
    }
    std::sort(keyed.begin(), keyed.end(),
              [](const std::pair<uint64_t, const Term *> &a,
                 const std::pair<uint64_t, const Term *> &b) {
                  return a.first != b.first ? a.first < b.first
                                            : a.second->name < b.second->name;
              });
    order.clear();
    for (const auto &kt : keyed)
        order.push_back(kt.second);
    return order;
}

} // namespace pdxshim
