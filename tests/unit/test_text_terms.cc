/*
 * test_text_terms.cc -- indexer/text_terms.cc gives, for any text, the
 * terms, positions and term order of Xapian::TermGenerator set up as the
 * layout says (terms_ref.hh), and with hyphenated compounds joined
 * those and the joined words alone (joins_diff), and with a letter's
 * star kept, a star after one letter only and text without a star read
 * alike (stars_diff), and with letters written with dots between them
 * joined, only runs of three letters or more new and text without a dot
 * read alike (dotted_diff): on every ASCII character between words
 * and digits, on edge cases of TermGenerator's rules (acronyms, infixes,
 * suffixes, zero-width characters, UTF-8 that is not), on random strings
 * of the characters those rules treat apart, on every line of
 * corpus/samples, and, when ../shared is there, on the arXiv records.
 *
 * usage: test_text_terms SAMPLES_DIR SHARED_DIR (SHARED_DIR may be absent:
 * that part is then skipped, saying so).
 */
#include <xapian.h>

#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "terms_ref.hh"

namespace {

/* CJK in n-grams, as every new index reads it, unless PDX_TEST_CJK_WORDS
 * is set (CTest runs this test both ways: unit_text_terms_cjk_words). */
const bool ngrams = !getenv("PDX_TEST_CJK_WORDS");
TermsRef ref(ngrams);
unsigned shown;

/* One comparison, counted once: a difference is printed (the first few). */
bool same(const std::vector<std::pair<std::string, std::string>> &fields)
{
    std::string d = ref.diff(fields);
    if (d.empty())
        d = ref.joins_diff(fields);
    if (d.empty())
        d = ref.stars_diff(fields);
    if (d.empty())
        d = ref.dotted_diff(fields);
    if (!d.empty() && shown++ < 10) {
        fprintf(stderr, "differs (%s) on:", d.c_str());
        for (const auto &f : fields)
            fprintf(stderr, " [%s] \"%s\"", f.first.c_str(), f.second.c_str());
        fprintf(stderr, "\n");
    }
    return d.empty();
}

bool same1(const std::string &text, const std::string &prefix = "")
{
    return same({{prefix, text}});
}

std::string utf8(unsigned cp)
{
    std::string s;
    Xapian::Unicode::append_utf8(s, cp);
    return s;
}

/* The lines of a text file, or of a gzipped one, at most max of them. */
std::vector<std::string> lines_of(const std::string &path, size_t max)
{
    std::vector<std::string> out;
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        return out;
    std::string line;
    char buf[65536];
    while (out.size() < max && gzgets(f, buf, sizeof buf)) {
        line += buf;
        if (!line.empty() && line.back() == '\n') {
            line.pop_back();
            out.push_back(line);
            line.clear();
        }
    }
    if (!line.empty() && out.size() < max)
        out.push_back(line);
    gzclose(f);
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_text_terms SAMPLES_DIR SHARED_DIR\n");
        return 2;
    }

    /* ASCII as TermGenerator classifies it, through Xapian::Unicode:
     * each character alone, between letters, between digits, after a
     * word, after capitals and dots. */
    unsigned ascii = 0;
    for (unsigned c = 1; c < 128; c++) {
        const std::string ch(1, static_cast<char>(c));
        ascii += same1(ch) + same1("ab" + ch + "cd") + same1("12" + ch + "34") +
                 same1("x" + ch) + same1("x" + ch + " y") + same1(ch + ch + "z") +
                 same1("A.B" + ch) + same1("A" + ch + "B") + same1("c" + ch + ch) +
                 same1("c" + ch + ch + ch + ch + " d");
    }
    CHECK_INT(ascii, 127 * 10);

    /* TermGenerator's rules, one by one. */
    const std::vector<std::string> cases = {
        "", "   ", "the", "The THE tHe", "a an and of", "U.S.A.", "U.S.A",
        "U.S.A.b", "U.S.Ab", "A.B", "A.", "A.b", "a.B.C", "P.T.O. is", "I.B.M's",
        "X.Y.Z1", "US.", "i.i.d.", "non-i.i.d. data", "I.i.d", "a.b.cd",
        "Fig.a.b.c", "e.g. i.e.", "U.S.-China", "Fig.U.S.", "U.S", "a.m.x", "x.U.S.", "w.r.t.x", "x.i.i.d", "i.i.d.-like", "AT&T", "M&S", "R&D&E", "&x", "x&", "x& y",
        "C++", "C#", "c+++", "c++++", "c++++ d", "fish+chips", "a+ b",
        "C#x", "F#.", "x+#+", "3.14", "1,000,000", "1.2.3", "v1.2", "1.a",
        "a.1", "2;3", "4;b", "__init__", "_", "e-mail", "don't", "rock'n'roll",
        "end'", "'quoted'", "it\xe2\x80\x99s", "it\xe2\x80\x9bs",
        "a\xc2\xb7" "b", "a\xd7\xb4" "b", "a\xe2\x80\xa7" "b",
        "zero\xe2\x80\x8bwidth", "zero\xe2\x80\x8d", "\xe2\x80\x8bx",
        "1\xe2\x80\x8b" "2", "a\xe2\x81\xa0" "b", "a\xef\xbb\xbf" "b",
        "\xd9\xa1\xd9\xa2.\xd9\xa3", "1\xd9\xac" "2", "1\xe2\x81\x84" "2",
        "na\xc3\xafve caf\xc3\xa9", "Stra\xc3\x9f" "e", "\xce\x91\xce\x92\xce\x93 \xce\xb4",
        "\xc7\x85" "ab", "e\xcc\x81t\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87 text",
        "\xef\xbc\xa1\xef\xbc\xa2", "\xff\xfe bad", "abc\xe2\x82", "\xed\xa0\x80x",
        "\xc0\xaf", "\x80\x80 a\x80" "b", "\xf0\x9f\x98\x80 emoji\xf0\x9f\x98\x80",
        std::string(64, 'a'), std::string(65, 'a'), std::string(64, 'a') + " b",
        std::string(63, 'a') + "\xc3\xa9", "running runs ran runner",
        "models model modelling", "The Schr\xc3\xb6" "dinger equation",
        "ERNIE 3.0 and PP-OCRv3", "k-NN, SVMs; GPT-4's",
    };
    unsigned edge = 0;
    for (const std::string &c : cases)
        edge += same1(c);
    CHECK_INT(edge, cases.size());

    /* CJK text: in n-grams (a field that may hold it goes through a
     * TermGenerator), or runs of it as words.  Either way the same terms
     * as TermGenerator's. */
    const std::vector<std::string> cjk = {
        "\xe4\xb8\xad\xe6\x96\x87\xe4\xbf\xa1\xe6\x81\xaf\xe6\xa3\x80\xe7\xb4\xa2",
        "abc\xe4\xb8\xad\xe6\x96\x87" "def \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae",
        "\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4 text the \xea\xb2\x80\xec\x83\x89",
        "Gro\xc3\x9f" "e \xe4\xb8\xad\xe6\x96\x87 models",
    };
    unsigned cjk_same = 0;
    for (const std::string &c : cjk)
        cjk_same += same1(c) + same({{"S", c}, {"", "plain text " + c}, {"A", c}});
    CHECK_INT(cjk_same, 2 * cjk.size());
    /* Which way it ran: the bigram of the first two characters is a
     * term only with n-grams. */
    CHECK(same1(cjk[0]));
    bool bigram = false;
    for (const auto *t : ref.tt.sorted())
        bigram |= t->name == "\xe4\xb8\xad\xe6\x96\x87";
    CHECK(bigram == ngrams);

    /* Fields one after another: prefixes, gaps, a word in several. */
    CHECK(same({{"S", "Quantum error correction"},
                {"", "We correct quantum errors. Errors!"},
                {"A", "Q. Error"},
                {"A", "Ann O'Neil"}}));
    CHECK(same({{"", ""}, {"S", "x"}, {"", "the of"}, {"A", "y"}}));

    /* Random strings of the characters the rules treat apart. */
    const std::vector<std::string> alphabet = {
        "a", "b", "Q", "Z", "x", "0", "7", ".", ",", ";", "&", "'", "+", "#",
        "_", " ", " ", "-", utf8(0x2019), utf8(0x201b), utf8(0x200b),
        utf8(0xb7), utf8(0xe9), utf8(0xc4), utf8(0x661), utf8(0x66c),
        utf8(0x4e2d), utf8(0x300), utf8(0x1c5), utf8(0xfeff), "\xff", "\xc3",
        utf8(0x2010), utf8(0x2013), utf8(0xe01), utf8(0x1100), "\xe2\x80",
        "the", "of", "model", "ing", "A.", "U.S.",
    };
    std::mt19937 rng(20261127);
    unsigned random_same = 0;
    const unsigned random_n = 30000;
    for (unsigned i = 0; i < random_n; i++) {
        std::vector<std::pair<std::string, std::string>> fields;
        const unsigned nf = 1 + rng() % 3;
        for (unsigned f = 0; f < nf; f++) {
            std::string s;
            for (unsigned k = rng() % 24; k > 0; k--)
                s += alphabet[rng() % alphabet.size()];
            fields.emplace_back(f == 0 ? "" : (rng() % 2 ? "S" : "A"), s);
        }
        random_same += same(fields);
    }
    CHECK_INT(random_same, random_n);

    /* Every line of corpus/samples, as written and folded. */
    const std::vector<std::string> files = check_files_in(argv[1]);
    CHECK(files.size() >= 10);
    size_t sample_lines = 0, sample_same = 0;
    for (const std::string &f : files)
        for (const std::string &l : lines_of(f, 100000)) {
            sample_lines += 2;
            sample_same += same1(l) + same1(pdxshim::unaccent(l), "S");
        }
    CHECK(sample_lines > 500);
    CHECK_INT(sample_same, sample_lines);

    /* The arXiv records: each raw JSON line, as written and folded. */
    const std::string arxiv = std::string(argv[2]) + "/data/arxiv-101k.jsonl.gz";
    /* PDX_TEST_ARXIV_RECORDS: how many (20,000 unless set; the sanitizer
     * build compares fewer, tests/CMakeLists.txt) */
    const char *nrec = getenv("PDX_TEST_ARXIV_RECORDS");
    const std::vector<std::string> records =
        lines_of(arxiv, nrec ? strtoul(nrec, nullptr, 10) : 20000);
    if (records.empty()) {
        printf("SKIP the arXiv records: %s not found\n", arxiv.c_str());
    } else {
        size_t arxiv_same = 0;
        for (const std::string &l : records)
            arxiv_same += same1(l) + same1(pdxshim::unaccent(l), "A");
        CHECK_INT(arxiv_same, 2 * records.size());
        printf("arXiv records compared: %zu\n", records.size());
    }
    printf("compared: %u ASCII, %zu edge cases, %zu CJK, %u random, %zu sample "
           "lines; CJK n-grams %s\n",
           ascii, cases.size(), cjk.size(), random_n, sample_lines,
           ngrams ? "on" : "off");
    return check_done();
}
