/*
 * test_positions.cc -- the positions value of layout 7
 * (common/shim_positions.cc): its encoding, the 16-bit term hashes and
 * the names that resolve them, and the phrase and NEAR tests on
 * positions.
 *
 * What it checks:
 *  - term_hash16 gives the values the format fixed (an index written by
 *    one build is read by the next);
 *  - random works (random terms, each with random positions) read back
 *    exactly: every term's positions, and none for a term the work holds
 *    without positions, also when terms share a hash, with each other or
 *    with a term the work holds without positions (pairs found by
 *    search, so that every work of the test has some);
 *  - positions_match agrees with a brute force over every choice of
 *    positions, for phrases (in order, span below the window) and NEAR
 *    (any order, distinct positions, span below the window);
 *  - a damaged value is a DatabaseCorruptError naming the document.
 *
 * usage: test_positions
 */
#include <xapian.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check.h"
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

/* A document's positions as Xapian's own Document keeps them, so that
 * PositionsWriter reads them through the same iterators as build_doc. */
std::string encode(const std::map<std::string, std::vector<Xapian::termpos>> &pos,
                   const std::vector<std::string> &others)
{
    Xapian::Document doc;
    for (const auto &tp : pos)
        for (Xapian::termpos at : tp.second)
            doc.add_posting(tp.first, at);
    PositionsWriter w;
    for (Xapian::TermIterator t = doc.termlist_begin(); t != doc.termlist_end(); ++t)
        w.add(*t, t.positionlist_begin(), t.positionlist_end());
    for (const std::string &o : others)
        w.also_holds(o);
    return w.take();
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

} // namespace

int main()
{
    /* The format's hashes, fixed. */
    CHECK_INT(term_hash16(""), 0xf011);
    CHECK_INT(term_hash16("model"), 0x9022);
    CHECK_INT(term_hash16("Smodel"), 0xc733);

    std::mt19937 rng(20261126);
    unsigned mismatches = 0, works = 0, collided = 0;
    for (int round = 0; round < 2000; round++) {
        std::map<std::string, std::vector<Xapian::termpos>> pos;
        const size_t n = 1 + rng() % 60;
        for (size_t i = 0; i < n; i++) {
            std::string t = "t" + std::to_string(rng() % 400);
            if (rng() % 3 == 0)
                t = "S" + t;
            std::set<Xapian::termpos> at;
            for (size_t k = 1 + rng() % 5; k > 0; k--)
                at.insert(1 + rng() % 300);
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
        std::vector<std::string> ask;
        for (const auto &tp : pos)
            ask.push_back(tp.first);
        ask.push_back(others[0]); /* held, no positions */
        Pos got;
        positions_find(v, 1, ask, got);
        for (size_t i = 0; i < ask.size(); i++) {
            const auto it = pos.find(ask[i]);
            const std::vector<Xapian::termpos> want =
                it == pos.end() ? std::vector<Xapian::termpos>() : it->second;
            mismatches += got[i] != want;
        }
        works++;
    }
    CHECK_INT(mismatches, 0);
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
    return check_done();
}
