/*
 * common_grams.cc -- two common words next to each other kept as one
 * word of the chunks: what makes a quoted phrase of common words as
 * quick to find as a rare word.  Both sides use it: the writer adds the
 * grams (indexer/shim_write.cc, build_doc), the query reads them in
 * place of the phrase's positions (searcher/query_parse.cc,
 * positional(): GramSource below).
 *
 * Why.  A phrase is found by walking its words' positions side by side
 * (common/chunks.cc): "multi model" on a million works walks the
 * positions of every work holding both words, 278,190 of them, to find
 * the 2,576 that hold the phrase, and counting its matches (exactly, to
 * 10,000) has to walk them all.  Lucene's and Elasticsearch's answer is
 * CommonGramsFilter (the common_grams token filter): a list of common
 * words, and a term for each pair of neighbours of the list, so that the
 * phrase of two of them is one posting list of its own.
 *
 * The grams.  For each two positions p and p + 1 of one field (the
 * title's S terms, the abstract's plain stems or the authors' A terms:
 * a phrase never spans two fields) holding stems a and b that are both
 * in the index's list, the work gets the gram
 *
 *   XG<a> <b> <ta><tb>
 *
 * ta and tb the form each word is written in there: "-" for the stem
 * itself, the form's form_hash32 in eight hex digits, or "?" where the
 * field's forms are not known (CJK text read by TermGenerator, whose
 * positions take any form).  A quoted phrase holds each word to the
 * form it writes (common/forms.cc), which the tags carry exactly: it
 * reads its own gram and the three with a "?"; an unquoted one (a
 * hyphenated word, ADJ) takes any form, every gram of its two stems.
 * The grams come from the positions the chunks keep (gather_chunk_terms),
 * joined compounds sharing a position with a part included, so that a
 * phrase of two listed words finds through its grams exactly the works
 * its positions hold it in: tests/unit/test_common_grams.cc checks both
 * ways on invented works, and bench/common_grams.py on the arXiv 101k
 * (PDX_NO_COMMON_GRAMS in a search's environment reads the positions
 * instead, for such comparisons).
 *
 * Where.  A gram is a word of the chunks, not a Xapian term: an entry of
 * one position (0) in its own chunks, beside the words' positions, read
 * by GramSource's cursors in docid order.  As boolean Xapian terms, the
 * 2.9 million grams of the arXiv 101k made its compacted index 1.18
 * times the size (331.6 MB to 392.5), most of it in the termlist, where
 * each work lists each of its terms spelled out; as chunk entries, 1.065
 * times (353.0 MB).  A deleted work's entries stay in the chunks until
 * the index is compacted, as its positions do: a gram is searched only
 * beside its stems (OP_FILTER), which a deleted work no longer holds.
 *
 * The list.  The stems in at least 10% of the works of the arXiv 101k,
 * 225 of them (the stop words are not indexed and are not among them):
 * of the quoted phrases of the 101k's query mix (bench/compare.py) that
 * took over 3 ms through their positions, 12 of 13 are of two such
 * words.  The 1,043 in 2% would give 8.5 million grams and an index
 * 1.32 times the size, the 478 in 5% 1.155 times (bench/RESULTS.md,
 * "Common grams").  A
 * new index keeps its list in its metadata (LAYOUT_META_COMMON_GRAMS),
 * so that a later paperdex with another list goes on reading and writing
 * it by its own; an index without it (built before, or for
 * xapian-tcpsrv, whose positions are Xapian's) has no grams, and its
 * phrases read positions as before.
 */
#include <xapian.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <string>

#include "layout.h"
#include "shim_db.hh"

namespace pdxshim {

static const char *const BUILTIN[] = {
#include "common_grams_list.inc"
};

const std::string &common_grams_builtin()
{
    /* joined once: every handle's open asks for it */
    static const std::string list = [] {
        std::string out;
        for (const char *w : BUILTIN) {
            if (!out.empty())
                out += ' ';
            out += w;
        }
        return out;
    }();
    return list;
}

std::shared_ptr<const std::unordered_set<std::string>>
common_grams_parse(const std::string &stamp)
{
    if (stamp.empty())
        return nullptr;
    auto set = std::make_shared<std::unordered_set<std::string>>();
    std::istringstream in(stamp);
    std::string w;
    while (in >> w)
        set->insert(w);
    return set;
}

std::string common_gram_tag(uint32_t form, bool unsure)
{
    if (unsure)
        return "?";
    if (!form)
        return "-";
    char hex[9];
    snprintf(hex, sizeof hex, "%08x", form);
    return hex;
}

std::string common_gram_stems(const std::string &a, const std::string &b)
{
    return LAYOUT_P_COMMON_GRAM + a + ' ' + b + ' ';
}

void add_common_grams(ChunkTerms &ct, const std::unordered_set<std::string> &words)
{
    /* each field's positions of listed stems: (position, stem, tag) */
    struct At {
        Xapian::termpos p;
        size_t stem;
        std::string tag;
        bool operator<(const At &o) const { return p < o.p; }
    };
    std::vector<At> field[3];
    std::vector<std::string> stems(ct.n);
    for (size_t i = 0; i < ct.n; i++) {
        const ChunkTerm &c = ct.v[i];
        const char *f = term_field(c.term, stems[i]);
        if (!words.count(stems[i]))
            continue;
        const int k = !strcmp(f, "text") ? 0 : !strcmp(f, "title") ? 1 : 2;
        for (size_t j = 0; j < c.at.size(); j++)
            field[k].push_back(At{c.at[j], i,
                                  common_gram_tag(c.form.empty() ? 0 : c.form[j],
                                                  c.unsure)});
    }
    std::set<std::string> grams;
    for (std::vector<At> &v : field) {
        std::sort(v.begin(), v.end());
        /* every stem at p with every stem at p + 1 (a joined compound
         * shares a position with one of its parts) */
        for (size_t i = 0; i < v.size(); i++)
            for (size_t j = i + 1; j < v.size() && v[j].p <= v[i].p + 1; j++)
                if (v[j].p == v[i].p + 1)
                    grams.insert(common_gram_stems(stems[v[i].stem], stems[v[j].stem]) +
                                 v[i].tag + v[j].tag);
    }
    /* each one a chunk entry of one position (0), which says nothing */
    if (ct.v.size() < ct.n + grams.size())
        ct.v.resize(ct.n + grams.size());
    for (const std::string &g : grams) {
        ChunkTerm &c = ct.v[ct.n++];
        c.term = g;
        c.at.assign(1, 0);
        c.form.clear();
        c.unsure = false;
    }
}

/* ---- GramSource --------------------------------------------------------- */

GramSource::GramSource(std::vector<std::string> terms_, std::string prefix_)
    : terms(std::move(terms_)), prefix(std::move(prefix_))
{
}

Xapian::PostingSource *GramSource::clone() const
{
    return new GramSource(terms, prefix);
}

void GramSource::init(const Xapian::Database &db_)
{
    db = db_;
    space = std::make_shared<const ChunkSpace>(db);
    std::vector<std::string> here = terms;
    /* with a prefix, every term of the chunks' keys that begins so */
    if (!prefix.empty()) {
        const std::string k = chunk_prefix(prefix);
        const std::string from = k.substr(0, k.size() - 1); /* no 0 byte */
        for (Xapian::TermIterator t = db.metadata_keys_begin(from);
             t != db.metadata_keys_end(from);) {
            const std::string key = *t;
            const size_t z = key.find('\0', 1);
            if (z == std::string::npos)
                break;
            here.push_back(key.substr(1, z - 1));
            /* past this term's keys */
            t.skip_to(key.substr(0, z) + '\1');
        }
    }
    cursors.clear();
    keys = 0;
    for (const std::string &t : here) {
        const std::string k = chunk_prefix(t);
        for (Xapian::TermIterator m = db.metadata_keys_begin(k);
             m != db.metadata_keys_end(k); ++m)
            keys++;
        cursors.emplace_back(new ChunkCursor(db, t, space));
    }
    /* before the first work: Xapian's next() or skip_to() moves on */
    did = 0;
    ended = cursors.empty();
}

/* Every cursor to its first work from d on; did the least (or ended). */
void GramSource::moved(Xapian::docid d)
{
    Xapian::docid least = 0;
    for (auto &c : cursors)
        if (c->skip_to(d) && (!least || c->did < least))
            least = c->did;
    did = least;
    ended = !least;
}

Xapian::doccount GramSource::get_termfreq_est() const
{
    /* chunks are mostly full; a delta's works are not counted */
    return std::min<Xapian::doccount>(
        db.get_doccount(), static_cast<Xapian::doccount>(keys * CHUNK_WORKS * 3 / 4 + cursors.size()));
}

Xapian::doccount GramSource::get_termfreq_max() const
{
    return db.get_doccount();
}

void GramSource::next(double)
{
    if (!ended)
        moved(did + 1);
}

void GramSource::skip_to(Xapian::docid d, double)
{
    if (!ended && (d > did || !did))
        moved(std::max<Xapian::docid>(d, 1));
}

bool GramSource::check(Xapian::docid d, double min_wt)
{
    skip_to(d, min_wt);
    return true;
}

std::string GramSource::get_description() const
{
    return "GramSource(" + (prefix.empty() ? std::to_string(terms.size()) + " terms"
                                           : prefix + "*") + ")";
}

} // namespace pdxshim
