/*
 * test_builder.cc -- PDX_OPEN_BUILDER must not change the index.
 *
 * With the builder thread a writer's documents are built on another
 * thread and reach Xapian later (indexer/shim_write.cc, "The builder
 * thread").  This builds the same sequence of calls into two indexes,
 * one with the flag and one without, and compares them through Xapian
 * itself: the document count, the last docid, and every document's
 * stored record, values, terms, wdf and positions, and every term's
 * frequency.  The sequence has what can go wrong in a pipeline: every
 * sample file of corpus/samples (each format we read), each record put
 * twice in a row (the second replaces the first: the lookup by Q<id>
 * must see a document still in flight), then two copies of each record
 * one after the other, under new ids and sources, which merge (by arXiv
 * id, DOI, title or abstract) with the work they copy and with each
 * other (the absorbed works are deleted), then two more of each under an
 * arXiv id of their own, four times over (the second merges with the first, in flight:
 * its lookup by the arXiv id's key must see it), reads between the puts (a source's fingerprint, statistics,
 * a search) and commits at odd counts.
 *
 * The comparison itself is checked too: a third index built without the
 * builder from the same calls less one record must differ.
 *
 * usage: test_builder SAMPLES_DIR WORK_DIR
 */
#include <xapian.h>


#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "paperdex.h"

namespace {

/* Put every record of every sample, then the calls described at the
 * top.  skip: the index of one put to leave out (-1: none).  Returns the
 * number of puts made. */
long build(const std::string &db, const std::vector<std::string> &files,
           unsigned flags, long skip)
{
    pdx_index *ix = nullptr;
    if (pdx_open(&ix, db.c_str(), PDX_OPEN_WRITE | PDX_OPEN_CREATE | flags)) {
        fprintf(stderr, "%s: %s\n", db.c_str(), pdx_errmsg(ix));
        pdx_close(ix);
        return -1;
    }
    long puts = 0;
    auto put = [&](const pdx_work *w) {
        long k = puts++;
        if (k == skip)
            return;
        int rc = pdx_put(ix, w);
        check(rc == 0 || rc == PDX_EINVAL,
              "put " + std::string(w->id) + ": " + pdx_errmsg(ix));
        if (k % 37 == 36)
            check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
        if (k % 23 == 11) { /* a read between the puts settles */
            pdx_stats st;
            pdx_stats_init(&st, PDX_STATS_VERSION);
            check(pdx_stats_get(&st, ix) == 0, "stats");
        }
    };
    for (int round = 0; round < 6; round++) {
        for (const std::string &f : files) {
            pdx_reader_options ro;
            pdx_reader_options_init(&ro, PDX_READER_OPTIONS_VERSION);
            ro.page_date = "2025-06-30";
            pdx_reader *rd = nullptr;
            if (pdx_reader_open(&rd, f.c_str(), &ro)) {
                pdx_reader_free(rd);
                continue;
            }
            const pdx_work *w;
            int rc;
            while ((rc = pdx_reader_next(&w, rd)) != PDX_ITEROVER) {
                if (rc == PDX_EIO || rc == PDX_ENOMEM)
                    break;
                if (rc)
                    continue;
                if (round == 0) {
                    /* each record twice in a row: the second replaces
                     * the first, still in flight */
                    put(w);
                    put(w);
                    continue;
                }
                /* rounds 1 to 5: two copies from elsewhere under new
                 * ids, one after the other.  Round 1's merge with the
                 * work they copy (written long ago: the first absorbs
                 * it, which is written at once) and so with each other.
                 * Rounds 2 to 5 share an arXiv id of their own: the
                 * first is a new work, still in flight when the second
                 * looks it up by that id's key.  Their puts pass 1,000,
                 * where the writer trains the records' dictionary
                 * (common/record_store.cc) with documents in flight. */
                const std::string r_tag =
                    round == 1 ? "" : "-r" + std::to_string(round);
                char arxiv[32];
                snprintf(arxiv, sizeof arxiv, "2999.%05ld", puts % 100000);
                for (const char *tag : {"copy-a", "copy-b"}) {
                    pdx_work c = *w;
                    std::string id = std::string(tag) + "-" + w->id + r_tag;
                    std::string src = std::string(w->source ? w->source : "") +
                                      "." + tag + r_tag;
                    c.id = id.c_str();
                    c.source = src.c_str();
                    if (round >= 2) {
                        c.arxiv_id = arxiv;
                        c.doi = c.pmid = c.pmcid = c.openalex_id = nullptr;
                        c.versioned = c.withdrawn = 0;
                    }
                    put(&c);
                }
            }
            pdx_reader_free(rd);
        }
        pdx_source s;
        pdx_source_init(&s, PDX_SOURCE_VERSION);
        pdx_source_get(&s, ix, files[0].c_str()); /* a read: settles */
    }
    check(pdx_commit(ix) == 0, std::string("last commit: ") + pdx_errmsg(ix));
    pdx_close(ix);
    return puts;
}

std::string doc_text(const Xapian::Document &d)
{
    std::string s = d.get_data() + "\n";
    for (auto v = d.values_begin(); v != d.values_end(); ++v)
        s += "v" + std::to_string(v.get_valueno()) + "=" + *v + "\n";
    for (auto t = d.termlist_begin(); t != d.termlist_end(); ++t) {
        s += *t + " " + std::to_string(t.get_wdf()) + ":";
        for (auto p = t.positionlist_begin(); p != t.positionlist_end(); ++p)
            s += " " + std::to_string(*p);
        s += "\n";
    }
    return s;
}

/* The differences between two indexes, 0 if they are the same. */
int differences(const std::string &a_path, const std::string &b_path,
                bool quiet)
{
    Xapian::Database a(a_path), b(b_path);
    int diff = 0;
    if (a.get_doccount() != b.get_doccount() ||
        a.get_lastdocid() != b.get_lastdocid()) {
        if (!quiet)
            fprintf(stderr, "doccount %u/%u, lastdocid %u/%u\n",
                    a.get_doccount(), b.get_doccount(), a.get_lastdocid(),
                    b.get_lastdocid());
        diff++;
    }
    for (Xapian::docid id = 1; id <= std::max(a.get_lastdocid(), b.get_lastdocid()); id++) {
        std::string ta, tb;
        try { ta = doc_text(a.get_document(id)); } catch (const Xapian::DocNotFoundError &) { ta = "(none)"; }
        try { tb = doc_text(b.get_document(id)); } catch (const Xapian::DocNotFoundError &) { tb = "(none)"; }
        if (ta != tb) {
            if (!quiet && diff < 3)
                fprintf(stderr, "docid %u differs:\n--- %s\n+++ %s\n", id,
                        ta.substr(0, 400).c_str(), tb.substr(0, 400).c_str());
            diff++;
        }
    }
    std::string sa, sb;
    for (auto t = a.allterms_begin(); t != a.allterms_end(); ++t)
        sa += *t + " " + std::to_string(t.get_termfreq()) + "\n";
    for (auto t = b.allterms_begin(); t != b.allterms_end(); ++t)
        sb += *t + " " + std::to_string(t.get_termfreq()) + "\n";
    if (sa != sb) {
        if (!quiet)
            fprintf(stderr, "the term lists differ\n");
        diff++;
    }
    return diff;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_builder SAMPLES_DIR WORK_DIR\n");
        return 2;
    }
    std::vector<std::string> files = check_files_in(argv[1]);
    check(files.size() >= 10, "the sample files are there");
    std::string work = argv[2];
    std::string plain = work + "/plain", built = work + "/builder",
                less = work + "/less";
    if (!check_work_dir(work))
        return 2;
    long n1 = build(plain, files, 0, -1);
    long n2 = build(built, files, PDX_OPEN_BUILDER, -1);
    long n3 = build(less, files, 0, n1 - 3); /* a copy: it merges */
    check(n1 > 1100 && n1 == n2 && n1 == n3,
          "the same puts, more than 1,100 (past the dictionary's 1,000)");
    try {
        int d = differences(plain, built, false);
        check(d == 0, "with and without the builder: " + std::to_string(d) +
                          " differences");
        int d3 = differences(plain, less, true);
        check(d3 > 0, "one put fewer makes a different index (" +
                          std::to_string(d3) + " differences)");
        Xapian::Database db(plain);
        check(db.get_doccount() > 20, "works indexed: " +
                                          std::to_string(db.get_doccount()));
    } catch (const Xapian::Error &e) {
        check(false, e.get_description());
    }
    printf("%d puts each\n", (int)n1);
    return check_done();
}
