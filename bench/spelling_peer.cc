/*
 * spelling_peer.cc -- Xapian's own spelling corrector, the peer of
 * paperdex's "did you mean" in bench/typos.py.
 *
 *   spelling_peer TEXTS DBDIR < TYPOS
 *
 * Builds DBDIR's spelling table as Xapian's documentation says to: each
 * line of TEXTS (one work's title and abstract) through a TermGenerator
 * with FLAG_SPELLING and the database set, so each word's frequency is
 * its number of occurrences (the documents themselves are not added:
 * only the spelling table is asked).  Then, for each line of TYPOS,
 * prints Database::get_spelling_suggestion(typo) (maximum edit distance
 * 2, Xapian's default) and the microseconds it took, tab-separated.
 *
 *   spelling_peer --same-stem < PAIRS
 *
 * For each line "a b", prints 1 when Snowball's English stemmer (the
 * one paperdex indexes with) gives a and b one stem, else 0: a typo
 * that shares its intended word's stem finds that word's works with no
 * suggestion at all.
 */
#include <xapian.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    if (argc == 2 && std::string(argv[1]) == "--same-stem") {
        Xapian::Stem stem("english");
        std::string a, b;
        while (std::cin >> a >> b)
            printf("%d\n", stem(a) == stem(b) ? 1 : 0);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: spelling_peer TEXTS DBDIR < TYPOS\n"
                        "       spelling_peer --same-stem < PAIRS\n");
        return 2;
    }
    {
        Xapian::WritableDatabase db(argv[2], Xapian::DB_CREATE_OR_OVERWRITE);
        Xapian::TermGenerator tg;
        tg.set_database(db);
        tg.set_flags(Xapian::TermGenerator::FLAG_SPELLING);
        std::ifstream in(argv[1]);
        std::string line;
        while (std::getline(in, line)) {
            Xapian::Document doc;
            tg.set_document(doc);
            tg.index_text(line);
        }
        db.commit();
    }
    Xapian::Database db(argv[2]);
    std::string typo;
    while (std::getline(std::cin, typo)) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::string s = db.get_spelling_suggestion(typo);
        const auto t1 = std::chrono::steady_clock::now();
        printf("%s\t%.1f\n", s.c_str(),
               std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    return 0;
}
