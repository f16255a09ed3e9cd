/*
 * terms_ref.hh -- indexer/text_terms.cc against what it stands in for:
 * Xapian::TermGenerator set up as the layout says (common/layout.h: the
 * English stemmer under STEM_ALL, paperdex's stop words under STOP_ALL,
 * words of at most LAYOUT_MAX_WORD_BYTES, CJK text in n-grams or as
 * words, as the index records), a field gap after each field.
 * Shared by tests/unit/test_text_terms.cc and tests/fuzz/fuzz_terms.cc.
 */
#ifndef PDX_TERMS_REF_HH
#define PDX_TERMS_REF_HH

#include <xapian.h>

#include <string>
#include <utility>
#include <vector>

#include "../../common/layout.h"
#include "../../common/shim_db.hh"
#include "../../common/stopwords.h"
#include "../../indexer/text_terms.hh"

struct TermsRef {
    Xapian::SimpleStopper stopper;
    Xapian::TermGenerator tg;
    pdxshim::TextTerms tt;

    /* ngram: CJK text in n-grams (every new index), else as words (an
     * older index's reading, when XAPIAN_CJK_NGRAM is not set). */
    explicit TermsRef(bool ngram = true)
        : tt(pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE), PDX_STOPWORDS,
             &stopper, LAYOUT_MAX_WORD_BYTES, ngram)
    {
        for (const char *const *w = PDX_STOPWORDS; *w; w++)
            stopper.add(*w);
        tg.set_stemmer(pdxshim::english_stem(pdxshim::STEM_CACHE_WRITE));
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
            tg.index_text(f.second, 1, f.first);
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
        return "";
    }
};

#endif
