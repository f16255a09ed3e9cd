/*
 * forms.cc -- the words a work writes, as written, and the posting
 * source that holds a query to them.  Both sides use it: the writer
 * encodes (indexer/shim_write.cc, build_doc), the searcher reads
 * (searcher/query_parse.cc, "Words as written").
 *
 * Why.  The index's text terms are stems (common/layout.h), so
 * "transformer" in quotes matched every work saying transform,
 * transformation or transformers.  A quoted word should match the word
 * as written (case and accents folded), as Omega's STEM_SOME and the web
 * engines read quotes.  Xapian's own way is an unstemmed copy of every
 * word: a second posting per word.  Writing only the forms that differ
 * from their stems as boolean terms was measured on the arXiv 101k:
 * 7.2 million postings more (45% more), the build 1.13-1.26 times as
 * long and the compacted index 1.20 times the size.  What a quoted word
 * needs is one question of the works holding its stem ("does this work
 * write `transformer`?"), so the forms are kept the way the positions
 * are (common/positions.cc): one value per work, read in docid order.
 *
 * The value (slot LAYOUT_SLOT_FORMS, every work of an index stamped
 * LAYOUT_META_FORMS):
 *
 *   value := 1 hash*
 *   1      one byte: the format
 *   hash   4 bytes each, little-endian, ascending, distinct: form_hash32
 *          of each word the work writes (any field, lower-cased and
 *          accent-folded as indexed) that is not its own stem
 *          ("transformer", "models"), and of each stem it writes as
 *          itself and in another form too ("model" beside "models")
 *
 * A work that writes a stem only as itself has nothing for it, so the
 * works writing a word w of stem s are those holding s whose value
 *   - has w, when w is not s;
 *   - has s, or has none of s's other forms, when w is s.  The other
 *     forms are the index's words of stem s, as its spelling table
 *     lists them (common/layout.h, LAYOUT_META_SPELLING: words of four
 *     letters a-z or more, of titles and abstracts); a work writing a
 *     form of s the table does not list (an author name's "Fielding",
 *     "led", a CJK field's word) also has the mark of s, the hash of
 *     byte 1 and s, that says so.
 * Every work has the value (an empty list is the one byte), so that the
 * second rule sees a work that writes no other form.
 *
 * form_hash32 is FNV-1a (64-bit) of the word's bytes folded to 32 bits:
 * part of the format.  With about 70 words a work, a word a work does
 * not write is taken for one it does once in about 60 million lookups.
 *
 * Cost on the arXiv 101k: 4 bytes a form, the compacted index 0.290 GB
 * to 0.320, the build 1.04 to 1.10 times as long (bench/RESULTS.md,
 * "Words as written").  A quoted word is checked in every work holding
 * its stem, in docid order, by FormSource; a required phrase's words by
 * the phrase decider with its positions (PhraseFilter::forms).
 *
 * Forms at their positions.  The value above says which words a work
 * writes, not where: a work writing "language model" and, elsewhere,
 * "models" holds the stems of "language models" next to each other and
 * writes "models".  A phrase needs its words as written where its stems
 * stand together.  A field that writes a stem in the one form the work
 * writes it in needs nothing more (its positions are that form's), so a
 * second value (slot LAYOUT_SLOT_FORMS_AT) keeps a group only for each
 * stem a field writes in two forms or more, or in fewer forms than the
 * work does:
 *
 *   value := 1 group*
 *   group  := prefix stem n form[n]
 *   prefix one byte: 0 for the default field's stems (the abstract's),
 *          else the one-letter prefix of the field's terms (S, A)
 *   stem   4 bytes, little-endian: form_hash32 of the stem
 *   n      varint: how many forms the field writes it in
 *   form   := hash count first delta*
 *   hash   4 bytes: form_hash32 of the word as written (the stem's own
 *          for the stem as itself; a possessive's 's left out, as above)
 *   count  varint: how many positions; 0 for every position of the stem
 *          in the field (a field of one form; or a field read by
 *          TermGenerator, whose forms could not all be placed)
 *   first, delta  varints: the first position, then each minus the one
 *          before (the positions value's, common/positions.cc)
 *
 * So a phrase word w of stem s, in a field of a work, stands
 *   - where s does, when the field has no group for s (the work's forms
 *     above say whether it writes w);
 *   - nowhere, when the group has no form w;
 *   - at the form's positions (or every position of s, count 0).
 * A work without the value (it writes every stem in one form, or an
 * older paperdex wrote it) is read the first way throughout.  On the
 * arXiv 101k the value adds 6% to the compacted index and 3% to the
 * build (bench/RESULTS.md, "Words as written").  The phrase matcher asks
 * for it only in a work where the phrase's stems stand together
 * (PhraseCheck::forms_at).
 */
#include <xapian.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "layout.h"
#include "shim_db.hh"

namespace pdxshim {

uint32_t form_hash32(const char *w, size_t n)
{
    const uint64_t h = fnv1a64(w, n);
    return static_cast<uint32_t>(h ^ (h >> 32));
}

std::string forms_at_value(const std::vector<FormAt> &groups)
{
    if (groups.empty())
        return std::string();
    std::string v(1, '\1');
    auto put32 = [&](uint32_t x) {
        for (int i = 0; i < 4; i++)
            v += static_cast<char>((x >> (8 * i)) & 0xff);
    };
    for (const FormAt &g : groups) {
        v += g.prefix;
        put32(g.stem);
        put_varint(v, static_cast<uint32_t>(g.forms.size()));
        for (const auto &f : g.forms) {
            put32(f.first);
            put_varint(v, static_cast<uint32_t>(f.second.size()));
            Xapian::termpos last = 0;
            for (Xapian::termpos p : f.second) {
                put_varint(v, p - last);
                last = p;
            }
        }
    }
    return v;
}

FormWhere forms_at_find(const std::string &value, char prefix, uint32_t stem,
                        uint32_t form, std::vector<Xapian::termpos> &out)
{
    out.clear();
    if (value.empty() || value[0] != '\1')
        return FormWhere::ANYWHERE;
    const unsigned char *p =
        reinterpret_cast<const unsigned char *>(value.data()) + 1;
    const unsigned char *const end = p + value.size() - 1;
    auto get32 = [&](uint32_t &x) {
        if (end - p < 4)
            return false;
        x = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
            uint32_t(p[3]) << 24;
        p += 4;
        return true;
    };
    while (p < end) {
        const char pf = static_cast<char>(*p++);
        uint32_t st;
        uint32_t nforms;
        if (!get32(st) || !get_varint(p, end, nforms))
            return FormWhere::ANYWHERE; /* damaged: as without it */
        const bool group = pf == prefix && st == stem;
        for (uint32_t k = 0; k < nforms; k++) {
            uint32_t h, count;
            if (!get32(h) || !get_varint(p, end, count))
                return FormWhere::ANYWHERE;
            const bool mine = group && h == form;
            Xapian::termpos at = 0;
            for (uint32_t c = 0; c < count; c++) {
                uint32_t d;
                if (!get_varint(p, end, d))
                    return FormWhere::ANYWHERE;
                at += static_cast<Xapian::termpos>(d);
                if (mine)
                    out.push_back(at);
            }
            if (mine)
                return count ? FormWhere::AT : FormWhere::EVERYWHERE;
        }
        if (group)
            return FormWhere::NOWHERE;
    }
    return FormWhere::ANYWHERE;
}

std::string forms_value(const std::vector<uint32_t> &hashes)
{
    std::string v(1, '\1');
    v.reserve(1 + 4 * hashes.size());
    for (uint32_t x : hashes)
        for (int i = 0; i < 4; i++)
            v += static_cast<char>((x >> (8 * i)) & 0xff);
    return v;
}

/* Does a forms value hold hash x?  A value of another format holds
 * nothing. */
static bool value_holds(const std::string &v, uint32_t x)
{
    if (v.empty() || v[0] != '\1')
        return false;
    size_t lo = 0, hi = (v.size() - 1) / 4;
    const unsigned char *p = reinterpret_cast<const unsigned char *>(v.data()) + 1;
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        const unsigned char *q = p + 4 * mid;
        const uint32_t y = uint32_t(q[0]) | uint32_t(q[1]) << 8 |
                           uint32_t(q[2]) << 16 | uint32_t(q[3]) << 24;
        if (y == x)
            return true;
        if (y < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

bool FormRule::holds(const std::string &v) const
{
    for (uint32_t x : any)
        if (value_holds(v, x))
            return true;
    if (!self)
        return false;
    if (value_holds(v, self_hash))
        return true;
    if (value_holds(v, unlisted_hash))
        return false;
    for (uint32_t x : others)
        if (value_holds(v, x))
            return false;
    return true;
}

FormRule FormRule::written(const std::string &form, const std::string &stem,
                           const std::vector<std::string> &others)
{
    FormRule r;
    r.stems.push_back(stem);
    if (form != stem) {
        r.any.push_back(form_hash32(form));
        return r;
    }
    r.self = true;
    r.self_hash = form_hash32(stem);
    r.unlisted_hash = form_unlisted_hash32(stem);
    for (const std::string &o : others)
        r.others.push_back(form_hash32(o));
    return r;
}

FormSource::FormSource(std::vector<FormRule> rules_)
    : Xapian::ValuePostingSource(LAYOUT_SLOT_FORMS), rules(std::move(rules_))
{
}

bool FormSource::fits() const
{
    const std::string v = get_value();
    for (const FormRule &r : rules)
        if (!r.holds(v))
            return false;
    return true;
}

void FormSource::init(const Xapian::Database &sub)
{
    Xapian::ValuePostingSource::init(sub);
    /* Few works write a given form: let the other side lead. */
    set_termfreq_min(0);
    set_termfreq_est(get_termfreq_max() / 2);
}

void FormSource::next(double min_wt)
{
    do
        Xapian::ValuePostingSource::next(min_wt);
    while (!at_end() && !fits());
}

void FormSource::skip_to(Xapian::docid did, double min_wt)
{
    Xapian::ValuePostingSource::skip_to(did, min_wt);
    while (!at_end() && !fits())
        Xapian::ValuePostingSource::next(min_wt);
}

bool FormSource::check(Xapian::docid did, double min_wt)
{
    if (!Xapian::ValuePostingSource::check(did, min_wt))
        return false; /* did has no value: somewhere after it */
    if (at_end())
        return true;
    if (get_docid() == did)
        return fits() ? true : false; /* false: next() moves past did */
    while (!at_end() && !fits())
        Xapian::ValuePostingSource::next(min_wt);
    return true;
}

Xapian::PostingSource *FormSource::clone() const
{
    return new FormSource(rules);
}

std::string FormSource::get_description() const
{
    return "FormSource(" + std::to_string(rules.size()) + " words)";
}

} // namespace pdxshim
