/*
 * test_common_grams.cc -- a quoted phrase of two common words found
 * through their common grams (common/common_grams.cc) finds exactly the
 * works its positions hold it in.
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped with its list of common words and keeps the
 *    grams of its works' neighbouring listed words in chunks;
 *  - phrases of two listed words, quoted as written ("multi model",
 *    "Multi Models"), unquoted (multi-model), across a stop word ("model
 *    of data": stop words take no position, so "data, then model"
 *    holds "data model"), in a title, an abstract or an author's name,
 *    reversed or apart, find the works named here, and the same works when the
 *    grams are not used (PDX_NO_COMMON_GRAMS: the positions read);
 *  - title:"..." (one field) reads positions, and finds the same works;
 *  - an index without the stamp (as an older paperdex wrote it) finds
 *    the same works from its positions, and its writer adds no grams.
 *
 * usage: test_common_grams WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "layout.h"
#include "api_checks.hh"

namespace {

void put_all(pdx_index *ix)
{
    check_put(ix, "title", "Multi model ensembles for weather",
              "Ensembles of forecasts are averaged.");
    check_put(ix, "plural", "Averaging forecasts",
              "We combine multi models and many model data into one.");
    check_put(ix, "compound", "Ensembles at scale",
              "A multi-model approach; the model of data is learned.");
    check_put(ix, "apart", "Models and their multi-level structure",
              "Every model is a multi scale object: data, then model.");
    check_put(ix, "reversed", "Model multi", "The data model is given.");
    check_put(ix, "author", "Alpine meadows", nullptr, {"Data Model"});
}

/* The works text finds, with the grams and with the positions; a failed
 * check when they differ. */
std::set<std::string> both(pdx_index *ix, const char *text)
{
    unsetenv("PDX_NO_COMMON_GRAMS");
    const std::set<std::string> grams = check_ids(ix, text);
    setenv("PDX_NO_COMMON_GRAMS", "1", 1);
    const std::set<std::string> positions = check_ids(ix, text);
    unsetenv("PDX_NO_COMMON_GRAMS");
    check(grams == positions, std::string(text) + ": the grams find " +
                                  check_show(grams) + ", the positions " +
                                  check_show(positions));
    return grams;
}

void phrases(pdx_index *ix, const char *what)
{
    const struct {
        const char *q;
        std::set<std::string> want;
    } cases[] = {
        {"\"multi model\"", {"title", "compound"}},
        {"\"Multi Model\"", {"title", "compound"}},
        {"\"multi models\"", {"plural"}},
        {"multi-model", {"title", "plural", "compound"}},
        {"\"model data\"", {"plural", "compound"}},
        {"\"model of data\"", {"plural", "compound"}},
        {"\"data model\"", {"apart", "reversed", "author"}},
        {"\"model multi\"", {"apart", "reversed"}},
        {"title:\"multi model\"", {"title"}},
        {"\"many model\"", {"plural"}},
        {"\"multi scale\"", {"apart"}},
    };
    for (const auto &c : cases) {
        const std::set<std::string> got = both(ix, c.q);
        check(got == c.want, std::string(what) + ": " + c.q + " finds " +
                                 check_show(got) + ", want " + check_show(c.want));
    }
}

/* The greatest last docid of the index's gram chunks' keys (0: none). */
Xapian::docid last_gram(const std::string &path)
{
    Xapian::Database db(path);
    const std::string p = std::string(1, '\1') + LAYOUT_P_COMMON_GRAM;
    Xapian::docid last = 0;
    for (Xapian::TermIterator k = db.metadata_keys_begin(p); k != db.metadata_keys_end(p); ++k) {
        const std::string key = *k;
        Xapian::docid d = 0;
        for (size_t i = key.size() - 4; i < key.size(); i++)
            d = d << 8 | static_cast<unsigned char>(key[i]);
        last = std::max(last, d);
    }
    return last;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_common_grams");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    put_all(ix);
    pdx_close(ix);
    const std::string list = Xapian::Database(path).get_metadata(LAYOUT_META_COMMON_GRAMS);
    check((" " + list + " ").find(" model ") != std::string::npos &&
              (" " + list + " ").find(" multi ") != std::string::npos,
          "a new index is stamped with its list");
    check(last_gram(path) > 0, "a new index keeps grams");

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    phrases(ix, "stamped");
    pdx_close(ix);

    /* as an older paperdex left it: no stamp, and so no grams written */
    check_unstamp(path, LAYOUT_META_COMMON_GRAMS);
    const Xapian::docid before = last_gram(path);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    check_put(ix, "later", "Multi model again", "Nothing else.");
    pdx_close(ix);
    check(last_gram(path) == before, "a writer of an unstamped index adds no grams");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    const std::set<std::string> later = both(ix, "\"multi model\"");
    check(later == std::set<std::string>({"title", "compound", "later"}),
          "unstamped: \"multi model\" finds " + check_show(later));
    pdx_close(ix);
    return check_finish(work);
}
