/*
 * fuzz_chunks.cc -- libFuzzer target for layout 9's positions chunks
 * (common/chunks.cc): the input is the metadata items an index would
 * hold for them, written into an in-memory Xapian database, then walked
 * with ChunkCursor as a phrase walks them: every work in turn with its
 * positions and forms, then skip_to() and rewind_to() to the works met.
 * Any outcome but a crash, a hang or undefined behaviour is fine, as
 * long as the cursor keeps its promises: a damaged chunk is a
 * DatabaseCorruptError, and skip_to(d) lands on a work at d or later.
 *
 * The input, item after item until it runs out:
 *
 *   0 t ns last[4] len[2] bytes   a chunk of term t (even: "model",
 *                                 odd: "Smodel"), key 0x01 term 0x00 ns
 *                                 last (big-endian, as stored)
 *   1 ns seq[4] len[2] bytes      a delta, key 0x02 ns seq
 *   2 ns len[2] bytes             a namespace's docid offset and range
 *                                 (paperdex.chunks.off.<ns>: "off lo hi")
 *
 * (the first byte taken modulo 3, len little-endian and cut at what is
 * left).  tests/fuzz/seeds/chunks holds items a real index wrote.
 */
#include <xapian.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "layout.h"
#include "shim_db.hh"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

/* The next n bytes of the input (fewer at its end). */
std::string take(const uint8_t *&p, const uint8_t *e, size_t n)
{
    if (n > static_cast<size_t>(e - p))
        n = static_cast<size_t>(e - p);
    std::string s(reinterpret_cast<const char *>(p), n);
    p += n;
    return s;
}

size_t take_len(const uint8_t *&p, const uint8_t *e)
{
    const std::string l = take(p, e, 2);
    return l.size() < 2 ? 0
                        : static_cast<unsigned char>(l[0]) |
                              static_cast<size_t>(static_cast<unsigned char>(l[1])) << 8;
}

/* A glass database made afresh for each input in a directory of the
 * process's own, removed at its exit (Xapian's in-memory backend lists
 * no metadata keys).  Nothing is committed: a writer reads its own
 * pending items. */
std::string scratch_dir;

void remove_scratch()
{
    if (!scratch_dir.empty()) {
        const std::string rm = "rm -rf '" + scratch_dir + "'";
        if (system(rm.c_str()) != 0)
            fprintf(stderr, "fuzz_chunks: could not remove %s\n", scratch_dir.c_str());
    }
}

const std::string &scratch()
{
    if (scratch_dir.empty()) {
        const char *tmp = getenv("TMPDIR");
        std::string t = std::string(tmp && *tmp ? tmp : "/tmp") + "/fuzz_chunks-XXXXXX";
        if (!mkdtemp(&t[0]))
            abort();
        scratch_dir = t;
        atexit(remove_scratch);
    }
    return scratch_dir;
}

/* One walk of term's cursor: every work, then skips to works met. */
void walk(const Xapian::Database &db, const std::string &term,
          const std::shared_ptr<const pdxshim::ChunkSpace> &space)
{
    std::vector<Xapian::docid> met;
    {
        pdxshim::ChunkCursor c(db, term, space);
        for (size_t steps = 0; steps < 100000 && c.next(); steps++) {
            met.push_back(c.did);
            const std::vector<Xapian::termpos> &at = c.positions();
            if (at.size() != c.count_positions())
                abort();
            for (size_t i = 0; i < at.size(); i++)
                (void)c.form_at(i);
            (void)c.one_form();
            (void)c.forms_unknown();
        }
    }
    pdxshim::ChunkCursor s(db, term, space);
    s.keep();
    for (size_t i = 0; i < met.size() && i < 64; i += 1 + i / 4) {
        const Xapian::docid d = met[i] + (i & 1);
        if (s.skip_to(d) && s.did < d)
            abort();
    }
    for (size_t i = 0; i < met.size() && i < 16; i += 3) {
        const Xapian::docid d = met[i];
        if (s.rewind_to(d) && s.did < d)
            abort();
        (void)s.positions();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Xapian::WritableDatabase db(scratch(), Xapian::DB_CREATE_OR_OVERWRITE |
                                               Xapian::DB_BACKEND_GLASS);
    const uint8_t *p = data, *e = data + size;
    while (p < e) {
        const unsigned kind = *p++ % 3;
        if (kind == 0) {
            const std::string t = take(p, e, 1);
            const std::string ns = take(p, e, 1), last = take(p, e, 4);
            if (t.empty() || ns.empty() || last.size() < 4)
                break;
            const std::string value = take(p, e, take_len(p, e));
            db.set_metadata(pdxshim::chunk_prefix(t[0] & 1 ? "Smodel" : "model") +
                                ns + last,
                            value);
        } else if (kind == 1) {
            const std::string ns = take(p, e, 1), seq = take(p, e, 4);
            if (ns.empty() || seq.size() < 4)
                break;
            const std::string value = take(p, e, take_len(p, e));
            db.set_metadata(std::string(1, '\x02') + ns + seq, value);
        } else {
            const std::string ns = take(p, e, 1);
            if (ns.empty())
                break;
            const std::string value = take(p, e, take_len(p, e));
            db.set_metadata(LAYOUT_META_CHUNK_OFF +
                                std::to_string(static_cast<unsigned char>(ns[0])),
                            value.empty() ? std::string("0") : value);
        }
    }
    try {
        auto space = std::make_shared<const pdxshim::ChunkSpace>(db);
        walk(db, "model", space);
        walk(db, "Smodel", space);
    } catch (const Xapian::DatabaseCorruptError &) {
    }
    return 0;
}
