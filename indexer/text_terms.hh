/*
 * text_terms.hh -- a work's text as the layout's terms and positions,
 * the very ones Xapian::TermGenerator would give, without a document
 * (indexer/text_terms.cc says why and how).  Write side only: queries
 * keep Xapian's QueryParser, whose words TermGenerator's rules match.
 */
#ifndef PDX_TEXT_TERMS_HH
#define PDX_TEXT_TERMS_HH

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "../common/shim_db.hh"

namespace pdxshim {

class TextTerms {
  public:
    struct Term {
        std::string name;                /* prefix + stem */
        std::vector<Xapian::termpos> at; /* ascending; wdf is at.size() */
        /* With forms set: some word of this term was written as its
         * stem (self), some in another form (other). */
        bool self = false, other = false;
        /* Set with self or other: form_hash32 of the stem (the name
         * without its prefix). */
        uint32_t hash = 0;
        /* With forms set: each word of this term written otherwise than
         * as its stem, (form_hash32, position), in the order read; and
         * whether some of its forms came without their positions, which
         * then gives every form it has all of the term's positions. */
        std::vector<std::pair<uint32_t, Xapian::termpos>> seen;
        bool unsure = false;
        /* A field TermGenerator read (index_cjk): the index in `at` of
         * this term's next occurrence there, as its words are read
         * again for their forms. */
        size_t next_at = 0;
    };

    /* stem: the layout's stemmer (its user's thread's); stopwords: the
     * list, NULL-terminated, that a TermGenerator would be given under
     * STOP_ALL, and stopper the SimpleStopper holding it (borrowed: it
     * must outlive this; Xapian's does not list its words); max_word:
     * its set_max_word_length; cjk_ngram: CJK text in n-grams, as
     * TermGenerator's FLAG_CJK_NGRAM (the index's LAYOUT_META_CJK). */
    TextTerms(const Xapian::Stem &stem, const char *const *stopwords,
              const Xapian::Stopper *stopper, size_t max_word,
              bool cjk_ngram);

    /* Forget the last work's terms; positions start again at 0. */
    void clear();

    /* Index n bytes of text (UTF-8, as the caller folded it) under
     * prefix, each word's stem at the next position, as
     * TermGenerator::index_text(text, 1, prefix) does under STEM_ALL and
     * STOP_ALL; then leave gap positions, as increase_termpos(gap). */
    void index(const char *text, size_t n, const std::string &prefix,
               Xapian::termpos gap);

    /* The terms so far, in the order of their names (a document's term
     * list order).  Valid until the next call of clear() or index(). */
    const std::vector<const Term *> &sorted();

    /* The rules formulas are read by (the index's LAYOUT_META_MATH):
     * text_join_tex_scripts with math, so that from TEXT_MATH_TEX
     * "$\ell_1$" and "L1" are one word, and from TEXT_MATH_JOINED
     * "CO₂" and "CO2"; 0, as they are. */
    int math = 0;

    /* When set (the index's LAYOUT_META_COMPOUNDS), a compound of two
     * words joined by a hyphen ('-', U+2010, U+2011) with no space
     * between, one of them letters alone and neither a number with a
     * point or comma, read under any prefix but the authors', is also a
     * word of its own: its parts joined, at the position of its last
     * part ("pre-trained" gives pre, train, and pretrain beside train;
     * "3-D" 3d, "COVID-19" covid19; none for "state-of-the-art", whose
     * closed form nobody writes, for "1.4-1.8x", nor for a compound of
     * stop words alone).  It counts in the work's length
     * as a word does; it joins neither the spelling table nor any
     * position of its own.  Unset, the terms are TermGenerator's. */
    bool compounds = false;

    /* When set (the index's LAYOUT_META_STARS), a word of one ASCII
     * letter with a star right after it, no word character nor star
     * after the star and no star before the letter (Markdown's
     * emphasis: "**R**easoning"), read under any prefix but the
     * authors', is the letter
     * and the star ("A*" is a*, "R*-tree" r* and tree, "Q*" q*), at the
     * position the letter would take: a letter that is a stop word
     * ("a") then takes one.  Unset, the star is left out, as
     * TermGenerator leaves it. */
    bool stars = false;

    /* When set with compounds (the index's LAYOUT_META_STOP_COMPOUNDS),
     * a compound of three or more parts, each letters alone, that stop
     * words leave one word of ("out-of-distribution", "up-to-date",
     * "off-the-shelf", "in-the-wild"), is also its parts joined
     * ("outofdistribution"), at that word's position, as compounds join
     * two parts: its stop words are not indexed, so without it the
     * compound is that one word in the index ("distribution"), and a
     * search for it finds every work that writes the word.  A run of
     * stop words alone ("all-to-all") is joined only with stop_runs; a
     * run keeping two words or more ("state-of-the-art", "end-to-end"),
     * whose phrase finds it, never is. */
    bool stop_compounds = false;
    /* When set with stop_compounds (the index's LAYOUT_META_STOP_RUNS), a
     * compound of stop words alone, two parts or more, each letters
     * alone ("on-off", "to-do", "all-to-all"), is its parts joined
     * ("onoff", "alltoall") at a position of its own, the next one, as
     * a word of the text: no part of it is indexed, so there is no
     * part's position for it to stand at, and without it the compound
     * leaves nothing in the index. */
    bool stop_runs = false;
    /* When set with compounds (the index's LAYOUT_META_SLASH_PAIRS), a
     * pair of words joined by one slash ("A/B", "I/O", "and/or"), each
     * part a-z alone, one of them a stop word or both, neither a slash
     * before the first nor one after the second, is also its parts
     * joined by an underscore ("a_b", "and_or"): at the position of its
     * part that is indexed, as a compound of two stands at its last
     * part's, or, both parts stop words, at a position of its own, as a
     * run of stop words does (stop_runs).  Unset, "A/B" is the letter b
     * alone in the index, and "and/or" nothing. */
    bool slash_pairs = false;

    /* When set (the index's LAYOUT_META_DOTTED), a run of three ASCII
     * letters or more, each alone and separated by single dots, with a
     * lower-case letter among them ("i.i.d.", "w.r.t.", "a.k.a.",
     * "I.i.d."), not right after a dot, with no word character after it
     * (a dot may end it), read under any prefix but the authors', is one
     * word, its letters joined ("iid"), at one position, as TermGenerator
     * reads a run of capitals ("U.S.A" is usa).  Unset, such a run is its
     * letters, a word each ("i.i.d." the stop word i twice and d). */
    bool dotted = false;

    /* When set with dotted (the index's LAYOUT_META_DOTTED_PAIRS, which
     * is stamped with LAYOUT_META_DOTTED), two ASCII letters of either
     * case, each alone, with a dot between them ("U.S.", "e.g.", "a.m.",
     * "U.S": a dot may end them), not right after a dot, with no word
     * character after them, read under any prefix but the authors', are
     * one word that keeps its dot ("u.s"), unstemmed (stem_of), where
     * they would be joined (capitals: "U.S." us, the pronoun's word) or
     * apart ("e.g." the letters e and g).  Unset, they are read so. */
    bool dotted_pairs = false;

    /* The joined words the work was given (compounds; not a run of stop
     * words, stop_runs, which is a word of its own), as the terms they
     * are (prefix and stem), in the order read; a term may repeat.
     * Cleared by clear(). */
    std::vector<std::string> joined_terms;

    /* When set, each word of four bytes or more that is all a-z (and
     * not a stop word) is appended here as it is read, as written
     * (lower-cased; the caller folded its accents): the spelling
     * table's words (LAYOUT_META_SPELLING). */
    std::vector<std::string> *spelling = nullptr;

    /* When set, the work's word forms are gathered as its text is read
     * (LAYOUT_META_FORMS, common/layout.h), for word_forms(). */
    bool forms = false;

    /* The work's words as written (common/forms.cc), as form_hash32s,
     * ascending and distinct: each word it writes (lower-cased; the
     * caller folded its accents) that is not its own stem, and each stem
     * it writes as itself and in another form too.  Valid until the
     * next clear(). */
    const std::vector<uint32_t> &word_forms();

    /* Where the work writes each form of each term written in another
     * form than its stem (common/forms.cc, "Forms at their positions"),
     * field by field.  Valid until the next clear(). */
    const std::vector<FormAt> &form_positions();

  private:
    void word(const std::string &prefix);
    void compound_word(const std::string &prefix, std::string &word,
                       Xapian::termpos at, bool run);
    void slash_word(const std::string &prefix, Xapian::termpos at);
    void read(const char *text, size_t n, const std::string &prefix);
    void form(Term &t, const std::string &s);
    void form_of(const std::string &prefix);
    Term &add(Xapian::termpos at);
    void index_cjk(const char *text, size_t n, const std::string &prefix);

    Xapian::Stem stem;
    /* word's stem; a dotted pair ("u.s", dotted_pairs) as it is, which
     * the stemmer would cut to "u." */
    std::string stem_of(const std::string &word) const
    {
        return word.size() == 3 && word[1] == '.' ? word : stem(word);
    }
    std::unordered_set<std::string> stop;
    /* The lengths (bit n: n bytes, under 64) of the stop words that begin
     * with each byte: most words are let through on this alone, without
     * hashing them (is_stop). */
    uint64_t stop_lengths[256] = {};
    bool is_stop(const std::string &word) const
    {
        if (word.empty() || word.size() >= 64 ||
            !((stop_lengths[static_cast<unsigned char>(word[0])] >>
               word.size()) & 1))
            return false;
        return stop.count(word) != 0;
    }
    const Xapian::Stopper *stopper;
    size_t max_word;
    /* CJK text in n-grams: a field with a CJK character then goes
     * through a TermGenerator itself, made at its first use. */
    bool cjk;
    bool forms_only = false; /* read() gathers forms alone (form_of) */
    std::unique_ptr<Xapian::TermGenerator> tg;
    Xapian::termpos pos = 0;
    std::string w;                 /* the word being read */
    std::string compound;          /* a compound's first part, then joined */
    std::string abbrev;            /* "Ph.D."'s parts joined (read()) */
    Xapian::termpos compound_at = 0; /* its last indexed part's position */
    /* A compound of three parts or more (stop_compounds): its parts so
     * far joined, how many of them were indexed and the last one's
     * position, and whether each was letters alone. */
    std::string chain;
    unsigned chain_kept = 0;
    Xapian::termpos chain_at = 0;
    bool chain_letters = false;
    /* A pair joined by a slash (slash_pairs): its first part and that
     * part's position (0: a stop word). */
    std::string slash_first;
    Xapian::termpos slash_at = 0;
    std::string joined;            /* a field with its TeX scripts joined */
    std::string key;               /* prefix + stem */
    std::vector<Term> terms;       /* [0, used) this work's */
    size_t used = 0;
    /* The terms by name: open addressing over key_hash (common/
     * hash_counts.hh), each slot a term's index + 1 (0: empty), at
     * most half full.  A std::unordered_map hashed every word twice and
     * chased a node. */
    std::vector<uint32_t> where;
    std::vector<uint64_t> name_hash; /* of terms[i].name */
    std::vector<uint32_t> slot;      /* terms[i]'s in where */
    Term *find(uint64_t h);
    void place(uint32_t i, uint64_t h);
    std::vector<const Term *> order;
    std::vector<std::pair<uint64_t, const Term *>> keyed; /* sorted()'s */
    std::vector<uint32_t> written; /* words not their own stems: hashes */
    std::vector<FormAt> form_at;   /* form_positions()'s */
    /* Scratch of word_forms() and form_positions(), kept for their
     * capacity: a work's fields and forms (Field covers flat[begin,
     * end)), and the work's (stem, form) pairs. */
    struct Field {
        size_t term;
        char prefix;
        size_t begin, end;
    };
    std::vector<uint32_t> self_forms, other_forms, flat;
    std::vector<Field> fields;
    std::vector<uint64_t> work; /* stem << 32 | form */
};

} // namespace pdxshim

#endif
