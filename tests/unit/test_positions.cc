/*
 * test_positions.cc -- the positions value of layouts 7 and 8
 * (common/positions.cc): its encodings, the term hashes and the
 * names that resolve them, the phrase and NEAR tests on positions, and
 * an index of layout 7 searched and written by layout 8.
 *
 * What it checks:
 *  - term_hash16 gives the values the format fixed (an index written by
 *    one build is read by the next);
 *  - random works (random terms of the three fields, each with 1 to 12
 *    random positions near its field's start or far from it) read back
 *    exactly, from layout 8's value and from layout 7's (encode7 below
 *    writes it as layout 7 did): every term's positions, and none for a
 *    term the work holds without positions, also when terms share a
 *    hash, with each other or with a term the work holds without
 *    positions (pairs found by search, so that every work of the test
 *    has some);
 *  - an index whose values are rewritten in layout 7's format and
 *    stamped 7 answers 180 phrase, field-phrase and NEAR queries as
 *    before (counts, top 50, scores); its first writer stamps it with this layout and
 *    adds works with layout 8's values, the old ones left as they are,
 *    and the mixed index answers as a fresh one of the same works; so
 *    does the index of layout 7 compacted with one of layout 8, which
 *    is stamped 8;
 *  - positions_match agrees with a brute force over every choice of
 *    positions, for phrases (in order, span below the window) and NEAR
 *    (any order, distinct positions, span below the window);
 *  - a damaged value is a DatabaseCorruptError naming the document;
 *  - several local indexes searched as one, with paperdex's positions,
 *    Xapian's or one of each, and one index of Xapian's positions
 *    (searched with Xapian's OP_PHRASE), answer as one index of
 *    paperdex's positions (shards_local).
 *
 * usage: test_positions WORK_DIR
 */
#include <xapian.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check.h"
#include "layout.h"
#include "paperdex.h"
#include "shim_db.hh"

using pdxshim::positions_find;
using pdxshim::positions_match;
using pdxshim::PositionsWriter;
using pdxshim::term_hash16;

namespace {

typedef std::vector<std::vector<Xapian::termpos>> Pos;

/* Every way to take one position per term: in order and below the
 * window, or (near) distinct and below the window. */
bool brute(const Pos &p, size_t i, std::vector<Xapian::termpos> &chosen,
           Xapian::termcount window, bool ordered)
{
    if (i == p.size()) {
        const auto mm = std::minmax_element(chosen.begin(), chosen.end());
        if (*mm.second - *mm.first >= window)
            return false;
        std::set<Xapian::termpos> distinct(chosen.begin(), chosen.end());
        return distinct.size() == chosen.size();
    }
    for (Xapian::termpos at : p[i]) {
        if (ordered && i > 0 && at <= chosen.back())
            continue;
        chosen.push_back(at);
        const bool ok = brute(p, i + 1, chosen, window, ordered);
        chosen.pop_back();
        if (ok)
            return true;
    }
    return false;
}

/* A work's positions as build_doc hands them to PositionsWriter, a
 * term's ascending; reversed, the terms come last first: a value is the
 * work's, whatever the order its terms come in. */
std::string encode(const std::map<std::string, std::vector<Xapian::termpos>> &pos,
                   const std::vector<std::string> &others, bool reversed = false)
{
    PositionsWriter w;
    auto add = [&w](const std::string &term,
                    const std::vector<Xapian::termpos> &at) { w.add(term, at); };
    if (reversed)
        for (auto tp = pos.rbegin(); tp != pos.rend(); ++tp)
            add(tp->first, tp->second);
    else
        for (const auto &tp : pos)
            add(tp.first, tp.second);
    for (size_t i = 0; i < others.size(); i++)
        w.also_holds(others[reversed ? others.size() - 1 - i : i]);
    return w.take();
}

void put_varint7(std::string &out, uint32_t v)
{
    for (; v >= 0x80; v >>= 7)
        out += static_cast<char>((v & 0x7f) | 0x80);
    out += static_cast<char>(v);
}

/* Layout 7's value, as layout 7's writer made it (the essay in
 * common/positions.cc): kept here, where the library writes only
 * layout 8's, to check that values of indexes made by layout 7 still
 * read back exactly. */
std::string encode7(const std::map<std::string, std::vector<Xapian::termpos>> &pos,
                    const std::vector<std::string> &others)
{
    std::vector<std::pair<uint16_t, std::string>> terms;
    for (const auto &tp : pos)
        if (!tp.second.empty())
            terms.emplace_back(term_hash16(tp.first), tp.first);
    std::sort(terms.begin(), terms.end());
    std::set<uint16_t> other;
    for (const std::string &o : others)
        other.insert(term_hash16(o));
    std::string v, sizes, body;
    put_varint7(v, static_cast<uint32_t>(terms.size()));
    for (size_t i = 0; i < terms.size(); i++) {
        const uint16_t h = terms[i].first;
        const std::vector<Xapian::termpos> &at = pos.at(terms[i].second);
        const bool named = (i > 0 && terms[i - 1].first == h) ||
                           (i + 1 < terms.size() && terms[i + 1].first == h) ||
                           other.count(h);
        v += static_cast<char>(h & 0xff);
        v += static_cast<char>(h >> 8);
        std::string e;
        put_varint7(e, static_cast<uint32_t>(at.size() * 2 + named));
        if (named) {
            put_varint7(e, static_cast<uint32_t>(terms[i].second.size()));
            e += terms[i].second;
        }
        for (size_t k = 0; k < at.size(); k++)
            put_varint7(e, k ? at[k] - at[k - 1] : at[k]);
        if (e.size() < 255) {
            sizes += static_cast<char>(e.size());
        } else {
            sizes += static_cast<char>(255);
            put_varint7(body, static_cast<uint32_t>(e.size()));
        }
        body += e;
    }
    return v + sizes + body;
}

/* n terms whose hashes all equal that of `like` (from 600,000 terms
 * w0, w1, ... sorted by hash once: about 9 a hash). */
std::vector<std::string> colliding(const std::string &like, size_t n)
{
    static std::vector<std::vector<std::string>> by_hash;
    if (by_hash.empty()) {
        by_hash.resize(65536);
        for (unsigned k = 0; k < 600000; k++) {
            const std::string t = "w" + std::to_string(k);
            by_hash[term_hash16(t)].push_back(t);
        }
    }
    std::vector<std::string> out;
    for (const std::string &t : by_hash[term_hash16(like)])
        if (t != like && out.size() < n)
            out.push_back(t);
    return out;
}

/* Invented works: "u<k>" with a title, an abstract and two authors
 * of words drawn from a small vocabulary, so that phrases recur. */
void put_works(pdx_index *ix, unsigned from, unsigned n, std::mt19937 &rng)
{
    static const char *const syl[] = {"ka", "lo", "mir", "sen", "tu",
                                      "vel", "dra", "quo", "phi", "zan"};
    auto word = [&] {
        std::string w;
        for (int i = 0, k = rng() % 60; i < 2; i++, k /= 10)
            w += syl[k % 10];
        return w;
    };
    auto text = [&](unsigned words) {
        std::string t;
        for (unsigned i = 0; i < words; i++)
            t += (i ? " " : "") + word();
        return t;
    };
    for (unsigned k = from; k < from + n; k++) {
        pdx_work w;
        pdx_work_init(&w, PDX_WORK_VERSION);
        const std::string id = "u" + std::to_string(k), title = text(6),
                          abstract = text(40 + rng() % 200);
        const std::string a1 = "Ana " + word(), a2 = "Bo " + word();
        const char *authors[] = {a1.c_str(), a2.c_str()};
        w.id = id.c_str();
        w.title = title.c_str();
        w.abstract = abstract.c_str();
        w.authors = authors;
        w.n_authors = 2;
        w.year = 2020;
        check(pdx_put(ix, &w) == 0, "put " + id + ": " + pdx_errmsg(ix));
    }
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

/* The queries of the upgrade and shard checks: phrases of two and three
 * words in the default field, title:, abstract: and author:, NEAR, and
 * a phrase OR-ed with a word. */
std::vector<std::string> phrase_queries()
{
    static const char *const syl[] = {"ka", "lo", "mir", "sen", "tu",
                                      "vel", "dra", "quo", "phi", "zan"};
    std::mt19937 rng(7);
    auto word = [&] {
        std::string w;
        for (int i = 0, k = rng() % 60; i < 2; i++, k /= 10)
            w += syl[k % 10];
        return w;
    };
    std::vector<std::string> q;
    for (int i = 0; i < 30; i++) {
        q.push_back("\"" + word() + " " + word() + "\"");
        q.push_back("\"" + word() + " " + word() + " " + word() + "\"");
        q.push_back("title:\"" + word() + " " + word() + "\"");
        q.push_back("abstract:\"" + word() + " " + word() + "\"");
        q.push_back("author:\"ana " + word() + "\"");
        q.push_back(word() + " NEAR/3 " + word());
        if (i % 3 == 0) /* a phrase only some matches hold */
            q.push_back("\"" + word() + " " + word() + "\" OR " + word());
    }
    return q;
}

/* Each query's exact count and its top 50 (ids and scores). */
std::vector<std::string> answers(pdx_index *ix)
{
    std::vector<std::string> out;
    for (const std::string &text : phrase_queries()) {
        pdx_query q;
        pdx_query_init(&q, PDX_QUERY_VERSION);
        q.text = text.c_str();
        q.exact_total = 1;
        q.limit = 50;
        pdx_results *r = nullptr;
        if (pdx_search(&r, ix, &q) != 0) {
            out.push_back(text + ": ERROR " + pdx_errmsg(ix));
            continue;
        }
        std::string a = text + ": " + std::to_string(pdx_results_total_lower(r));
        for (size_t i = 0; i < pdx_results_count(r); i++) {
            char sc[32];
            snprintf(sc, sizeof sc, "%.6f", pdx_results_hit(r, i)->score);
            a += std::string(" ") + pdx_results_hit(r, i)->work->id + "=" + sc;
        }
        pdx_results_free(r);
        out.push_back(a);
    }
    return out;
}

/* How many of answers() found something: most should, for the answers
 * compared to say anything. */
unsigned with_hits(const std::vector<std::string> &answers)
{
    unsigned hits = 0;
    for (const std::string &a : answers)
        hits += a.find(": 0") == std::string::npos;
    return hits;
}

/* How many of got differ from want (answers() of the same queries); the
 * first three are printed, got's named by label. */
unsigned differing(const std::vector<std::string> &got,
                   const std::vector<std::string> &want,
                   const std::string &label)
{
    unsigned differ = 0;
    for (size_t i = 0; i < got.size(); i++)
        if (got[i] != want[i] && differ++ < 3)
            fprintf(stderr, "%s: %s\nwanted: %s\n", label.c_str(),
                    got[i].c_str(), want[i].c_str());
    return differ;
}

pdx_index *open_index(const std::string &path, unsigned flags)
{
    pdx_index *ix = nullptr;
    const int rc = pdx_open(&ix, path.c_str(), flags);
    check(rc == 0, "open " + path + ": " + (ix ? pdx_errmsg(ix) : ""));
    return ix;
}

/* The works' positions values rewritten in layout 7's format and the
 * index stamped 7, as layout 7 would have left it: returns how many
 * values were rewritten. */
unsigned make_layout7(const std::string &path)
{
    Xapian::WritableDatabase db(path, Xapian::DB_OPEN);
    unsigned n = 0;
    for (Xapian::PostingIterator d = db.postlist_begin("");
         d != db.postlist_end(""); ++d) {
        Xapian::Document doc = db.get_document(*d);
        const std::string v = doc.get_value(pdxshim::SLOT_POSITIONS);
        if (v.empty() || v[0] != 0)
            continue;
        std::vector<std::string> terms;
        for (Xapian::TermIterator t = doc.termlist_begin();
             t != doc.termlist_end(); ++t)
            terms.push_back(*t);
        Pos got;
        positions_find(v, *d, terms, got);
        std::map<std::string, std::vector<Xapian::termpos>> pos;
        std::vector<std::string> others;
        for (size_t i = 0; i < terms.size(); i++) {
            if (got[i].empty())
                others.push_back(terms[i]);
            else
                pos[terms[i]] = got[i];
        }
        doc.add_value(pdxshim::SLOT_POSITIONS, encode7(pos, others));
        db.replace_document(*d, doc);
        n++;
    }
    db.set_metadata("paperdex.layout", "7");
    db.commit();
    return n;
}

/* How many works' values are in layout 8's format, and in layout 7's. */
std::pair<unsigned, unsigned> formats(const std::string &path)
{
    Xapian::Database db(path);
    std::pair<unsigned, unsigned> n(0, 0);
    for (Xapian::ValueIterator v = db.valuestream_begin(pdxshim::SLOT_POSITIONS);
         v != db.valuestream_end(pdxshim::SLOT_POSITIONS); ++v)
        ((*v)[0] == 0 ? n.first : n.second)++;
    return n;
}

/* An index of layout 7 is searched as it is, and its first writer adds
 * works in layout 8's format beside the old ones: the same answers. */
void upgrade7(const std::string &work)
{
    const std::string this_layout = std::to_string(PDX_LAYOUT_VERSION);
    const std::string a = work + "/a", b = work + "/b";
    std::mt19937 rng(11);
    pdx_index *ix = open_index(a, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    put_works(ix, 0, 400, rng);
    pdx_close(ix);
    ix = open_index(a, 0);
    const std::vector<std::string> fresh = answers(ix);
    pdx_close(ix);
    CHECK(with_hits(fresh) > 60); /* most queries find something */

    CHECK_INT(make_layout7(a), 400);
    CHECK_INT(formats(a).second, 400);
    ix = open_index(a, 0);
    CHECK_INT(pdx_index_layout(ix), 7);
    const std::vector<std::string> seven = answers(ix);
    pdx_close(ix);
    CHECK_INT(differing(seven, fresh, "layout 7"), 0);

    /* Compacted with an index of layout 8 behind it, it makes one index
     * of both formats, stamped 8 (the compactor would keep the first
     * shard's 7, and layout 7 would misread the newer values). */
    const std::string c = work + "/c", ac = work + "/ac";
    std::mt19937 more_c(12);
    ix = open_index(c, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    put_works(ix, 400, 200, more_c);
    pdx_close(ix);
    {
        const char *const both[] = {a.c_str(), c.c_str()};
        pdx_index *shards = nullptr;
        check(pdx_open_shards(&shards, both, 2) == 0, "open a and c");
        check(pdx_compact(shards, ac.c_str()) == 0,
              std::string("compact a and c: ") + pdx_errmsg(shards));
        pdx_close(shards);
        Xapian::Database db(ac);
        const std::string layout = db.get_metadata("paperdex.layout");
        CHECK_STR(layout.c_str(), this_layout.c_str());
        const std::pair<unsigned, unsigned> fac = formats(ac);
        CHECK_INT(fac.first, 200);
        CHECK_INT(fac.second, 400);
    }

    /* Its first writer stamps it with this layout and writes new works'
     * values in layout 8's format; a fresh index of the same works answers
     * alike. */
    std::mt19937 more(12);
    ix = open_index(a, PDX_OPEN_WRITE);
    CHECK_INT(pdx_index_layout(ix), PDX_LAYOUT_VERSION);
    put_works(ix, 400, 200, more);
    pdx_close(ix);
    const std::pair<unsigned, unsigned> f = formats(a);
    CHECK_INT(f.first, 200);
    CHECK_INT(f.second, 400);
    {
        Xapian::Database db(a);
        const std::string layout = db.get_metadata("paperdex.layout"),
                          where = db.get_metadata(LAYOUT_META_POSITIONS);
        CHECK_STR(layout.c_str(), this_layout.c_str());
        CHECK_STR(where.c_str(), ""); /* in the values */
    }
    std::mt19937 again(11), more2(12);
    ix = open_index(b, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    put_works(ix, 0, 400, again);
    put_works(ix, 400, 200, more2);
    pdx_close(ix);
    pdx_index *ia = open_index(a, 0), *ib = open_index(b, 0),
              *iac = open_index(ac, 0);
    const std::vector<std::string> mixed = answers(ia), whole = answers(ib),
                                   merged = answers(iac);
    pdx_close(ia);
    pdx_close(ib);
    pdx_close(iac);
    CHECK_INT(differing(mixed, whole, "mixed"), 0);
    CHECK_INT(differing(merged, whole, "compacted"), 0);
}

/* Several local indexes searched as one (pdx_open_shards) answer as the
 * one index of all their works: the same exact counts and the same top
 * 50, for phrases every match must hold (checked by the matcher's
 * decider from each document: common/shim_db.hh, PhraseFilter) and for
 * those in an OR.  Shards with paperdex's positions, with Xapian's
 * (PDX_OPEN_XAPIAN_POSITIONS, as for xapian-tcpsrv: searched with
 * Xapian's OP_PHRASE and OP_NEAR, searcher/shim_read.cc, xapian_phrases)
 * and one of each (paperdex's matchers, reading either kind).  So does
 * one index of all the works with Xapian's positions (OP_PHRASE). */
void shards_local(const std::string &work)
{
    const std::string all = work + "/s-all", x = work + "/s-x",
                      y = work + "/s-y", xp = work + "/s-xp",
                      yp = work + "/s-yp", allp = work + "/s-allp";
    auto build = [](const std::string &path, unsigned flags, bool first,
                    bool second) {
        std::mt19937 a(31), b(32);
        pdx_index *ix =
            open_index(path, PDX_OPEN_WRITE | PDX_OPEN_CREATE | flags);
        if (first)
            put_works(ix, 0, 300, a);
        if (second)
            put_works(ix, 300, 300, b);
        pdx_close(ix);
    };
    build(all, 0, true, true);
    build(x, 0, true, false);
    build(y, 0, false, true);
    build(xp, PDX_OPEN_XAPIAN_POSITIONS, true, false);
    build(yp, PDX_OPEN_XAPIAN_POSITIONS, false, true);
    build(allp, PDX_OPEN_XAPIAN_POSITIONS, true, true);
    pdx_index *ia = open_index(all, 0);
    const std::vector<std::string> want = answers(ia);
    pdx_close(ia);
    CHECK(with_hits(want) > 60); /* most queries find something */
    ia = open_index(allp, 0);
    CHECK_INT(differing(answers(ia), want, "one index, Xapian's positions"), 0);
    pdx_close(ia);
    const std::pair<std::string, std::string> pairs[] = {
        {x, y}, {xp, yp}, {xp, y}};
    for (const auto &pr : pairs) {
        const char *const both[] = {pr.first.c_str(), pr.second.c_str()};
        pdx_index *sh = nullptr;
        check(pdx_open_shards(&sh, both, 2) == 0,
              "open " + pr.first + " and " + pr.second);
        const std::vector<std::string> got = answers(sh);
        pdx_close(sh);
        CHECK_INT(differing(got, want, "shards " + pr.first + " + " + pr.second),
                  0);
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_positions WORK_DIR\n");
        return 2;
    }
    const std::string work = argv[1];
    /* The positions values of layouts 7 and 8: the indexes it makes keep
     * them (PDX_LAYOUT8), not layout 9's chunks, which test_chunks
     * checks. */
    setenv("PDX_LAYOUT8", "1", 1);
    if (!check_work_dir(work))
        return 2;
    upgrade7(work);
    shards_local(work);

    /* The format's hashes, fixed. */
    CHECK_INT(term_hash16(""), 0xf011);
    CHECK_INT(term_hash16("model"), 0x9022);
    CHECK_INT(term_hash16("Smodel"), 0xc733);

    std::mt19937 rng(20261126);
    unsigned mismatches = 0, works = 0, collided = 0, unordered = 0;
    for (int round = 0; round < 2000; round++) {
        std::map<std::string, std::vector<Xapian::termpos>> pos;
        const size_t n = 1 + rng() % 60;
        for (size_t i = 0; i < n; i++) {
            std::string t = "t" + std::to_string(rng() % 400);
            const unsigned field = rng() % 3; /* default, S, A */
            if (field)
                t = (field == 1 ? "S" : "A") + t;
            /* 1 to 12 positions (a count of 4 and more is written
             * apart), near the field's start or far from it. */
            const unsigned span = rng() % 2 ? 300 : 40000;
            std::set<Xapian::termpos> at;
            for (size_t k = 1 + rng() % (rng() % 4 ? 5 : 12); k > 0; k--)
                at.insert(1 + field * 1000 + rng() % span);
            pos[t].assign(at.begin(), at.end());
        }
        /* A pair of positional terms sharing a hash, and a term held
         * without positions sharing another's. */
        const std::string first = pos.begin()->first;
        const std::vector<std::string> twins = colliding(first, 1);
        if (twins.empty())
            continue;
        pos[twins[0]] = {7, 300 + static_cast<Xapian::termpos>(round)};
        const std::string lone = "L" + std::to_string(round);
        if (term_hash16(lone) == term_hash16(first))
            continue;
        pos[lone] = {301, 302};
        const std::vector<std::string> others = colliding(lone, 1);
        if (others.empty())
            continue;
        collided++;
        const std::string v = encode(pos, others);
        unordered += encode(pos, others, true) != v;
        std::vector<std::string> ask;
        for (const auto &tp : pos)
            ask.push_back(tp.first);
        ask.push_back(others[0]); /* held, no positions */
        /* Layout 8's value, and layout 7's of the same work. */
        for (const std::string &value : {v, encode7(pos, others)}) {
            Pos got;
            positions_find(value, 1, ask, got);
            for (size_t i = 0; i < ask.size(); i++) {
                const auto it = pos.find(ask[i]);
                const std::vector<Xapian::termpos> want =
                    it == pos.end() ? std::vector<Xapian::termpos>()
                                    : it->second;
                mismatches += got[i] != want;
            }
            /* One term asked alone: the reader steps over every entry
             * before its own. */
            for (size_t i = ask.size() / 2; i < ask.size(); i += 3) {
                Pos one_term;
                positions_find(value, 1, {ask[i]}, one_term);
                const auto it = pos.find(ask[i]);
                mismatches += one_term[0] != (it == pos.end()
                                                  ? std::vector<Xapian::termpos>()
                                                  : it->second);
            }
        }
        works++;
    }
    CHECK_INT(mismatches, 0);
    CHECK_INT(unordered, 0);
    CHECK(works > 1900);
    CHECK_INT(collided, works);

    /* positions_match against brute force. */
    unsigned disagree = 0, yes = 0;
    for (int round = 0; round < 20000; round++) {
        /* As in a text: one term at a position, so two terms' lists
         * never share one. */
        const size_t n = 2 + rng() % 3;
        std::vector<Xapian::termpos> slots(12);
        for (size_t k = 0; k < slots.size(); k++)
            slots[k] = static_cast<Xapian::termpos>(k + 1);
        std::shuffle(slots.begin(), slots.end(), rng);
        Pos p(n);
        size_t next = 0;
        for (auto &v : p) {
            for (size_t k = rng() % 4; k > 0 && next < slots.size(); k--)
                v.push_back(slots[next++]);
            std::sort(v.begin(), v.end());
        }
        /* A term repeated, as "a a" may be. */
        if (rng() % 5 == 0)
            p[1] = p[0];
        const Xapian::termcount window =
            static_cast<Xapian::termcount>(n + rng() % 4);
        for (bool ordered : {true, false}) {
            std::vector<Xapian::termpos> chosen;
            const bool want = brute(p, 0, chosen, window, ordered);
            yes += want;
            if (positions_match(p, window, ordered) != want && disagree++ < 3) {
                fprintf(stderr, "%s window %u want %d:", ordered ? "PHRASE" : "NEAR",
                        window, want);
                for (const auto &v : p) {
                    fprintf(stderr, " [");
                    for (Xapian::termpos at : v)
                        fprintf(stderr, " %u", at);
                    fprintf(stderr, " ]");
                }
                fprintf(stderr, "\n");
            }
        }
    }
    CHECK_INT(disagree, 0);
    CHECK(yes > 1000);

    /* Damage: a value cut in the middle of an entry. */
    std::map<std::string, std::vector<Xapian::termpos>> one = {{"alpha", {1, 5, 9}}};
    const std::string v = encode(one, {});
    bool threw = false;
    try {
        Pos got;
        positions_find(v.substr(0, v.size() - 1), 42, {"alpha"}, got);
    } catch (const Xapian::DatabaseCorruptError &e) {
        threw = e.get_msg().find("document 42") != std::string::npos;
    }
    CHECK(threw);

    /* Damage: two entries of one hash, neither named (the writer names
     * both), is not read as one term's positions. */
    const uint16_t word = static_cast<uint16_t>((term_hash16("alpha") >> 2) << 2);
    std::string twins("\0\2\0\0\0\0", 6);
    for (int k = 0; k < 2; k++) {
        twins += static_cast<char>(word & 0xff);
        twins += static_cast<char>(word >> 8);
    }
    twins += "\5\3";
    threw = false;
    try {
        Pos got;
        positions_find(twins, 43, {"alpha"}, got);
    } catch (const Xapian::DatabaseCorruptError &e) {
        threw = e.get_msg().find("document 43") != std::string::npos;
    }
    CHECK(threw);
    return check_done();
}
