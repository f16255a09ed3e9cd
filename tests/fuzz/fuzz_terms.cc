/*
 * fuzz_terms.cc -- libFuzzer target for indexer/text_terms.cc, the
 * writer's reading of a work's text into terms: any bytes, cut into
 * fields at each 0x1e (the first the default field's, then the title's
 * and the authors' by turns), must give the terms, positions and order
 * that Xapian::TermGenerator gives (tests/unit/terms_ref.hh), and with
 * hyphenated compounds joined, those and the joined words alone, at
 * positions the words hold; with a letter's star kept, a star only after
 * one letter, and text without a star read alike; a difference aborts,
 * naming it.
 */
#include <xapian.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "../unit/terms_ref.hh"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static TermsRef ref;
    static const char *const prefixes[] = {"", "S", "A"};
    std::vector<std::pair<std::string, std::string>> fields;
    const std::string in(reinterpret_cast<const char *>(data), size);
    size_t at = 0;
    while (true) {
        const size_t cut = in.find('\x1e', at);
        fields.emplace_back(prefixes[fields.size() % 3],
                            in.substr(at, cut == std::string::npos ? cut : cut - at));
        if (cut == std::string::npos)
            break;
        at = cut + 1;
    }
    std::string d = ref.diff(fields);
    if (d.empty())
        d = ref.joins_diff(fields);
    if (d.empty())
        d = ref.stars_diff(fields);
    if (d.empty())
        d = ref.dotted_diff(fields);
    if (!d.empty()) {
        fprintf(stderr, "text_terms differs from TermGenerator: %s\n", d.c_str());
        abort();
    }
    return 0;
}
