/*
 * suggest.cc -- "did you mean": the correction of a query's words from
 * the index's own vocabulary (suggest, correct_word), bounded in words
 * and in time so that a pasted abstract cannot make it spell-check for
 * seconds.
 */
#include <xapian.h>

#include <cjson/cJSON.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "read_side.hh"
extern "C" {
#include "../common/text.h"
#include "qscan.h"
}

using namespace pdxshim;

/* Optimal string alignment distance (edits, with adjacent swaps), or
 * limit + 1 as soon as it must exceed `limit`. */
static size_t edit_distance(const std::string &a, const std::string &b,
                            size_t limit)
{
    size_t n = a.size(), m = b.size();
    if ((n > m ? n - m : m - n) > limit)
        return limit + 1;
    std::vector<size_t> pp(m + 1), p(m + 1), c(m + 1);
    for (size_t j = 0; j <= m; j++)
        p[j] = j;
    for (size_t i = 1; i <= n; i++) {
        c[0] = i;
        size_t best = c[0];
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            c[j] = std::min({p[j] + 1, c[j - 1] + 1, p[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                c[j] = std::min(c[j], pp[j - 2] + 1);
            best = std::min(best, c[j]);
        }
        if (best > limit)
            return limit + 1;
        pp.swap(p);
        p.swap(c);
    }
    return p[m];
}

/* The title and abstract of a stored work, or "". */
static std::string stored_text(const std::string &data)
{
    std::string out;
    cJSON *o = cJSON_ParseWithLength(data.data(), data.size());
    for (const char *f : {"title", "abstract"}) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f);
        if (cJSON_IsString(v))
            (out += v->valuestring) += ' ';
    }
    cJSON_Delete(o);
    return out;
}

/* "Did you mean": each plain word of the query (letters only, four or
 * more) whose stem fewer than two works hold is replaced by the closest
 * word of the index -- within one edit (two for words of seven letters
 * or more), preferring fewer edits, then more works -- if at least two
 * works, and three times as many as the word's own stem, hold it.
 *
 * The index holds stems, not words (layout 2), and a misspelt ending
 * hides the stem ("mappnig" stems to itself, "mapping" to "map").  So
 * the candidates are the index's stems with the same first letter that
 * are within reach of the word's stem, or of the word's beginning (a
 * stem of at least three letters); each candidate is then spelt as a word
 * by reading one work that holds it and taking, among that work's words
 * with that stem, the one closest to what was typed.  The suggestion
 * follows the index as it changes.  Empty: nothing to suggest. */
/* The correction of one word of a query (letters only), or "". */
static std::string correct_word(shim_db *h, const std::string &word)
{
    std::string lower = word;
    for (char &ch : lower)
        ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    std::string best;
    {
        if (lower.size() >= 4 && !h->stopper(lower)) {
            const std::string own = h->stem(lower);
            Xapian::doccount tf = h->db.get_termfreq(own);
            if (tf < 2) {
                const size_t limit = lower.size() >= 7 ? 2 : 1;
                struct Cand {
                    std::string stem;
                    Xapian::doccount tf;
                };
                std::vector<Cand> cands;
                const std::string pfx = lower.substr(0, 1);
                for (Xapian::TermIterator t = h->db.allterms_begin(pfx);
                     t != h->db.allterms_end(pfx); ++t) {
                    const std::string &c = *t;
                    if (c == own)
                        continue;
                    bool near = c.size() + limit >= own.size() &&
                                c.size() <= own.size() + limit &&
                                edit_distance(own, c, limit) <= limit;
                    if (!near && c.size() >= 3 && c.size() < lower.size())
                        near = edit_distance(lower.substr(0, c.size()), c,
                                             limit) <= limit;
                    if (near)
                        cands.push_back(Cand{c, t.get_termfreq()});
                }
                std::sort(cands.begin(), cands.end(),
                          [](const Cand &a, const Cand &b) {
                              return a.tf > b.tf;
                          });
                if (cands.size() > 8)
                    cands.resize(8);
                size_t best_d = limit + 1;
                Xapian::doccount best_tf = 0;
                for (const Cand &c : cands) {
                    Xapian::PostingIterator p = h->db.postlist_begin(c.stem);
                    if (p == h->db.postlist_end(c.stem))
                        continue;
                    const std::string body =
                        stored_text(stored_record(h, h->db.get_document(*p)));
                    for (const Word &w : words_of(body)) {
                        std::string f = fold_word(body.substr(w.start, w.end - w.start));
                        if (f.empty() || f[0] != lower[0] ||
                            h->stem(f) != c.stem)
                            continue;
                        size_t d = edit_distance(lower, f, limit);
                        if (d == 0 || d > limit)
                            continue;
                        if (d < best_d || (d == best_d && c.tf > best_tf)) {
                            best = f;
                            best_d = d;
                            best_tf = c.tf;
                        }
                    }
                }
                if (best_tf < std::max<Xapian::doccount>(2, 3 * tf))
                    best.clear();
            }
        }
    }
    return best;
}

/* Did-you-mean looks each word up in the spelling table: its work grows
 * with the query.  A query of more words than this is pasted text, for
 * which nothing is proposed (as the web engines do), and the lookups stop
 * at the match's time budget: a 26 KB query of 3,300 unknown words took
 * 11 s of a server's CPU. */
#define SUGGEST_MAX_WORDS 32

std::string suggest(shim_db *h, const std::string &raw,
                           double seconds)
{
    const std::string text = unaccent(raw);
    std::string out;
    bool changed = false;
    size_t copied = 0, pos = 0, words = 0;
    qtok k;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (qscan_next(text.data(), text.size(), &pos, &k) != QT_END) {
        if (k.kind == QT_OP || k.kind == QT_FILTER)
            continue;
        size_t wpos = k.start, ws, we;
        int field;
        while (qscan_word(text.data(), k.start + k.len, &wpos, &ws, &we,
                          &field)) {
            if (field)
                continue; /* title:, author:, ... */
            if (we < text.size() && text[we] == '*')
                continue; /* a wildcard's pattern is no misspelling */
            if (++words > SUGGEST_MAX_WORDS)
                return std::string();
            if (seconds > 0) {
                clock_gettime(CLOCK_MONOTONIC, &t1);
                if ((double)(t1.tv_sec - t0.tv_sec) +
                        (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 >
                    seconds)
                    return std::string(); /* out of time: none */
            }
            const std::string best = correct_word(h, text.substr(ws, we - ws));
            if (best.empty())
                continue;
            out.append(text, copied, ws - copied);
            out += best;
            copied = we;
            changed = true;
        }
    }
    out.append(text, copied, std::string::npos);
    return changed ? out : std::string();
}


/* The nearest author name the index holds to a filter's folded keys
 * (shim_suggest_author, shim_read.h).  Family names are the XAL terms
 * that begin with the family's first byte, within one edit (two for
 * seven letters or more; a swap of neighbours is one); for a given name,
 * the XAF terms "family given" of those families, the given name within
 * the same reach (an initial: the given names it begins).  The best is
 * the fewest edits in all, then the most works; it is shown as a work
 * holding it writes it. */
namespace {
struct NameCandidate {
    size_t edits;
    Xapian::doccount works;
    std::string term; /* the XAL or XAF term */
};

size_t reach(const std::string &s) { return s.size() >= 7 ? 2 : 1; }

/* The family name in `name` as written ("Wyndmoor" in "Christabel D.
 * Wyndmoor", "van der Berg" in "Berg, J. van der" is not found: then the
 * whole name), whose fold is `family`. */
std::string written_family(const std::string &name, const char *family)
{
    arena ar = {};
    std::string out = name;
    const size_t comma = name.find(',');
    if (comma != std::string::npos) {
        out = name.substr(0, comma);
    } else {
        for (size_t start = name.size(); start-- > 0;) {
            if (start == 0 || name[start - 1] == ' ') {
                const char *f = text_fold(&ar, name.c_str() + start,
                                          name.size() - start);
                if (f && !strcmp(f, family)) {
                    out = name.substr(start);
                    break;
                }
            }
        }
    }
    arena_free(&ar);
    return out;
}

/* The author of a stored work whose keys make `term`, as written: the
 * whole name for an XAF term, the family name for an XAL one. */
std::string written_as(shim_db *h, const std::string &term)
{
    Xapian::PostingIterator p = h->db.postlist_begin(term);
    if (p == h->db.postlist_end(term))
        return "";
    const std::string data = stored_record(h, h->db.get_document(*p));
    cJSON *o = cJSON_ParseWithLength(data.data(), data.size());
    const cJSON *authors = cJSON_GetObjectItemCaseSensitive(o, "authors");
    std::string out;
    const cJSON *a;
    cJSON_ArrayForEach(a, authors)
    {
        if (!cJSON_IsString(a) || !out.empty())
            continue;
        arena ar = {};
        name_keys nk;
        if (text_name_keys_rules(&ar, a->valuestring, h->names, &nk) == 0 &&
            *nk.family) {
            std::string xal = std::string(LAYOUT_P_AUTHOR_FAMILY) + nk.family;
            std::string xaf = std::string(LAYOUT_P_AUTHOR_FULL) + nk.family +
                              ' ' +
                              (nk.given_is_initial ? nk.initial : nk.given);
            if (term == cut_key(xaf.c_str()))
                out = a->valuestring;
            else if (term == cut_key(xal.c_str()))
                out = written_family(a->valuestring, nk.family);
        }
        arena_free(&ar);
    }
    cJSON_Delete(o);
    return out;
}
} // namespace

extern "C" int shim_suggest_author(shim_db *h, const char *family,
                                   const char *given, char *out, size_t n,
                                   shim_err *e)
{
    try {
        out[0] = '\0';
        const std::string fam(family), giv(given ? given : "");
        if (fam.size() < 2 || n == 0)
            return 0;
        settle(h);
        with_reopen(h, [&] {
            out[0] = '\0';
            const std::string xal(LAYOUT_P_AUTHOR_FAMILY);
            std::vector<NameCandidate> fams;
            const std::string first = xal + fam[0];
            for (Xapian::TermIterator t = h->db.allterms_begin(first);
                 t != h->db.allterms_end(first); ++t) {
                const std::string c = (*t).substr(xal.size());
                size_t d = edit_distance(fam, c, reach(fam));
                if (d <= reach(fam))
                    fams.push_back({d, t.get_termfreq(), *t});
            }
            std::sort(fams.begin(), fams.end(),
                      [](const NameCandidate &a, const NameCandidate &b) {
                          return a.edits != b.edits ? a.edits < b.edits
                                                    : a.works > b.works;
                      });
            if (fams.size() > 5)
                fams.resize(5);
            NameCandidate best{SIZE_MAX, 0, ""};
            for (const NameCandidate &f : fams) {
                if (giv.empty()) {
                    if (f.edits > 0 && (f.edits < best.edits ||
                                        (f.edits == best.edits &&
                                         f.works > best.works)))
                        best = f;
                    continue;
                }
                const std::string c = f.term.substr(xal.size());
                const std::string xaf =
                    std::string(LAYOUT_P_AUTHOR_FULL) + c + ' ';
                for (Xapian::TermIterator t = h->db.allterms_begin(xaf);
                     t != h->db.allterms_end(xaf); ++t) {
                    const std::string g = (*t).substr(xaf.size());
                    size_t d;
                    /* an initial for a full name is one edit away */
                    if (giv.size() == 1 || g.size() == 1)
                        d = g.compare(0, 1, giv, 0, 1) != 0 ? SIZE_MAX
                            : giv.size() == g.size()     ? 0
                                                         : 1;
                    else
                        d = edit_distance(giv, g, reach(giv));
                    if (d > reach(giv))
                        continue;
                    const size_t all = f.edits + d;
                    if (all > 0 && (all < best.edits ||
                                    (all == best.edits &&
                                     t.get_termfreq() > best.works)))
                        best = {all, t.get_termfreq(), *t};
                }
            }
            if (best.term.empty())
                return;
            const std::string shown = written_as(h, best.term);
            if (!shown.empty() && shown.size() < n)
                memcpy(out, shown.c_str(), shown.size() + 1);
        });
        return 0;
    } catch (...) {
        return fail(e);
    }
}

std::string missing_categories(shim_db *h, const Xapian::Query &q)
{
    const std::string pfx = LAYOUT_P_CATEGORY;
    std::string note;
    for (Xapian::TermIterator t = q.get_unique_terms_begin();
         t != q.get_unique_terms_end(); ++t) {
        const std::string &term = *t;
        if (term.compare(0, pfx.size(), pfx) || h->db.get_termfreq(term))
            continue;
        const std::string key = term.substr(pfx.size());
        /* The nearest three, nearer first, then the more common. */
        const size_t limit = std::max<size_t>(2, key.size() / 3);
        std::vector<std::pair<std::pair<size_t, Xapian::doccount>, std::string>>
            near;
        for (Xapian::TermIterator c = h->db.allterms_begin(pfx);
             c != h->db.allterms_end(pfx); ++c) {
            const std::string cand = (*c).substr(pfx.size());
            size_t d = edit_distance(key, cand, limit);
            if (d <= limit)
                near.push_back({{d, ~c.get_termfreq()}, cand});
        }
        std::sort(near.begin(), near.end());
        std::string list;
        for (size_t i = 0; i < near.size() && i < 3; i++)
            list += (i ? ", " : "") + near[i].second;
        note += std::string(note.empty() ? "" : "; ") + "no work has category " +
                key + (list.empty() ? "" : " (nearest: " + list + ")");
    }
    return note;
}
