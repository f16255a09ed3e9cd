/*
 * record_store.cc -- the stored record: how a work's JSON record is kept in
 * the index and read back (layout 6).  Both sides use it: the writer packs
 * (indexer/shim_write.cc), every reader unpacks (searcher/shim_read.cc,
 * the merge's lookups in common/shim.cc).
 *
 * Each work's record (corpus/merge.c's JSON, what `paperdex show`
 * prints) is one zstd frame in value slot SLOT_RECORD; the document data
 * Xapian keeps for it is empty.  Why not Xapian's document data: glass
 * deflates it (zlib, level 6) on the writer's thread as each document is
 * added, and a record of 1.7 KB alone compresses poorly, to 0.53 of its
 * size.  A value is stored as it is given (glass keeps values in the
 * posting list table, which it does not compress), so the writer can
 * compress it itself, on the builder thread, with a better codec: zstd
 * at level 3 with a dictionary trained on the index's own records packs
 * the arXiv records to 0.35 of their size, 4.5 times faster than
 * Xapian's deflate packs them to 0.53.  Reading one back costs about 2
 * microseconds.
 *
 * The dictionary.  A writer on an index without one keeps the first
 * DICT_SAMPLES records it stores (stored meanwhile as frames without a
 * dictionary), then trains a dictionary of DICT_BYTES from them with
 * zstd's own trainer (ZDICT_trainFromBuffer: deterministic, about 0.1
 * s), writes it into the index's metadata under
 * LAYOUT_META_ZDICT<id> (id: the dictionary's own id, derived from its
 * content, decimal), and packs every later record with it.  The metadata
 * goes into the commit of the records that use it, so no committed
 * record lacks its dictionary.  A writer on an index that has one uses
 * the first (by key).  The `--jobs` shards each train their own; the
 * compactor that merges them keeps every dictionary key, so the merged
 * index holds both and a record names its own (a zstd frame carries its
 * dictionary's id).  If training fails (too few distinct bytes), the
 * records stay frames without a dictionary.
 *
 * Reading: the frame's dictionary id is looked up, once per id and
 * handle, in the metadata of each database the handle searches (Xapian
 * answers get_metadata from the first shard only, so shim_db keeps its
 * shards apart in `subs`).  A document without a record value is of
 * layout 5 or before: its record is the document data.
 */
#include <xapian.h>

#include <zdict.h>
#include <zstd.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "shim_db.hh"

namespace pdxshim {

namespace {

const int LEVEL = 3;
const size_t DICT_SAMPLES = 1000;
const size_t DICT_BYTES = 64 * 1024;

std::string dict_key(unsigned id)
{
    return std::string(LAYOUT_META_ZDICT) + std::to_string(id);
}

} // namespace

/* ---- the writer's side ------------------------------------------------ */

RecordDict::RecordDict(const std::string &bytes)
    : id(ZDICT_getDictID(bytes.data(), bytes.size())),
      cdict(ZSTD_createCDict(bytes.data(), bytes.size(), LEVEL))
{
    if (!cdict)
        throw std::bad_alloc();
}

RecordDict::~RecordDict() { ZSTD_freeCDict(cdict); }

RecordPacker::RecordPacker() : cctx(ZSTD_createCCtx())
{
    if (!cctx)
        throw std::bad_alloc();
}

RecordPacker::~RecordPacker() { ZSTD_freeCCtx(cctx); }

std::string RecordPacker::pack(const RecordDict *dict, const char *data,
                               size_t len)
{
    std::string out(ZSTD_compressBound(len), '\0');
    size_t n = dict ? ZSTD_compress_usingCDict(cctx, &out[0], out.size(),
                                               data, len, dict->cdict)
                    : ZSTD_compressCCtx(cctx, &out[0], out.size(), data,
                                        len, LEVEL);
    if (ZSTD_isError(n))
        throw Xapian::InternalError(std::string("zstd: ") +
                                    ZSTD_getErrorName(n));
    out.resize(n);
    return out;
}

void RecordTrainer::open(Xapian::WritableDatabase &wdb)
{
    Xapian::TermIterator k = wdb.metadata_keys_begin(LAYOUT_META_ZDICT);
    if (k == wdb.metadata_keys_end(LAYOUT_META_ZDICT))
        return;
    current = std::make_shared<const RecordDict>(wdb.get_metadata(*k));
    trained = true;
}

std::shared_ptr<const RecordDict>
RecordTrainer::note(Xapian::WritableDatabase &wdb, const char *data,
                    size_t len)
{
    if (trained)
        return current;
    samples.append(data, len);
    sizes.push_back(len);
    if (sizes.size() < DICT_SAMPLES)
        return current;
    trained = true; /* one try a writer */
    std::string dict(DICT_BYTES, '\0');
    size_t n = ZDICT_trainFromBuffer(&dict[0], dict.size(), samples.data(),
                                     sizes.data(),
                                     static_cast<unsigned>(sizes.size()));
    std::string().swap(samples);
    std::vector<size_t>().swap(sizes);
    if (!ZDICT_isError(n)) {
        dict.resize(n);
        current = std::make_shared<const RecordDict>(dict);
        wdb.set_metadata(dict_key(current->id), dict);
    }
    return nullptr; /* this record was a sample: packed as the others */
}

/* ---- the reader's side ------------------------------------------------ */

struct RecordReader {
    ZSTD_DCtx *dctx = nullptr;
    std::map<unsigned, ZSTD_DDict *> dicts;

    RecordReader() : dctx(ZSTD_createDCtx())
    {
        if (!dctx)
            throw std::bad_alloc();
    }
    ~RecordReader()
    {
        for (auto &d : dicts)
            ZSTD_freeDDict(d.second);
        ZSTD_freeDCtx(dctx);
    }
};

void free_record_reader(RecordReader *r) { delete r; }

/* What a record that cannot be read is: the index is damaged. */
[[noreturn]] static void unreadable(const Xapian::Document &doc,
                                    const std::string &why)
{
    throw Xapian::DatabaseCorruptError("the stored record of document " +
                                       std::to_string(doc.get_docid()) +
                                       " " + why);
}

std::string stored_record(shim_db *h, const Xapian::Document &doc)
{
    const std::string v = doc.get_value(SLOT_RECORD);
    if (v.empty())
        return doc.get_data(); /* layout 5 and before */
    if (!h->records)
        h->records.reset(new RecordReader);
    RecordReader &r = *h->records;
    const unsigned id = ZSTD_getDictID_fromFrame(v.data(), v.size());
    ZSTD_DDict *dd = nullptr;
    if (id) {
        auto it = r.dicts.find(id);
        if (it == r.dicts.end()) {
            std::string bytes;
            for (const Xapian::Database &sub : h->subs)
                if (!(bytes = sub.get_metadata(dict_key(id))).empty())
                    break;
            if (bytes.empty())
                unreadable(doc, "needs dictionary " + std::to_string(id) +
                                    ", which the index lacks");
            dd = ZSTD_createDDict(bytes.data(), bytes.size());
            if (!dd)
                throw std::bad_alloc();
            r.dicts[id] = dd;
        } else {
            dd = it->second;
        }
    }
    const unsigned long long size =
        ZSTD_getFrameContentSize(v.data(), v.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
        size > (1u << 30))
        unreadable(doc, "is not a zstd frame");
    std::string out(static_cast<size_t>(size), '\0');
    size_t n = dd ? ZSTD_decompress_usingDDict(r.dctx, &out[0], out.size(),
                                               v.data(), v.size(), dd)
                  : ZSTD_decompressDCtx(r.dctx, &out[0], out.size(),
                                        v.data(), v.size());
    if (ZSTD_isError(n) || n != out.size())
        unreadable(doc, std::string("does not decompress: ") +
                            (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short"));
    return out;
}

} // namespace pdxshim
