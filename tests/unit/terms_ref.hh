/*
 * terms_ref.hh -- indexer/text_terms.cc against what it stands in for:
 * Xapian::TermGenerator set up as the layout says (common/layout.h: the
 * English stemmer under STEM_ALL, paperdex's stop words under STOP_ALL,
 * words of at most LAYOUT_MAX_WORD_BYTES, CJK text in n-grams or as
 * words, as the index records), a field gap after each field, on the
 * text with its TeX scripts joined (text_join_tex_scripts).
 * Shared by tests/unit/test_text_terms.cc and tests/fuzz/fuzz_terms.cc.
 */
#ifndef PDX_TERMS_REF_HH
#define PDX_TERMS_REF_HH

#include <xapian.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../../common/layout.h"
#include "../../common/shim_db.hh"
#include "../../common/stopwords.h"
#include "../../indexer/text_terms.hh"
extern "C" {
#include "../../common/text.h"
}

/* s with its TeX scripts joined, as the indexer of a new index reads a
 * field (its formulas by today's rules, LAYOUT_META_MATH). */
inline std::string tex_joined(const std::string &s)
{
    std::string out(s.size(), '\0');
    out.resize(text_join_tex_scripts(s.data(), s.size(), &out[0],
                                     TEXT_MATH_JOINED));
    return out;
}

struct TermsRef {
    Xapian::SimpleStopper stopper;
    /* The reference's stemmer (tg's and forms_diff's), made once: it
     * holds a table of 32,768 answers, whose making would otherwise be
     * most of a comparison.  tt, the code under test, has its own. */
    const Xapian::Stem stem = pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE);
    Xapian::TermGenerator tg;
    Xapian::TermGenerator words; /* no stemmer: the words as written */
    pdxshim::TextTerms tt;
    /* the same reading with hyphenated compounds joined, those of stop
     * words too (joins_diff) */
    pdxshim::TextTerms joins;
    /* and with a letter's star kept too (stars_diff) */
    pdxshim::TextTerms stars;
    /* and with letters written with dots between them joined, as a new
     * index reads them (dotted_diff) */
    pdxshim::TextTerms dotted;

    /* ngram: CJK text in n-grams (every new index), else as words (an
     * older index's reading, when XAPIAN_CJK_NGRAM is not set). */
    explicit TermsRef(bool ngram = true)
        : tt(pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE), PDX_STOPWORDS,
             &stopper, LAYOUT_MAX_WORD_BYTES, ngram),
          joins(pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE), PDX_STOPWORDS,
                &stopper, LAYOUT_MAX_WORD_BYTES, ngram),
          stars(pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE), PDX_STOPWORDS,
                &stopper, LAYOUT_MAX_WORD_BYTES, ngram),
          dotted(pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE), PDX_STOPWORDS,
                 &stopper, LAYOUT_MAX_WORD_BYTES, ngram)
    {
        joins.forms = joins.compounds = joins.stop_compounds = true;
        joins.math = TEXT_MATH_JOINED;
        stars.forms = stars.compounds = stars.stop_compounds = stars.stars = true;
        stars.math = TEXT_MATH_JOINED;
        dotted.forms = dotted.compounds = dotted.stop_compounds = dotted.stars = true;
        dotted.dotted = dotted.dotted_pairs = true;
        dotted.math = TEXT_MATH_JOINED;
        for (const char *const *w = PDX_STOPWORDS; *w; w++)
            stopper.add(*w);
        tt.forms = true; /* and they must change nothing above */
        tt.math = TEXT_MATH_JOINED;
        words.set_stopper(&stopper);
        words.set_stopper_strategy(Xapian::TermGenerator::STOP_ALL);
        words.set_max_word_length(LAYOUT_MAX_WORD_BYTES);
        tg.set_stemmer(stem);
        tg.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
        tg.set_stopper(&stopper);
        tg.set_stopper_strategy(Xapian::TermGenerator::STOP_ALL);
        tg.set_max_word_length(LAYOUT_MAX_WORD_BYTES);
        tg.set_flags(ngram ? Xapian::TermGenerator::FLAG_CJK_NGRAM : 0);
    }

    /* Fields (prefix, text) through both: "" when they give the same
     * terms, positions and order, else the first difference. */
    std::string diff(const std::vector<std::pair<std::string, std::string>> &fields)
    {
        Xapian::Document doc;
        tg.set_document(doc);
        tt.clear();
        for (const auto &f : fields) {
            tg.index_text(tex_joined(f.second), 1, f.first);
            tg.increase_termpos(LAYOUT_FIELD_GAP);
            tt.index(f.second.data(), f.second.size(), f.first,
                     LAYOUT_FIELD_GAP);
        }
        tg.set_document(Xapian::Document());
        const std::vector<const pdxshim::TextTerms::Term *> &got = tt.sorted();
        size_t i = 0;
        for (Xapian::TermIterator t = doc.termlist_begin();
             t != doc.termlist_end(); ++t, ++i) {
            if (i == got.size())
                return "missing term " + *t;
            if (got[i]->name != *t)
                return "term " + got[i]->name + " where TermGenerator has " + *t;
            std::vector<Xapian::termpos> want(t.positionlist_begin(),
                                              t.positionlist_end());
            if (got[i]->at != want || t.get_wdf() != want.size())
                return "positions of " + *t;
        }
        if (i != got.size())
            return "extra term " + got[i]->name;
        return forms_diff(fields);
    }

    /* Fields (prefix, text) read with hyphenated compounds joined
     * (TextTerms::compounds), against tt's reading of them (diff(), called
     * first): "" when every term and position of tt's is there, each
     * term's positions ascend, each position added is one tt holds (the
     * last part's of the compound), and nothing is added to the authors'
     * terms; else the first difference. */
    std::string joins_diff(const std::vector<std::pair<std::string, std::string>> &fields)
    {
        std::vector<std::pair<std::string, std::vector<Xapian::termpos>>> base;
        std::vector<Xapian::termpos> held;
        for (const pdxshim::TextTerms::Term *t : tt.sorted()) {
            base.emplace_back(t->name, t->at);
            held.insert(held.end(), t->at.begin(), t->at.end());
        }
        std::sort(held.begin(), held.end());
        joins.clear();
        for (const auto &f : fields)
            joins.index(f.second.data(), f.second.size(), f.first, LAYOUT_FIELD_GAP);
        size_t i = 0;
        for (const pdxshim::TextTerms::Term *t : joins.sorted()) {
            for (size_t k = 1; k < t->at.size(); k++)
                if (t->at[k] <= t->at[k - 1])
                    return "joined: positions of " + t->name + " do not ascend";
            const bool known = i < base.size() && base[i].first == t->name;
            const std::vector<Xapian::termpos> none, &was = known ? base[i].second : none;
            if (known)
                i++;
            else if (i < base.size() && base[i].first < t->name)
                return "joined: missing term " + base[i].first;
            if (!std::includes(t->at.begin(), t->at.end(), was.begin(), was.end()))
                return "joined: positions of " + t->name + " lost";
            if (t->at.size() == was.size())
                continue;
            if (t->name.compare(0, 1, LAYOUT_P_AUTHOR) == 0)
                return "joined: an author's term added: " + t->name;
            for (Xapian::termpos p : t->at)
                if (!std::binary_search(was.begin(), was.end(), p) &&
                    !std::binary_search(held.begin(), held.end(), p))
                    return "joined: " + t->name + " at a position no word holds";
        }
        if (i != base.size())
            return "joined: missing term " + base[i].first;
        return "";
    }

    /* Fields (prefix, text) read with a letter's star kept as well
     * (TextTerms::stars), against joins' reading of them (joins_diff(),
     * called first): "" when every term with a star is one ASCII letter
     * and the star, under a prefix other than the authors', each term's
     * positions ascend, and text with no star reads exactly as joins
     * read it; else the first difference. */
    std::string stars_diff(const std::vector<std::pair<std::string, std::string>> &fields)
    {
        stars.clear();
        bool any = false;
        for (const auto &f : fields) {
            stars.index(f.second.data(), f.second.size(), f.first, LAYOUT_FIELD_GAP);
            any = any || f.second.find('*') != std::string::npos;
        }
        std::vector<std::pair<std::string, std::vector<Xapian::termpos>>> got;
        for (const pdxshim::TextTerms::Term *t : stars.sorted()) {
            got.emplace_back(t->name, t->at);
            for (size_t k = 1; k < t->at.size(); k++)
                if (t->at[k] <= t->at[k - 1])
                    return "stars: positions of " + t->name + " do not ascend";
            const size_t star = t->name.find('*');
            if (star == std::string::npos)
                continue;
            std::string word;
            const char *field = pdxshim::term_field(t->name, word);
            if (!strcmp(field, "author") || word.size() != 2 || word[1] != '*' ||
                word[0] < 'a' || word[0] > 'z')
                return "stars: a term with a star: " + t->name;
        }
        if (any)
            return "";
        size_t i = 0;
        for (const pdxshim::TextTerms::Term *t : joins.sorted()) {
            if (i == got.size() || got[i].first != t->name || got[i].second != t->at)
                return "stars: text without a star read otherwise: " + t->name;
            i++;
        }
        return i == got.size() ? "" : "stars: text without a star gives " + got[i].first;
    }

    /* Fields (prefix, text) read with letters written with dots between
     * them joined too, two of them kept with their dot (TextTerms::dotted,
     * TextTerms::dotted_pairs), against stars' reading of them
     * (stars_diff(), called first): "" when each term's positions
     * ascend, the authors' terms are stars' own, as many times (no run is
     * joined there; a joined run before them moves their positions),
     * and text with no dot reads exactly as stars read it; else
     * the first difference.  Where a run is joined its letters give way
     * to it, and what follows it may be read apart ("U.S.a'Q": usa and
     * q, where stars read u, s and a'q, as TermGenerator reads "U.S.A'Q"). */
    std::string dotted_diff(const std::vector<std::pair<std::string, std::string>> &fields)
    {
        dotted.clear();
        bool any = false;
        for (const auto &f : fields) {
            dotted.index(f.second.data(), f.second.size(), f.first, LAYOUT_FIELD_GAP);
            any = any || f.second.find('.') != std::string::npos;
        }
        auto kept = [&](const pdxshim::TextTerms::Term *t) {
            return !any || t->name.compare(0, strlen(LAYOUT_P_AUTHOR), LAYOUT_P_AUTHOR) == 0;
        };
        std::vector<const pdxshim::TextTerms::Term *> want, got;
        for (const pdxshim::TextTerms::Term *t : stars.sorted())
            if (kept(t))
                want.push_back(t);
        for (const pdxshim::TextTerms::Term *t : dotted.sorted()) {
            for (size_t k = 1; k < t->at.size(); k++)
                if (t->at[k] <= t->at[k - 1])
                    return "dotted: positions of " + t->name + " do not ascend";
            if (kept(t))
                got.push_back(t);
        }
        for (size_t i = 0; i < want.size() || i < got.size(); i++)
            if (i == want.size() || i == got.size() || want[i]->name != got[i]->name ||
                (any ? want[i]->at.size() != got[i]->at.size() : want[i]->at != got[i]->at))
                return std::string(any ? "dotted: an author's term read otherwise: "
                                       : "dotted: text without a dot read otherwise: ") +
                       (i < got.size() ? got[i]->name : want[i]->name);
        return "";
    }

    /* The work's forms (common/forms.cc) from TermGenerator's words as
     * written, unstemmed: each word not its own stem (its possessive's
     * 's left out) with its stem's unlisted mark (no spelling table is
     * given here), and each stem written both as itself and otherwise.
     * Text without CJK (a CJK field's words are TermGenerator's n-grams
     * there, whole runs here). */
    std::string forms_diff(const std::vector<std::pair<std::string, std::string>> &fields)
    {
        for (const auto &f : fields)
            for (unsigned char c : f.second)
                if (c >= 0xe0)
                    return "";
        Xapian::Document doc;
        words.set_document(doc);
        for (const auto &f : fields)
            words.index_text(tex_joined(f.second), 1, "");
        words.set_document(Xapian::Document());
        std::vector<uint32_t> want, self, other;
        for (Xapian::TermIterator t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
            const std::string s = stem(*t);
            if (s.empty())
                continue;
            std::string f = *t;
            if (f.size() > 2 && f.compare(f.size() - 2, 2, "'s") == 0)
                f.resize(f.size() - 2);
            if (f == s) {
                self.push_back(pdxshim::form_hash32(s));
                continue;
            }
            other.push_back(pdxshim::form_hash32(s));
            want.push_back(pdxshim::form_hash32(f));
            want.push_back(pdxshim::form_unlisted_hash32(s));
        }
        for (uint32_t h : self)
            if (std::find(other.begin(), other.end(), h) != other.end())
                want.push_back(h);
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        if (tt.word_forms() != want)
            return "forms: " + std::to_string(tt.word_forms().size()) +
                   " hashes where TermGenerator's words give " +
                   std::to_string(want.size());
        return "";
    }
};

#endif
