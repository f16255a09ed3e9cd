/*
 * fuzz_positions.cc -- libFuzzer target for the positions value of layout
 * 7 (common/positions.cc): the input is a work's value as the index
 * would hold it, read back for a few terms (the seeds' own and some
 * others), each term's positions then tested as a phrase and as NEAR.
 * Any outcome but a crash is fine, as long as the reader keeps its
 * promises: a damaged value is a DatabaseCorruptError, and what it reads
 * is in ascending order (positions_match relies on it).
 */
#include <xapian.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "shim_db.hh"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string value(reinterpret_cast<const char *>(data), size);
    const std::vector<std::string> terms = {"quantum", "error", "correct",
                                            "Squantum", "Aada", "error"};
    std::vector<std::vector<Xapian::termpos>> pos;
    try {
        pdxshim::positions_find(value, 1, terms, pos);
    } catch (const Xapian::DatabaseCorruptError &) {
        return 0;
    }
    if (pos.size() != terms.size())
        abort();
    for (const auto &v : pos)
        for (size_t i = 1; i < v.size(); i++)
            if (v[i] <= v[i - 1])
                abort();
    const std::vector<std::vector<Xapian::termpos>> three(pos.begin(),
                                                          pos.begin() + 3);
    (void)pdxshim::positions_match(three, 3, true);
    (void)pdxshim::positions_match(three, 10, false);
    return 0;
}
