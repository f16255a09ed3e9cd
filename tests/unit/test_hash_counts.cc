/*
 * test_hash_counts.cc -- common/hash_counts.hh, the counts by key of the
 * author facet and the spelling table, against a std::unordered_map.
 *
 * What it checks:
 *  - 200,000 adds of 50,000 keys (Zipf-like repeats, keys of 1 to 40
 *    bytes, some empty-looking and some sharing prefixes) into a table
 *    made for 16, so it grows a dozen times: every count as the map's,
 *    each() in the order the keys were first counted, size() the keys;
 *  - take(): one fewer until 0, then false; a key never counted is
 *    false; each() leaves out the keys taken to 0, size() keeps them;
 *  - clear(): nothing counted, and the table counts again as new;
 *  - the views each() hands out are the keys' bytes, not the caller's
 *    (the caller's buffer is overwritten after each add).
 */
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "check.h"
#include "hash_counts.hh"

using pdxshim::HashCounts;
using pdxshim::key_hash;

int main()
{
    std::mt19937 rng(7);
    std::vector<std::string> keys;
    for (int i = 0; i < 50000; i++) {
        std::string k = "k" + std::to_string(i);
        k.append(rng() % 32, static_cast<char>('a' + i % 26));
        keys.push_back(k.substr(0, 1 + rng() % 40));
    }
    HashCounts t(16);
    std::unordered_map<std::string, uint64_t> want;
    std::vector<std::string> first; /* keys in the order first counted */
    std::string buf;
    for (int i = 0; i < 200000; i++) {
        /* small indexes far more often: repeats */
        const size_t j = std::min<size_t>(keys.size() - 1,
                                          (rng() % 1000) * (rng() % 1000) / 20);
        const uint32_t n = 1 + rng() % 3;
        buf = keys[j]; /* the caller's text, overwritten below */
        t.reserve_more(1);
        t.prefetch(key_hash(buf));
        t.add(buf, key_hash(buf), n);
        if (!want.count(keys[j]))
            first.push_back(keys[j]);
        want[keys[j]] += n;
        buf.assign(buf.size(), '#');
    }
    /* distinct keys: the map's and the table's agree (a hash shared by
     * two of these keys would show here as a missing or merged count) */
    CHECK_INT(t.size(), want.size());
    size_t i = 0, wrong = 0, order = 0;
    t.each([&](std::string_view k, uint64_t n) {
        if (i < first.size() && k != first[i])
            order++;
        auto w = want.find(std::string(k));
        if (w == want.end() || w->second != n)
            wrong++;
        i++;
    });
    CHECK_INT(i, want.size());
    CHECK_INT(wrong, 0);
    CHECK_INT(order, 0);

    /* take(): down to 0, then false */
    const std::string &k0 = first[0];
    const uint64_t h0 = key_hash(k0);
    uint64_t took = 0;
    while (t.take(h0))
        took++;
    CHECK_INT(took, want[k0]);
    CHECK(!t.take(h0));
    CHECK(!t.take(key_hash("never counted")));
    bool listed = false;
    size_t listed_n = 0;
    t.each([&](std::string_view k, uint64_t) {
        listed |= k == k0;
        listed_n++;
    });
    CHECK(!listed);
    CHECK_INT(listed_n, want.size() - 1);
    CHECK_INT(t.size(), want.size());

    /* clear(): empty, and counts again */
    t.clear();
    CHECK_INT(t.size(), 0);
    size_t after = 0;
    t.each([&](std::string_view, uint64_t) { after++; });
    CHECK_INT(after, 0);
    CHECK(!t.take(h0));
    t.reserve_more(1);
    t.add(k0, h0, 5);
    uint64_t got = 0;
    t.each([&](std::string_view k, uint64_t n) {
        if (k == k0)
            got = n;
    });
    CHECK_INT(got, 5);
    return check_done();
}
