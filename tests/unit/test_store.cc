/*
 * test_store.cc -- the stored record of layout 6 (common/record_store.cc):
 * zstd frames in a value slot, with a dictionary trained on the index's
 * own first records.
 *
 * What it checks, through the public API and through Xapian itself:
 *  - every record reads back as it was stored, before the dictionary
 *    (frames without one) and after it (frames naming it);
 *  - the index holds exactly one dictionary, and the frames after the
 *    first 1,000 name it;
 *  - two indexes with dictionaries of their own, searched together
 *    (pdx_open_shards: Xapian reads metadata from the first shard only)
 *    and merged by the compactor, read back every record of both;
 *  - an index of layout 5 (records in the document data) is read as it
 *    is, and written as it is: its first writer stamps it 6, and old and
 *    new documents read back side by side;
 *  - a damaged frame and a missing dictionary are errors naming the
 *    document, not a crash.
 *
 * usage: test_store WORK_DIR
 */
#include <xapian.h>

#include <zstd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "layout.h"
#include "check.h"
#include "paperdex.h"

namespace {

/* Invented text, its words drawn from a vocabulary that differs with
 * `seed`, so that two indexes train different dictionaries. */
struct Gen {
    unsigned long long s;
    explicit Gen(unsigned long long seed) : s(seed * 2654435761ull + 1) {}
    unsigned next()
    {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<unsigned>(s >> 33);
    }
    std::string word(unsigned base)
    {
        static const char *const syl[] = {"ka", "lo", "mir", "sen", "tu",
                                          "vel", "dra", "quo", "phi",
                                          "zan", "ber", "nox", "ul", "ty"};
        unsigned n = base + next() % 300;
        std::string w;
        for (int i = 0; i < 3; i++, n /= 14)
            w += syl[n % 14];
        return w;
    }
    std::string text(unsigned base, unsigned words)
    {
        std::string t;
        for (unsigned i = 0; i < words; i++)
            t += (i ? " " : "") + word(base);
        return t;
    }
};

/* n works "PFX-k" with text from g; returns id -> the JSON pdx_get gives. */
void put_works(pdx_index *ix, const std::string &pfx, unsigned n, Gen &g,
               unsigned base)
{
    for (unsigned k = 0; k < n; k++) {
        pdx_work w;
        pdx_work_init(&w, PDX_WORK_VERSION);
        std::string id = pfx + "-" + std::to_string(k);
        std::string title = g.text(base, 8), abstract = g.text(base, 120);
        std::string author = "Ana " + g.word(base);
        const char *authors[] = {author.c_str()};
        w.id = id.c_str();
        w.title = title.c_str();
        w.abstract = abstract.c_str();
        w.authors = authors;
        w.n_authors = 1;
        w.year = 2000 + static_cast<int>(k % 20);
        check(pdx_put(ix, &w) == 0, "put " + id + ": " + pdx_errmsg(ix));
    }
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

/* The JSON of work id, or "ERROR: message". */
std::string get(pdx_index *ix, const std::string &id)
{
    pdx_results *r = nullptr;
    if (pdx_get(&r, ix, id.c_str()) != 0) {
        std::string m = std::string("ERROR: ") + pdx_errmsg(ix);
        pdx_results_free(r);
        return m;
    }
    std::string out = pdx_results_count(r) ? pdx_results_hit(r, 0)->json : "";
    pdx_results_free(r);
    return out;
}

std::map<std::string, std::string> all_records(pdx_index *ix,
                                               const std::string &pfx,
                                               unsigned n)
{
    std::map<std::string, std::string> m;
    for (unsigned k = 0; k < n; k++) {
        std::string id = pfx + "-" + std::to_string(k);
        m[id] = get(ix, id);
    }
    return m;
}

std::vector<std::string> dict_keys(const Xapian::Database &db)
{
    std::vector<std::string> v;
    for (auto k = db.metadata_keys_begin(LAYOUT_META_ZDICT);
         k != db.metadata_keys_end(LAYOUT_META_ZDICT); ++k)
        v.push_back(*k);
    return v;
}

pdx_index *open_rw(const std::string &p)
{
    pdx_index *ix = nullptr;
    int rc = pdx_open(&ix, p.c_str(), PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    check(rc == 0, "open " + p + ": " + (ix ? pdx_errmsg(ix) : ""));
    return ix;
}

pdx_index *open_ro(const std::string &p)
{
    pdx_index *ix = nullptr;
    int rc = pdx_open(&ix, p.c_str(), 0);
    check(rc == 0, "open " + p + " read-only: " + (ix ? pdx_errmsg(ix) : ""));
    return ix;
}

/* Every value the JSON record of its own id. */
bool all_json(const std::map<std::string, std::string> &m)
{
    for (const auto &kv : m)
        if (kv.second.empty() || kv.second[0] != '{' ||
            kv.second.find("\"id\":\"" + kv.first + "\"") == std::string::npos)
            return false;
    return !m.empty();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_store WORK_DIR\n");
        return 2;
    }
    const std::string work = argv[1];
    if (!check_work_dir(work))
        return 2;
    const std::string a = work + "/a", b = work + "/b", ab = work + "/ab",
                      old5 = work + "/old5";

    /* ---- one index: frames before and after its dictionary */
    pdx_index *ix = open_rw(a);
    Gen ga(1);
    put_works(ix, "a", 2500, ga, 0);
    std::map<std::string, std::string> ra = all_records(ix, "a", 2500);
    pdx_close(ix);
    check(all_json(ra), "index a: every record reads back as its work's JSON");
    {
        Xapian::Database db(a);
        std::vector<std::string> keys = dict_keys(db);
        check(keys.size() == 1, "index a holds one dictionary, not " +
                                    std::to_string(keys.size()));
        unsigned id = keys.empty() ? 0
                                   : static_cast<unsigned>(strtoul(
                                         keys[0].c_str() +
                                             strlen(LAYOUT_META_ZDICT),
                                         nullptr, 10));
        size_t with = 0, without = 0, other = 0;
        for (Xapian::docid d = 1; d <= db.get_lastdocid(); d++) {
            std::string v = db.get_document(d).get_value(LAYOUT_SLOT_RECORD);
            unsigned f = ZSTD_getDictID_fromFrame(v.data(), v.size());
            (f == 0 ? without : f == id ? with : other)++;
            check(db.get_document(d).get_data().empty(),
                  "document data is empty in layout 6");
        }
        check(without == 1000 && with == 1500 && other == 0,
              "1,000 frames without the dictionary, 1,500 with it: " +
                  std::to_string(without) + ", " + std::to_string(with) +
                  ", " + std::to_string(other));
    }
    /* the records read back are the works put: spot checks of fields */
    check(ra["a-0"].find("\"year\":2000") != std::string::npos &&
              ra["a-2499"].find("\"year\":2019") != std::string::npos,
          "years of the first and last work: " + ra["a-0"].substr(0, 80));

    /* ---- a second index with its own dictionary; both as shards */
    ix = open_rw(b);
    Gen gb(2);
    put_works(ix, "b", 1200, gb, 5000);
    std::map<std::string, std::string> rb = all_records(ix, "b", 1200);
    pdx_close(ix);
    check(all_json(rb), "index b: every record reads back");
    {
        std::vector<std::string> ka = dict_keys(Xapian::Database(a)),
                                 kb = dict_keys(Xapian::Database(b));
        check(kb.size() == 1 && ka != kb,
              "index b has a dictionary of its own");
    }
    const char *paths[] = {a.c_str(), b.c_str()};
    pdx_index *sh = nullptr;
    check(pdx_open_shards(&sh, paths, 2) == 0, "open a and b as shards");
    check(all_records(sh, "a", 2500) == ra, "a's records through the shards");
    check(all_records(sh, "b", 1200) == rb,
          "b's records through the shards (b's dictionary is b's metadata)");
    check(pdx_compact(sh, ab.c_str()) == 0,
          std::string("compact a and b: ") + pdx_errmsg(sh));
    pdx_close(sh);
    ix = open_ro(ab);
    check(dict_keys(Xapian::Database(ab)).size() == 2,
          "the merged index keeps both dictionaries");
    check(all_records(ix, "a", 2500) == ra && all_records(ix, "b", 1200) == rb,
          "the merged index reads back every record of both");
    pdx_close(ix);

    /* ---- layout 5: records in the document data, no dictionary */
    if (system(("cp -r '" + b + "' '" + old5 + "'").c_str()) != 0)
        check(false, "copy b");
    {
        Xapian::WritableDatabase db(old5, Xapian::DB_OPEN);
        for (Xapian::docid d = 1; d <= db.get_lastdocid(); d++) {
            Xapian::Document doc = db.get_document(d);
            std::string id = doc.get_value(LAYOUT_SLOT_ID);
            doc.set_data(rb[id]);
            doc.remove_value(LAYOUT_SLOT_RECORD);
            db.replace_document(d, doc);
        }
        for (const std::string &k : dict_keys(db))
            db.set_metadata(k, "");
        db.set_metadata(LAYOUT_META_LAYOUT, "5");
        db.commit();
    }
    ix = open_ro(old5);
    check(pdx_index_layout(ix) == 5, "layout 5 opened as it is");
    check(all_records(ix, "b", 1200) == rb, "layout 5: records from the data");
    pdx_close(ix);
    ix = open_rw(old5);
    check(pdx_index_layout(ix) == PDX_LAYOUT_VERSION,
          "layout 5 stamped 6 by its first writer");
    Gen gc(3);
    put_works(ix, "c", 10, gc, 9000);
    std::map<std::string, std::string> rc = all_records(ix, "c", 10);
    pdx_close(ix);
    ix = open_ro(old5);
    check(all_records(ix, "b", 1200) == rb && all_records(ix, "c", 10) == rc &&
              all_json(rc),
          "old and new documents read back side by side");
    pdx_close(ix);

    /* ---- damage: a frame cut short, then a dictionary gone */
    {
        Xapian::WritableDatabase db(a, Xapian::DB_OPEN);
        Xapian::docid d = db.postlist_begin("Qa-2000") == db.postlist_end("Qa-2000")
                              ? 0 : *db.postlist_begin("Qa-2000");
        Xapian::Document doc = db.get_document(d);
        std::string v = doc.get_value(LAYOUT_SLOT_RECORD);
        doc.add_value(LAYOUT_SLOT_RECORD, v.substr(0, v.size() / 2));
        db.replace_document(d, doc);
        db.commit();
    }
    ix = open_ro(a);
    std::string e = get(ix, "a-2000");
    check(e.compare(0, 6, "ERROR:") == 0 &&
              e.find("stored record") != std::string::npos,
          "a frame cut short is an error naming the stored record: " + e);
    check(get(ix, "a-1999") == ra["a-1999"], "the other records still read");
    pdx_close(ix);
    {
        Xapian::WritableDatabase db(a, Xapian::DB_OPEN);
        for (const std::string &k : dict_keys(db))
            db.set_metadata(k, "");
        db.commit();
    }
    ix = open_ro(a);
    e = get(ix, "a-1500");
    check(e.compare(0, 6, "ERROR:") == 0 &&
              e.find("needs dictionary") != std::string::npos,
          "a missing dictionary is an error that says so: " + e);
    check(get(ix, "a-10") == ra["a-10"],
          "records stored before the dictionary still read");
    pdx_close(ix);

    if (!check_fail && system(("rm -rf '" + work + "'").c_str()) != 0)
        fprintf(stderr, "cannot remove %s\n", work.c_str());
    return check_done();
}
