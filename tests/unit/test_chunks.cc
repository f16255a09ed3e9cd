/*
 * test_chunks.cc -- positions kept by the term (common/chunks.cc): the
 * chunks a ChunkBuilder writes read back exactly through ChunkCursor.
 *
 * What it checks, on random works (random terms, 1 to 40 positions, each
 * written as the stem, as one other form, in several forms, or unknown)
 * written over several commits, as the writer writes them:
 *  - walking each term with next() gives every work holding it, in
 *    docid order, with its positions and each position's form;
 *  - skip_to() to random docids (forward, equal, past the last) lands
 *    on the first work from there on, within a chunk and across chunks
 *    and commits, and so does rewind_to() back to earlier ones, reading
 *    nothing for a work in a chunk it kept;
 *  - a fresh cursor skipping into the second of two namespaces reads
 *    one chunk, not the namespace's chunks before it;
 *  - a term no work holds has no work;
 *  - a damaged chunk is a DatabaseCorruptError;
 *  - with SAMPLES_DIR: corpus/samples indexed with the positions values
 *    (layout 8, PDX_LAYOUT8) and with chunks give the same positions
 *    for every positional term of every work (each field's counted from
 *    its least), and the same forms where the forms values say which
 *    words a work writes; and so does the chunked index built by two
 *    and by three workers, whose shards' chunks the compactor merged.
 *
 * usage: test_chunks WORK_DIR [SAMPLES_DIR]
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <random>
#include <string>
#include <vector>

#include "paperdex.h"
#include "shim_db.hh"

using namespace pdxshim;

namespace {

int failures = 0;

void check(bool ok, const std::string &what)
{
    if (!ok) {
        failures++;
        std::fprintf(stderr, "FAIL %s\n", what.c_str());
    }
}

void check_at(const std::string &when, bool ok, const std::string &what)
{
    check(ok, when + ": " + what);
}

struct Want {
    std::vector<Xapian::termpos> at;
    std::vector<uint32_t> form; /* per position; empty with unsure */
    bool unsure = false;
};

/* Index samples into dir/name, with chunks or with the values. */
void index_samples(const std::string &db, const char *samples, bool chunks,
                   unsigned jobs = 1)
{
    if (chunks)
        unsetenv("PDX_LAYOUT8");
    else
        setenv("PDX_LAYOUT8", "1", 1);
    pdx_sync_options o = PDX_SYNC_OPTIONS_INIT;
    o.full = 1;
    o.jobs = jobs;
    pdx_sync_summary sum = PDX_SYNC_SUMMARY_INIT;
    const char *src[] = {samples};
    if (int rc = pdx_sync(&sum, db.c_str(), src, 1, &o)) {
        std::fprintf(stderr, "cannot index %s into %s: %d %s\n", samples, db.c_str(), rc, sum.message);
        std::exit(1);
    }
    unsetenv("PDX_LAYOUT8");
}

/* Each field's positions less its least, as the chunks keep them. */
std::map<std::string, std::vector<Xapian::termpos>>
relative(const std::map<std::string, std::vector<Xapian::termpos>> &by_term)
{
    std::map<char, Xapian::termpos> base;
    auto field = [](const std::string &t) {
        return t[0] == 'S' || t[0] == 'A' ? t[0] : '\0';
    };
    for (const auto &kv : by_term) {
        auto it = base.find(field(kv.first));
        if (it == base.end() || kv.second[0] < it->second)
            base[field(kv.first)] = kv.second[0];
    }
    std::map<std::string, std::vector<Xapian::termpos>> out;
    for (const auto &kv : by_term)
        for (Xapian::termpos p : kv.second)
            out[kv.first].push_back(p - base[field(kv.first)]);
    return out;
}

void same_as_values(const std::string &dir, const char *samples, unsigned jobs)
{
    const std::string v8 = dir + "-values", v9 = dir + "-chunks";
    index_samples(v8, samples, false);
    index_samples(v9, samples, true, jobs);
    Xapian::Database a(v8), b(v9);
    const auto space = std::make_shared<const ChunkSpace>(b);
    check(b.get_metadata(LAYOUT_META_CHUNKS) == "1", "the chunked index is stamped");
    check(a.get_doccount() == b.get_doccount(), "as many works");
    size_t terms = 0, works = 0, formed = 0;
    std::set<std::string> compared;
    for (Xapian::PostingIterator p = a.postlist_begin(""); p != a.postlist_end(""); ++p) {
        const Xapian::Document da = a.get_document(*p);
        const std::string id = da.get_value(SLOT_ID);
        /* the same work in the chunked index, by its id term */
        Xapian::docid db_did = 0;
        for (Xapian::TermIterator t = da.termlist_begin(); t != da.termlist_end(); ++t)
            if ((*t)[0] == 'Q') {
                Xapian::PostingIterator q = b.postlist_begin(*t);
                if (q != b.postlist_end(*t))
                    db_did = *q;
                break;
            }
        check(db_did != 0, id + ": in the chunked index");
        if (!db_did)
            continue;
        works++;
        const std::string value = da.get_value(SLOT_POSITIONS);
        std::vector<std::string> positional;
        for (Xapian::TermIterator t = da.termlist_begin(); t != da.termlist_end(); ++t) {
            const std::string &n = *t;
            if (n.empty() || (n[0] >= 'A' && n[0] <= 'Z' && n[0] != 'S' && n[0] != 'A'))
                continue;
            if ((n[0] == 'S' || n[0] == 'A') && n.size() > 1 && n[1] >= 'A' && n[1] <= 'Z')
                continue;
            positional.push_back(n);
        }
        std::vector<std::vector<Xapian::termpos>> pos;
        if (value.empty()) /* a work without words */
            pos.assign(positional.size(), {});
        else
            positions_find(value, *p, positional, pos);
        std::map<std::string, std::vector<Xapian::termpos>> by_term;
        for (size_t i = 0; i < positional.size(); i++)
            if (!pos[i].empty())
                by_term[positional[i]] = pos[i];
        const auto want = relative(by_term);
        const std::string forms = da.get_value(SLOT_FORMS);
        for (const auto &kv : want) {
            ChunkCursor c(b, kv.first, space);
            const bool got = c.skip_to(db_did) && c.did == db_did;
            compared.insert(kv.first + "@" + std::to_string(db_did));
            check(got && c.positions() == kv.second, id + ": positions of " + kv.first);
            terms++;
            /* each form the chunk names is one the work writes */
            if (got && !c.forms_unknown())
                for (size_t i = 0; i < c.positions().size(); i++) {
                    const uint32_t f = c.form_at(i);
                    if (!f)
                        continue;
                    formed++;
                    bool listed = false;
                    for (size_t k = 1; k + 4 <= forms.size(); k += 4) {
                        uint32_t h = 0;
                        for (int j = 0; j < 4; j++)
                            h |= static_cast<uint32_t>(static_cast<unsigned char>(forms[k + j])) << (8 * j);
                        listed |= h == f;
                    }
                    check(listed, id + ": a form of " + kv.first + " the work writes");
                }
        }
    }
    /* and nothing more: the chunks' entries, all terms together, are
     * the ones compared (but the common grams, which no positions value
     * holds: test_common_grams.cc checks them) */
    size_t all = 0, stale = 0;
    std::string last_term;
    for (Xapian::TermIterator k = b.metadata_keys_begin(std::string(1, '\1'));
         k != b.metadata_keys_end(std::string(1, '\1')); ++k) {
        const std::string key = *k;
        const std::string term = key.substr(1, key.find('\0', 1) - 1);
        if (term == last_term || term.compare(0, 2, LAYOUT_P_COMMON_GRAM) == 0)
            continue;
        last_term = term;
        for (ChunkCursor c(b, term, space); c.next();) {
            /* a work deleted (merged into another) keeps its entries
             * until the index is compacted */
            try {
                b.get_document(c.did, Xapian::DOC_ASSUME_VALID);
                (void)b.get_doclength(c.did);
            } catch (const Xapian::DocNotFoundError &) {
                stale++;
                continue;
            }
            all++;
            check(compared.count(term + "@" + std::to_string(c.did)) == 1,
                  "an entry the values lack: " + term + " in " + std::to_string(c.did));
        }
    }
    check(all == terms, "the chunks hold " + std::to_string(all) + " entries, not " + std::to_string(terms));
    std::printf("samples: %zu works, %zu terms' positions and %zu forms as the values give them "
                "(and %zu entries of deleted works)\n", works, terms, formed, stale);
    check(works > 100 && terms > 3000 && formed > 1000, "the samples were compared");
}

/* Two namespaces, as the compactor leaves a --jobs 2 build: works 1 to
 * 2000 of each, the second's moved by 2000.  A fresh cursor skipping
 * into either reads the chunk it lands in (and at most the next, read
 * ahead), not every chunk of its namespace before it, which a skip
 * keyed by the first chunk's namespace would read. */
void namespaces(const std::string &dir)
{
    const Xapian::docid per_ns = 2000;
    {
        Xapian::WritableDatabase db(dir, Xapian::DB_CREATE_OR_OVERWRITE);
        for (unsigned char ns = 1; ns <= 2; ns++) {
            ChunkBuilder b;
            b.ns = ns;
            for (Xapian::docid d = 1; d <= per_ns; d++) {
                ChunkTerm t;
                t.term = "every";
                t.at = {d % 7, d % 7 + 3};
                b.add(d, std::vector<ChunkTerm>{t});
            }
            b.commit(db, true);
            db.set_metadata(LAYOUT_META_CHUNK_OFF + std::to_string(ns),
                            std::to_string((ns - 1) * per_ns) + " 1 " +
                                std::to_string(per_ns));
        }
        db.set_metadata(LAYOUT_META_CHUNKS, "1");
        db.commit();
    }
    Xapian::Database db(dir);
    const auto space = std::make_shared<const ChunkSpace>(db);
    for (Xapian::docid d : {Xapian::docid(5), Xapian::docid(1500),
                            Xapian::docid(2001), Xapian::docid(3900),
                            Xapian::docid(4000)}) {
        ChunkCursor c(db, "every", space);
        const Xapian::docid local = (d - 1) % per_ns + 1;
        const std::vector<Xapian::termpos> at = {local % 7, local % 7 + 3};
        const bool got = c.skip_to(d);
        check(got && c.did == d && c.positions() == at,
              "namespaces: skip_to(" + std::to_string(d) + ") gives " +
                  std::to_string(c.did));
        check(c.chunks_read() <= 2,
              "namespaces: a fresh cursor's skip_to(" + std::to_string(d) +
                  ") read " + std::to_string(c.chunks_read()) + " chunks, not 1 or 2");
    }
    ChunkCursor all(db, "every", space);
    Xapian::docid n = 0;
    while (all.next())
        check(all.did == ++n, "namespaces: next() gives " + std::to_string(all.did));
    check(n == 2 * per_ns, "namespaces: " + std::to_string(n) + " works walked");
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        std::fprintf(stderr, "usage: test_chunks WORK_DIR [SAMPLES_DIR]\n");
        return 2;
    }
    const std::string dir = argv[1];
    std::mt19937 rng(20261130);
    std::map<std::string, std::map<Xapian::docid, Want>> want;
    std::vector<std::string> names = {"model", "Smodel", "Amodel", "graph", "neural",
                                      "Sgraph", "x", "long-term-name-of-a-term"};
    /* and rarer terms, enough for probes to meet other terms' slots */
    for (int i = 0; i < 600; i++)
        names.push_back("t" + std::to_string(i));
    const uint32_t forms[] = {0x11111111u, 0x22222222u, 0x33333333u,
                              0xdeadbeefu};
    Xapian::docid did = 0;
    /* A commit's works: random terms, positions and forms. */
    auto works_of_a_commit = [&](ChunkBuilder &b) {
    const int works = 1 + static_cast<int>(rng() % 400);
    for (int w = 0; w < works; w++) {
        did += 1 + rng() % 3; /* deleted works leave gaps */
        std::vector<ChunkTerm> terms;
        for (const std::string &name : names) {
            if (name[0] == 't' ? rng() % 30 : rng() % 3)
                continue; /* the work does not hold it */
            ChunkTerm t;
            t.term = name;
            const unsigned n = 1 + rng() % (rng() % 8 ? 4 : 40);
            Xapian::termpos at = rng() % 300;
            const unsigned style = rng() % 4;
            for (unsigned i = 0; i < n; i++) {
                t.at.push_back(at);
                at += 1 + rng() % (rng() % 4 ? 5 : 400);
                if (style == 1)
                    t.form.push_back(forms[did % 4]);
                else if (style == 2)
                    t.form.push_back(rng() % 2 ? forms[rng() % 4] : 0);
                else if (style == 0 && rng() % 2)
                    t.form.push_back(0);
            }
            if (style == 0 && t.form.size() != t.at.size())
                t.form.clear(); /* all the stem: said either way */
            t.unsure = style == 3;
            Want &wnt = want[name][did];
            wnt.at = t.at;
            wnt.unsure = t.unsure;
            wnt.form = t.unsure ? std::vector<uint32_t>()
                       : t.form.empty()
                           ? std::vector<uint32_t>(t.at.size(), 0)
                           : t.form;
            terms.push_back(t);
        }
        b.add(did, terms);
    }
    };
    size_t entries = 0;
    /* Every term's works, read back: next() and skip_to(). */
    auto verify = [&](const std::string &when) {
        Xapian::Database db(dir);
        /* one for all the cursors on db, as a search shares it */
        const auto space = std::make_shared<const ChunkSpace>(db);
        for (const auto &kv : want) {
            const std::string &term = kv.first;
            ChunkCursor c(db, term, space);
            auto it = kv.second.begin();
            while (c.next()) {
                if (it == kv.second.end()) {
                    check_at(when, false, term + ": a work past the last");
                    break;
                }
                entries++;
                const std::string at = term + " in " + std::to_string(c.did);
                check_at(when, c.did == it->first, at + ": docid " + std::to_string(it->first) + " expected");
                check_at(when, c.positions() == it->second.at, at + ": positions");
                check_at(when, c.forms_unknown() == it->second.unsure, at + ": forms known");
                if (!it->second.unsure)
                    for (size_t i = 0; i < c.positions().size() && i < it->second.form.size(); i++)
                        check_at(when, c.form_at(i) == it->second.form[i],
                              at + ": the form of position " + std::to_string(i));
                ++it;
            }
            check_at(when, it == kv.second.end(), term + ": works missing");
            /* skip_to: random targets, ascending, some equal to a work's */
            for (int round = 0; round < 20; round++) {
                ChunkCursor s(db, term, space);
                if (round % 2)
                    s.keep();
                Xapian::docid to = 0;
                for (;;) {
                    to += 1 + rng() % (rng() % 2 ? 3 : 200);
                    auto first = kv.second.lower_bound(to);
                    const bool got = s.skip_to(to);
                    if (first == kv.second.end()) {
                        check_at(when, !got, term + ": skip_to past the last finds nothing");
                        break;
                    }
                    check_at(when, got && s.did == first->first && s.positions() == first->second.at,
                          term + ": skip_to(" + std::to_string(to) + ") gives " +
                              std::to_string(s.did) + ", not " + std::to_string(first->first));
                    if (rng() % 3 == 0) { /* to the same work again */
                        check_at(when, s.skip_to(to) && s.did == first->first, term + ": skip_to again stays");
                    }
                    if (round % 2 && rng() % 4 == 0) {
                        /* back to an earlier work: from the chunks kept
                         * (none read for the work it is at), or from
                         * the term's start */
                        const unsigned long read = s.chunks_read();
                        check_at(when, s.rewind_to(first->first) && s.did == first->first &&
                                           s.chunks_read() == read,
                                 term + ": rewind_to the work it is at reads nothing");
                        const Xapian::docid back = 1 + rng() % to;
                        auto b = kv.second.lower_bound(back);
                        check_at(when, s.rewind_to(back) && s.did == b->first && s.positions() == b->second.at,
                                 term + ": rewind_to(" + std::to_string(back) + ") gives " +
                                     std::to_string(s.did) + ", not " + std::to_string(b->first));
                        check_at(when, s.skip_to(to) && s.did == first->first,
                                 term + ": skip_to after rewind_to");
                    }
                }
            }
        }
    };
    {
        /* A writer that commits three times and never ends: its last
         * works are in deltas only. */
        Xapian::WritableDatabase db(dir, Xapian::DB_CREATE_OR_OVERWRITE);
        ChunkBuilder b;
        b.tag_mask = 0; /* every probe meets the first term's slot */
        for (int commit = 0; commit < 3; commit++) {
            works_of_a_commit(b);
            b.commit(db, false);
            db.commit();
        }
    }
    verify("a writer that did not end");
    {
        Xapian::WritableDatabase db(dir, Xapian::DB_OPEN);
        check(db.metadata_keys_begin(std::string(1, DELTA_PREFIX)) !=
                  db.metadata_keys_end(std::string(1, DELTA_PREFIX)),
              "it left deltas");
        /* the next writer folds them in at its first commit */
        ChunkBuilder b;
        b.tag_mask = 1; /* half the probes meet another's slot */
        b.start(db);
        for (int commit = 0; commit < 3; commit++) {
            works_of_a_commit(b);
            b.commit(db, false);
            db.commit();
            verify("the next writer, commit " + std::to_string(commit));
        }
        works_of_a_commit(b);
        b.commit(db, true);
        db.commit();
        check(db.metadata_keys_begin(std::string(1, DELTA_PREFIX)) ==
                  db.metadata_keys_end(std::string(1, DELTA_PREFIX)),
              "a writer that ends leaves no delta");
    }
    verify("a writer that ended");
    Xapian::Database db(dir);
    ChunkCursor none(db, "nowhere", std::make_shared<const ChunkSpace>(db));
    check(!none.next() && !none.skip_to(1), "a term no work holds");
    /* A damaged chunk: its forms count past its end. */
    {
        Xapian::WritableDatabase w(dir, Xapian::DB_OPEN);
        w.set_metadata(chunk_key("broken", CHUNK_NS_ONE, 7), std::string("\x05\x01", 2));
        w.commit();
    }
    Xapian::Database again(dir);
    bool threw = false;
    try {
        ChunkCursor b(again, "broken", std::make_shared<const ChunkSpace>(again));
        b.next();
    } catch (const Xapian::DatabaseCorruptError &) {
        threw = true;
    }
    check(threw, "a damaged chunk is a DatabaseCorruptError");
    std::printf("%zu entries of %zu terms read back\n", entries, want.size());
    namespaces(dir + "-ns");
    if (argc == 3) {
        same_as_values(dir, argv[2], 1);
        /* shards merged by the compactor: each its namespace, moved by
         * its offset */
        same_as_values(dir, argv[2], 2);
        same_as_values(dir, argv[2], 3);
    }
    std::printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
