/*
 * shim_write.cc -- the write side's Xapian code: a work in (its terms,
 * values and stored record, by the layout in common/layout.h), works out,
 * metadata written, commits, and compaction.  Behind indexer/shim_write.h;
 * the exception fence and the handle are common/shim.cc's.
 */
#include <xapian.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <memory>
#include <string>
#include <vector>

#include "../common/shim_db.hh"
#include "shim_write.h"
extern "C" {
#include "../common/text.h"
}

using namespace pdxshim;

namespace {

const Xapian::termpos FIELD_GAP = LAYOUT_FIELD_GAP;

/* The term generator: the layout's stems, stop words left out. */
struct Writer : Side {
    Xapian::TermGenerator tg;
    explicit Writer(shim_db *h)
    {
        tg.set_stemmer(h->stem);
        tg.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
        tg.set_stopper(&h->stopper);
        tg.set_stopper_strategy(Xapian::TermGenerator::STOP_ALL);
        tg.set_max_word_length(LAYOUT_MAX_WORD_BYTES);
    }
};

Writer &writer(shim_db *h)
{
    if (!h->writer)
        h->writer.reset(new Writer(h));
    return static_cast<Writer &>(*h->writer);
}

/* Unlink the files directly in p (a half-written index is flat); p
 * itself stays. */
void empty_dir(const std::string &p)
{
    DIR *d = opendir(p.c_str());
    if (!d)
        return;
    std::vector<std::string> names;
    while (struct dirent *de = readdir(d))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            names.push_back(p + "/" + de->d_name);
    closedir(d);
    for (const std::string &n : names)
        unlink(n.c_str());
}

/* Add a boolean term, never one over Xapian's limit. */
void add_boolean(Xapian::Document &doc, const char *prefix, const char *key)
{
    if (!key || !*key)
        return;
    std::string t = std::string(prefix) + cut_key(key);
    if (t.size() <= MAX_TERM_BYTES)
        doc.add_boolean_term(t);
}

/* Index one field's text (accents folded) as positional stems under
 * prefix ("" for the default field), then leave a gap so that no phrase
 * spans two fields. */
void index_field(Xapian::TermGenerator &tg, const char *text,
                 const char *prefix)
{
    if (!text || !*text)
        return;
    size_t n = strlen(text), flen = 0;
    char *folded = text_unaccent(text, n, &flen);
    if (folded) {
        std::unique_ptr<char, void (*)(void *)> own(folded, free);
        tg.index_text(std::string(folded, flen), 1, prefix);
    } else {
        tg.index_text(std::string(text, n), 1, prefix);
    }
    tg.increase_termpos(FIELD_GAP);
}

/* What every writing entry point says on a read-only handle. */
int read_only(shim_err *e)
{
    set_msg(e, PDX_EINVAL, "index was opened read-only");
    return PDX_EINVAL;
}

/* What writing on a handle that holds an older layout says. */
bool old_layout(shim_db *h, shim_err *e)
{
    if (h->layout == PDX_LAYOUT_VERSION || h->layout == 0)
        return false;
    set_msg(e, PDX_EVERSION,
            "'" + h->path + "' has index layout " + std::to_string(h->layout) +
                ": it is rebuilt, not written to");
    return true;
}

} // namespace

extern "C" int shim_compact(shim_db *h, const char *dest, shim_err *e)
{
    try {
        /* Copy the newest revision.  A commit may still discard it
         * midway: then start again from the newest, over whatever the
         * failed try wrote.  (Xapian 1.4's compactor leaks its table
         * buffers, about 50 KB, each time that happens.) */
        if (!h->writable)
            h->db.reopen();
        with_reopen(h, [&] {
            empty_dir(dest);
            h->db.compact(dest, Xapian::DBCOMPACT_MULTIPASS);
        });
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_put(shim_db *h, const shim_doc *d, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        if (old_layout(h, e))
            return PDX_EVERSION;
        Xapian::Document doc;
        Xapian::TermGenerator &tg = writer(h).tg;
        tg.set_document(doc);
        /* Layout 4 (common/layout.h): the abstract's stems are the
         * default field's positional terms; title and author stems are
         * positional under S and A. */
        index_field(tg, d->title, LAYOUT_P_TITLE);
        index_field(tg, d->abstract, "");
        for (size_t i = 0; i < d->n_authors; i++)
            index_field(tg, d->authors[i].name, LAYOUT_P_AUTHOR);
        /* Then the title and author stems join the default field without
         * positions (title words TITLE_WDF times), and a stem the
         * abstract shares with them gets XB<stem>, which says that the
         * abstract has it.  The document's terms are sorted: the prefixed
         * ones (upper case) first, then the abstract's. */
        std::vector<std::pair<std::string, Xapian::termcount>> plain;
        std::vector<std::string> in_abstract;
        Xapian::termcount abstract_words = 0;
        for (Xapian::TermIterator t = doc.termlist_begin();
             t != doc.termlist_end(); ++t) {
            std::string stem;
            const char *field = term_field(*t, stem);
            if (!strcmp(field, "text")) {
                in_abstract.push_back(stem);
                abstract_words += t.get_wdf();
            } else
                plain.emplace_back(stem, t.get_wdf() *
                                             (!strcmp(field, "title") ? TITLE_WDF : 1));
        }
        for (const auto &pw : plain) {
            if (std::binary_search(in_abstract.begin(), in_abstract.end(),
                                   pw.first))
                add_boolean(doc, LAYOUT_P_ABSTRACT, pw.first.c_str());
            doc.add_term(pw.first, pw.second);
        }
        /* The document length of layout 3, which also counted the
         * abstract's XB copies: BM25 was tuned on it (bench/eval.py). */
        if (abstract_words)
            doc.add_term(LAYOUT_LENGTH_PAD, abstract_words);
        for (size_t i = 0; i < d->n_authors; i++) {
            const shim_author &a = d->authors[i];
            add_boolean(doc, LAYOUT_P_AUTHOR_FAMILY, a.family);
            add_boolean(doc, LAYOUT_P_AUTHOR_INITIAL, a.initial);
            add_boolean(doc, LAYOUT_P_AUTHOR_FULL, a.full);
        }
        for (size_t i = 0; i < d->n_cat_keys; i++)
            add_boolean(doc, LAYOUT_P_CATEGORY, d->cat_keys[i]);
        for (size_t i = 0; i < d->n_subject_keys; i++)
            add_boolean(doc, LAYOUT_P_SUBJECT, d->subject_keys[i]);
        std::string idterm = std::string(LAYOUT_P_ID) + d->id;
        if (idterm.size() > MAX_TERM_BYTES) { /* write.c prevents this */
            set_msg(e, PDX_EINVAL, "id too long");
            return PDX_EINVAL;
        }
        doc.add_boolean_term(idterm);
        for (size_t i = 0; i < d->n_terms; i++) {
            std::string t(d->terms[i]);
            if (!t.empty() && t.size() <= MAX_TERM_BYTES)
                doc.add_boolean_term(t);
        }
        for (size_t i = 0; i < d->n_delete_ids; i++)
            if (strcmp(d->delete_ids[i], d->id) != 0)
                h->wdb.delete_document(std::string(LAYOUT_P_ID) + d->delete_ids[i]);
        if (d->year > 0)
            doc.add_value(SLOT_YEAR, Xapian::sortable_serialise(d->year));
        if (d->date_key && *d->date_key)
            doc.add_value(SLOT_DATE, d->date_key);
        doc.add_value(SLOT_ID, d->id);
        std::string cats, names, subjects;
        for (size_t i = 0; i < d->n_subjects; i++)
            (subjects += (i ? std::string(1, FACET_SEP) : "")) += d->subjects[i];
        if (!subjects.empty())
            doc.add_value(SLOT_SUBJECTS, subjects);
        for (size_t i = 0; i < d->n_categories; i++)
            (cats += (i ? std::string(1, FACET_SEP) : "")) += d->categories[i];
        for (size_t i = 0; i < d->n_authors; i++)
            (names += (i ? std::string(1, FACET_SEP) : "")) += d->authors[i].name;
        if (!cats.empty())
            doc.add_value(SLOT_CATS, cats);
        if (!names.empty())
            doc.add_value(SLOT_AUTHORS, names);
        doc.set_data(std::string(d->data, d->data_len));
        if (d->fresh)
            h->wdb.add_document(doc);
        else
            h->wdb.replace_document(idterm, doc);
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_meta_set(shim_db *h, const char *key, const char *value,
                             shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        h->wdb.set_metadata(key, value ? value : "");
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_clear(shim_db *h, const char *meta_prefix, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        if (old_layout(h, e))
            return PDX_EVERSION;
        std::vector<Xapian::docid> ids;
        for (Xapian::PostingIterator p = h->wdb.postlist_begin("");
             p != h->wdb.postlist_end(""); ++p)
            ids.push_back(*p);
        for (Xapian::docid id : ids)
            h->wdb.delete_document(id);
        std::vector<std::string> keys;
        for (Xapian::TermIterator k = h->wdb.metadata_keys_begin(meta_prefix);
             k != h->wdb.metadata_keys_end(meta_prefix); ++k)
            keys.push_back(*k);
        for (const std::string &k : keys)
            h->wdb.set_metadata(k, "");
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_delete(shim_db *h, const char *id, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        if (old_layout(h, e))
            return PDX_EVERSION;
        h->wdb.delete_document(std::string(LAYOUT_P_ID) + id);
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_commit(shim_db *h, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        h->wdb.set_metadata(LAYOUT_META_UPDATED,
                            std::to_string(static_cast<long long>(time(nullptr))));
        h->wdb.commit();
        return 0;
    } catch (...) {
        return fail(e);
    }
}
