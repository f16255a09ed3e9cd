/*
 * suggest.cc -- "did you mean": the correction of a query's words from
 * the index's own vocabulary (suggest, correct_word), bounded in words
 * and in time so that a pasted abstract cannot make it spell-check for
 * seconds; and the notes on filters no work passes (a category, an
 * author, a year), so that a filter never gives a silent 0.
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
#include "../common/arxiv_categories.h"
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

/* read_side.hh */
std::string stored_text(const std::string &data)
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

/* "Did you mean".  A word of the query (letters only, four or more, not
 * a stop word) is a typo when few works write it -- one in TYPO_RARITY
 * of the index's or fewer (3 of the arXiv 101k; none of a few hundred,
 * where a word of one work is no oddity) -- and a word one edit away (a letter left out, added, changed, or two
 * neighbours swapped: Damerau's four) is written by at least two works,
 * and TYPO_GAIN times as many as the typo.  Among those the word the most
 * works write wins: what a reader most likely meant ("modle" is model,
 * not module; "imgae" is image), as Xapian's own corrector chooses.
 * Words of seven letters or more with none one edit away may be two
 * away.
 *
 * Two sources of words.  An index stamped LAYOUT_META_SPELLING (every
 * new one) keeps Xapian's spelling table of the words its works write,
 * counted in works (correct_from_spelling): the candidates one edit away
 * (about 54 per letter) are looked up in it, and two edits away Xapian's
 * get_spelling_suggestion finds them.  An older index holds stems only
 * (correct_from_stems): each candidate is stemmed and its stem looked up,
 * and the winner spelt as the works holding the stem write it, read from
 * the first TYPO_READ_WORKS of them ("imagr" could be image or imag; a
 * candidate that is no word, "agention", may stem to a common stem, and
 * a real word may be a rare form of one), the stems with the same first
 * letter walked for two edits (two_edits()).
 *
 * bench/typos.py measures it on typos of the arXiv 101k's words beside
 * Xapian's own corrector (Database::get_spelling_suggestion). */
#define TYPO_RARITY 30000
#define TYPO_GAIN 5
#define TYPO_READ_WORKS 30
#define TYPO_TRY_STEMS 3

namespace {

/* Every string one edit away from w (lower-case ASCII letters), w
 * itself excepted; duplicates may appear. */
std::vector<std::string> one_edit(const std::string &w)
{
    std::vector<std::string> out;
    const size_t n = w.size();
    out.reserve(54 * n + 26);
    for (size_t i = 0; i < n; i++) /* deletions */
        out.push_back(w.substr(0, i) + w.substr(i + 1));
    for (size_t i = 0; i + 1 < n; i++) /* swaps of neighbours */
        if (w[i] != w[i + 1]) {
            std::string c = w;
            std::swap(c[i], c[i + 1]);
            out.push_back(c);
        }
    for (size_t i = 0; i < n; i++) /* substitutions */
        for (char ch = 'a'; ch <= 'z'; ch++)
            if (ch != w[i]) {
                std::string c = w;
                c[i] = ch;
                out.push_back(c);
            }
    for (size_t i = 0; i <= n; i++) /* insertions */
        for (char ch = 'a'; ch <= 'z'; ch++)
            out.push_back(w.substr(0, i) + ch + w.substr(i));
    return out;
}

/* Of `forms` (all of one stem), the one the most of the first
 * TYPO_READ_WORKS works holding `stem` write, with *seen set; else the
 * first form, with *seen clear.  A string one edit away may stem to a
 * common stem without being a word ("agention" stems to agent), and a
 * real word may be a rare form of its stem ("researchers" in none of the
 * first 30 works that hold research): the caller weighs the two. */
std::string as_written(shim_db *h, const std::string &stem,
                       const std::vector<std::string> &forms, bool *seen)
{
    std::map<std::string, unsigned> works;
    unsigned read = 0;
    for (Xapian::PostingIterator p = h->db.postlist_begin(stem);
         p != h->db.postlist_end(stem) && read < TYPO_READ_WORKS; ++p, ++read) {
        const std::string body =
            stored_text(stored_record(h, h->db.get_document(*p)));
        std::set<std::string> here;
        for (const Word &w : words_of(body)) {
            std::string f = fold_word(body.substr(w.start, w.end - w.start));
            if (std::find(forms.begin(), forms.end(), f) != forms.end())
                here.insert(f);
        }
        for (const std::string &f : here)
            works[f]++;
    }
    std::string best = forms[0];
    unsigned most = 0;
    for (const std::string &f : forms)
        if (works[f] > most) {
            most = works[f];
            best = f;
        }
    *seen = most > 0;
    return best;
}

/* The nearest word two edits away from `lower` (stem `own`) for a word
 * of seven letters or more: the index's stems with its first letter
 * within two edits of its stem, or of its beginning (a misspelt ending
 * hides the stem: "mappnig" stems to itself, "mapping" to "map"); each
 * spelt as the first works holding it write it, the one closest to what
 * was typed.  Fewer edits first, then more works; "" if none, with
 * *best_tf its works. */
std::string two_edits(shim_db *h, const std::string &lower,
                      const std::string &own, Xapian::doccount *best_tf)
{
    const size_t limit = 2;
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
            near = edit_distance(lower.substr(0, c.size()), c, limit) <= limit;
        if (near)
            cands.push_back(Cand{c, t.get_termfreq()});
    }
    std::sort(cands.begin(), cands.end(),
              [](const Cand &a, const Cand &b) { return a.tf > b.tf; });
    if (cands.size() > 8)
        cands.resize(8);
    std::string best;
    size_t best_d = limit + 1;
    *best_tf = 0;
    for (const Cand &c : cands) {
        unsigned read = 0;
        for (Xapian::PostingIterator p = h->db.postlist_begin(c.stem);
             p != h->db.postlist_end(c.stem) && read < 3; ++p, ++read) {
            const std::string body =
                stored_text(stored_record(h, h->db.get_document(*p)));
            for (const Word &w : words_of(body)) {
                std::string f =
                    fold_word(body.substr(w.start, w.end - w.start));
                if (f.empty() || f[0] != lower[0] || h->stem(f) != c.stem)
                    continue;
                size_t d = edit_distance(lower, f, limit);
                if (d == 0 || d > limit)
                    continue;
                if (d < best_d || (d == best_d && c.tf > *best_tf)) {
                    best = f;
                    best_d = d;
                    *best_tf = c.tf;
                }
            }
        }
    }
    return best;
}

} // namespace

/* The correction of one word (lower-case a-z) from the stems alone (an
 * index whose spelling table does not list its words), or "". */
static std::string correct_from_stems(shim_db *h, const std::string &lower)
{
    const std::string own = h->stem(lower);
    const std::string own_plain = plain_vowels(own);
    const Xapian::doccount tf = h->db.get_termfreq(own);
    const Xapian::doccount few = h->db.get_doccount() / TYPO_RARITY;
    if (tf > few)
        return std::string();
    const Xapian::doccount need =
        std::max<Xapian::doccount>(2, TYPO_GAIN * tf);
    /* One edit away: each candidate's stem and its works. */
    std::map<std::string, Xapian::doccount> works; /* stem -> works */
    std::map<std::string, std::vector<std::string>> forms;
    for (const std::string &c : one_edit(lower)) {
        if (c.size() < 2 || h->stopper(c))
            continue;
        const std::string s = h->stem(c);
        if (s == own || s == own_plain)
            continue;
        auto w = works.find(s);
        if (w == works.end())
            w = works.emplace(s, h->db.get_termfreq(s)).first;
        if (w->second < need)
            continue;
        std::vector<std::string> &f = forms[s];
        if (std::find(f.begin(), f.end(), c) == f.end())
            f.push_back(c);
    }
    /* The stems the most works hold first, each spelt as a work writes
     * it; the first that one does wins. */
    std::vector<std::pair<Xapian::doccount, std::string>> order;
    for (const auto &f : forms)
        order.emplace_back(works[f.first], f.first);
    std::sort(order.begin(), order.end(),
              [](const std::pair<Xapian::doccount, std::string> &x,
                 const std::pair<Xapian::doccount, std::string> &y) {
                  return x.first != y.first ? x.first > y.first
                                            : x.second < y.second;
              });
    std::string first;
    for (size_t i = 0; i < order.size() && i < TYPO_TRY_STEMS; i++) {
        bool seen = false;
        const std::string w =
            as_written(h, order[i].second, forms[order[i].second], &seen);
        if (seen)
            return w;
        if (i == 0)
            first = w;
    }
    if (!first.empty())
        return first;
    Xapian::doccount best_tf = 0;
    if (lower.size() < 7)
        return std::string();
    std::string two = two_edits(h, lower, own, &best_tf);
    return best_tf >= need ? two : std::string();
}

/* The works the spelling table counts for `word`, 0 when it lists none:
 * Xapian 1.4 lists the table's words in order, with their frequencies,
 * and has no public lookup of one word.  Throws as the table does (a
 * remote shard keeps none). */
static Xapian::doccount spelling_count(shim_db *h, const std::string &word)
{
    Xapian::TermIterator w = h->db.spellings_begin();
    w.skip_to(word);
    return w != h->db.spellings_end() && *w == word ? w.get_termfreq() : 0;
}

/* The correction of one word (lower-case a-z) from the spelling table
 * (LAYOUT_META_SPELLING), whose frequencies are works: the word is a
 * typo when at most `few` works write it, and its correction is the word
 * one edit away that the most works write, at least `need`; with none,
 * for a word of seven letters or more, Xapian's own corrector within
 * two edits, held to the same `need`.  "" when nothing is. */
static std::string correct_from_spelling(shim_db *h, const std::string &lower,
                                         Xapian::doccount few)
{
    /* Xapian 1.4 lists the table's words in order, with their
     * frequencies, and has no public lookup of one word: a skip to the
     * typed word, and when it is rare, one walk over the sorted
     * candidates, skipping to each. */
    const Xapian::TermIterator end = h->db.spellings_end();
    const Xapian::doccount own = spelling_count(h, lower);
    if (own > few)
        return std::string();
    std::set<std::string> cands;
    for (std::string &c : one_edit(lower))
        if (c.size() >= 4)
            cands.insert(std::move(c));
    std::map<std::string, Xapian::doccount> freq;
    Xapian::TermIterator t = h->db.spellings_begin();
    for (const std::string &c : cands) {
        if (t == end)
            break;
        if (*t < c)
            t.skip_to(c);
        if (t != end && *t == c)
            freq[c] = t.get_termfreq();
    }
    const Xapian::doccount need = std::max<Xapian::doccount>(2, TYPO_GAIN * own);
    /* No word is corrected into another form of its own stem ("methods"
     * into method, "knowledgs" into knowledge), nor into its plain vowel
     * ("schroedinger" into schrodinger): the search already finds the
     * works that write it. */
    const std::string own_stem = h->stem(lower), own_plain = plain_vowels(own_stem);
    auto searched = [&](const std::string &w) {
        const std::string st = h->stem(w);
        return st == own_stem || st == own_plain;
    };
    std::string best;
    Xapian::doccount best_n = 0;
    for (const auto &f : freq)
        if (f.first != lower && f.second >= need && f.second > best_n &&
            !h->stopper(f.first) && !searched(f.first)) {
            best = f.first;
            best_n = f.second;
        }
    if (!best.empty() || lower.size() < 7)
        return best;
    const std::string two = h->db.get_spelling_suggestion(lower, 2);
    if (two.empty() || searched(two))
        return std::string();
    return spelling_count(h, two) >= need ? two : std::string();
}

/* Whether `lower` (folded) is the family name of authors of more than
 * `few` works, written as it is or without its umlauts' e. */
static bool family_held(shim_db *h, const std::string &lower,
                        Xapian::doccount few)
{
    return h->db.get_termfreq(LAYOUT_P_AUTHOR_FAMILY + lower) > few ||
           h->db.get_termfreq(LAYOUT_P_AUTHOR_FAMILY + plain_vowels(lower)) > few;
}

/* How many works write `word` (folded) as it is: the spelling table's
 * count when the index keeps one (a random typo's vowel, "signatuers",
 * may stem to a common stem without being a word), else its stem's. */
static Xapian::doccount written_by(shim_db *h, const std::string &word)
{
    if (h->spelling) {
        try {
            return spelling_count(h, word);
        } catch (const Xapian::UnimplementedError &) {
            /* a remote shard keeps no spelling table */
        }
    }
    return h->db.get_termfreq(h->stem(word));
}

/* The correction of one word of a query, or "": a word of letters only,
 * four or more, and no stop word, from the spelling table when the index
 * keeps one, else from the stems.  `elided`: the letters of an elision
 * before it, in lower case ("o" of O'Brien, "d" of D'Souza), or "". */
static std::string correct_word(shim_db *h, const std::string &word,
                                const std::vector<std::string> &words,
                                const std::string &elided)
{
    std::string lower = word;
    for (char &ch : lower) {
        if (!isalpha(static_cast<unsigned char>(ch)))
            return std::string();
        ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    }
    if (lower.size() < 4 || h->stopper(lower))
        return std::string();
    const Xapian::doccount few = h->db.get_doccount() / TYPO_RARITY;
    /* The closed form of a compound the works write hyphenated ("riscv"
     * for RISC-V, "qlearning" for Q-learning) is a term of the index
     * only (LAYOUT_JOINED_KEY marks its stem), not a word of the spelling
     * table, which lists the words as written: held by more works than a
     * typo is, it is no typo.  (A stem's works alone would not say so:
     * the typo "ofer" shares its stem with an author's name.) */
    const std::string stem = h->stem(lower);
    if (h->db.get_termfreq(stem) > few &&
        joined_stem(h->compounds_joined ? &h->db : nullptr, stem))
        return std::string();
    /* A family name more works than a typo's are written by is no typo
     * either ("Schäfer", 26 works of the arXiv 101k, was offered
     * shafer): the spelling table lists the words of titles and
     * abstracts, where a name is seldom written, and the search finds
     * its works by their authors, "Schaefer" those of Schäfer too.  (A
     * given name is not one: the typo "ofer" is a given name's.) */
    if (family_held(h, lower, few))
        return std::string();
    /* Nor a word whose transliterated umlaut the search reads as the
     * vowel, when works write that ("Erdoes" finds the 28 works of
     * Erdős on the arXiv 101k, and was offered erodes). */
    const std::string plain = plain_vowels(lower);
    if (plain != lower && plain.size() >= 3 && written_by(h, plain) > few)
        return std::string();
    /* The word after an elision is a family name as the index keys it
     * with the elision ("obrien" for O'Brien, 41 works of the arXiv 101k:
     * "Brien" was offered brief) */
    if (!elided.empty() && family_held(h, elided + lower, few))
        return std::string();
    /* Nor is a given name written beside its family name, a name an
     * author of the index has ("Yann" of "Yann LeCun", quoted: it was
     * offered yang). */
    for (const std::string &other : words)
        if (other != lower &&
            h->db.get_termfreq(LAYOUT_P_AUTHOR_FULL + other + ' ' + lower))
            return std::string();
    if (h->spelling) {
        try {
            return correct_from_spelling(h, lower, few);
        } catch (const Xapian::UnimplementedError &) {
            /* a shard served by xapian-tcpsrv: Xapian 1.4's remote
             * backend keeps no spelling table; the stems answer */
        }
    }
    return correct_from_stems(h, lower);
}

/* How many of the first PAIR_READ_WORKS works holding `stem` write
 * `word` beside one of `next_to` (a word before it, a word after it, ""
 * where the query has none), only spaces or a hyphen between, each
 * folded as the index folds a word. */
#define PAIR_READ_WORKS 200
static unsigned pair_written(shim_db *h, const std::string &stem,
                             const std::string &word,
                             const std::string next_to[2])
{
    unsigned works = 0, read = 0;
    for (Xapian::PostingIterator p = h->db.postlist_begin(stem);
         p != h->db.postlist_end(stem) && read < PAIR_READ_WORKS; ++p, ++read) {
        const std::string body =
            stored_text(stored_record(h, h->db.get_document(*p)));
        const std::vector<Word> ws = words_of(body);
        bool found = false;
        for (size_t i = 0; i + 1 < ws.size() && !found; i++) {
            bool tight = true;
            for (size_t c = ws[i].end; c < ws[i + 1].start; c++)
                if (body[c] != ' ' && body[c] != '-')
                    tight = false;
            if (!tight)
                continue;
            const std::string a = fold_word(body.substr(ws[i].start, ws[i].end - ws[i].start));
            const std::string b = fold_word(body.substr(ws[i + 1].start, ws[i + 1].end - ws[i + 1].start));
            found = (!next_to[0].empty() && a == next_to[0] && b == word) ||
                    (!next_to[1].empty() && a == word && b == next_to[1]);
        }
        works += found;
    }
    return works;
}

/* The word of letters that stands right before text[ws] (i = 0) or right
 * after text[we] (i = 1), only spaces or a hyphen between, in lower
 * case; "" when there is none, or it is a stop word. */
static std::string neighbour(shim_db *h, const std::string &text, size_t ws,
                             size_t we, int i)
{
    std::string out;
    if (i == 0) {
        size_t e = ws;
        while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '-') && ws - e < 3)
            e--;
        if (e == ws)
            return out;
        size_t s = e;
        while (s > 0 && isalpha(static_cast<unsigned char>(text[s - 1])))
            s--;
        out = text.substr(s, e - s);
    } else {
        size_t s = we;
        while (s < text.size() && (text[s] == ' ' || text[s] == '-') && s - we < 3)
            s++;
        if (s == we)
            return out;
        size_t e = s;
        while (e < text.size() && isalpha(static_cast<unsigned char>(text[e])))
            e++;
        out = text.substr(s, e - s);
    }
    for (char &ch : out)
        ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    if (out.size() < 2 || h->stopper(out))
        out.clear();
    return out;
}

/* Whether the works vouch for a rare word that a correction would
 * replace: some work writes it beside the word the query writes beside
 * it, and none of the first PAIR_READ_WORKS works of the correction
 * writes the correction there ("van der Waals": "der Waals" is written,
 * "der walls" is not; in "atention mechanism", a work that made the
 * typo does not save it from "attention mechanism"). */
static bool pair_vouches(shim_db *h, const std::string &word,
                         const std::string &best, const std::string next_to[2])
{
    if (next_to[0].empty() && next_to[1].empty())
        return false;
    const std::string lower = fold_word(word);
    const std::string fixed = fold_word(best);
    return pair_written(h, h->stem(lower), lower, next_to) > 0 &&
           pair_written(h, h->stem(fixed), fixed, next_to) == 0;
}

/* Did-you-mean looks each word up in the spelling table: its work grows
 * with the query.  A query of more words than this is pasted text, for
 * which nothing is proposed (as the web engines do), and the lookups stop
 * at the match's time budget: a 26 KB query of 3,300 unknown words took
 * 11 s of a server's CPU. */
#define SUGGEST_MAX_WORDS 32

/* The letters of the elision that ends at text[ws] ("O'" of O'Brien,
 * "D’" of D’Souza: one to four letters after no letter, then an
 * apostrophe, ' or U+2019), in lower case; or "". */
static std::string elided_before(const std::string &text, size_t ws)
{
    size_t a = ws >= 1 && text[ws - 1] == '\'' ? 1
               : ws >= 3 && !text.compare(ws - 3, 3, "\xe2\x80\x99") ? 3 : 0;
    if (!a)
        return std::string();
    size_t s = ws - a;
    while (s > 0 && ws - a - s < 5 && isalpha(static_cast<unsigned char>(text[s - 1])))
        s--;
    const size_t n = ws - a - s;
    if (n == 0 || n > 4 || (s > 0 && static_cast<unsigned char>(text[s - 1]) >= 0x80))
        return std::string();
    std::string out = text.substr(s, n);
    for (char &ch : out)
        ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    return out;
}

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
    /* the query's words in lower case, for the names they write */
    std::vector<std::string> all;
    for (size_t i = 0; i < text.size() && all.size() <= SUGGEST_MAX_WORDS;) {
        while (i < text.size() && !isalpha(static_cast<unsigned char>(text[i])))
            i++;
        std::string w;
        while (i < text.size() && isalpha(static_cast<unsigned char>(text[i])))
            w += static_cast<char>(tolower(static_cast<unsigned char>(text[i++])));
        if (!w.empty())
            all.push_back(std::move(w));
    }
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
            /* nor the letters of a name with its number ("YOLOv8" was
             * offered yolo8: the works write yolov8, not yolov) */
            if ((we < text.size() && isdigit(static_cast<unsigned char>(text[we]))) ||
                (ws > 0 && isdigit(static_cast<unsigned char>(text[ws - 1]))))
                continue;
            if (++words > SUGGEST_MAX_WORDS)
                return std::string();
            if (seconds > 0) {
                clock_gettime(CLOCK_MONOTONIC, &t1);
                if ((double)(t1.tv_sec - t0.tv_sec) +
                        (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 >
                    seconds)
                    return std::string(); /* out of time: none */
            }
            const std::string best =
                correct_word(h, text.substr(ws, we - ws), all, elided_before(text, ws));
            if (best.empty())
                continue;
            const std::string next_to[2] = {neighbour(h, text, ws, we, 0),
                                            neighbour(h, text, ws, we, 1)};
            if (pair_vouches(h, text.substr(ws, we - ws), best, next_to))
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

/* A family name is a name, for shim_suggest_author's held_family, when
 * at least one in NAME_SHARE of the works that write it (their authors
 * included) have it as an author's family name: Hinton is 2 works'
 * author of the 6 of the arXiv 101k that write it, and Networks 1 of
 * tens of thousands (the company Preferred Networks). */
const double NAME_SHARE = 20;
/* ... and a given name when at least one in GIVEN_SHARE of the works
 * that write it have it as an author's name: a given name is rarely a
 * word (Edward: 243 works' author of the 244 of the arXiv 101k that
 * write it; John 779 of 794), where words that a few authors bear as a
 * name are words (Moral 76 of 360, Bone 15 of 183, Deep 39 of 10,139;
 * Carlo 390 of 1,170 is Monte Carlo's too). */
const double GIVEN_SHARE = 2;

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
                                   int *held_family, int *held_given,
                                   shim_err *e)
{
    try {
        out[0] = '\0';
        if (held_family)
            *held_family = 0;
        if (held_given)
            *held_given = 0;
        const std::string fam(family), giv(given ? given : "");
        if (fam.size() < 2 || n == 0)
            return 0;
        settle(h);
        with_reopen(h, [&] {
            out[0] = '\0';
            if (held_family)
                *held_family = 0;
            /* a given name in full held as a name (GIVEN_SHARE): an
             * author's name word ("A" and its stem; a stem that names
             * share with words, "amod" of Amod and amodal, is held by
             * the works writing the word too, and is no name; a stop
             * word, "Why", is not indexed as a word) */
            if (held_given && giv.size() > 1 && !h->stopper(giv)) {
                const std::string st = h->stem(giv);
                const Xapian::doccount named =
                    h->db.get_termfreq(std::string(LAYOUT_P_AUTHOR) + st);
                *held_given = named > 0 && static_cast<double>(named) * GIVEN_SHARE >=
                                               h->db.get_termfreq(st);
            }
            const std::string xal(LAYOUT_P_AUTHOR_FAMILY);
            std::vector<NameCandidate> fams;
            const std::string first = xal + fam[0];
            for (Xapian::TermIterator t = h->db.allterms_begin(first);
                 t != h->db.allterms_end(first); ++t) {
                const std::string c = (*t).substr(xal.size());
                size_t d = edit_distance(fam, c, reach(fam));
                if (d <= reach(fam))
                    fams.push_back({d, t.get_termfreq(), *t});
                /* held as a name, not a word an author or two
                 * happens to bear ("Preferred Networks") */
                if (d == 0 && held_family &&
                    static_cast<double>(t.get_termfreq()) * NAME_SHARE >=
                        h->db.get_termfreq(h->stem(fam)))
                    *held_family = 1;
            }
            std::sort(fams.begin(), fams.end(),
                      [](const NameCandidate &a, const NameCandidate &b) {
                          return a.edits != b.edits ? a.edits < b.edits
                                                    : a.works > b.works;
                      });
            if (fams.size() > 5)
                fams.resize(5);
            /* A name the index holds is no misspelling: the search that
             * found nothing was emptied by something else (a year, the
             * rest of the query), and another name would only mislead.
             * Held (fams come fewest edits first): its family alone, or
             * with a given name, "family given" as written or, for an
             * initial, a given name it begins. */
            NameCandidate best{SIZE_MAX, 0, ""};
            for (const NameCandidate &f : fams) {
                if (giv.empty()) {
                    if (f.edits == 0)
                        return; /* held */
                    if (f.edits < best.edits ||
                        (f.edits == best.edits && f.works > best.works))
                        best = f;
                    continue;
                }
                const std::string c = f.term.substr(xal.size());
                const std::string xaf =
                    std::string(LAYOUT_P_AUTHOR_FULL) + c + ' ';
                for (Xapian::TermIterator t = h->db.allterms_begin(xaf);
                     t != h->db.allterms_end(xaf); ++t) {
                    const std::string g = (*t).substr(xaf.size());
                    if (f.edits == 0 &&
                        (g == giv || ((giv.size() == 1 || g.size() == 1) &&
                                      g.compare(0, 1, giv, 0, 1) == 0)))
                        return; /* held */
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

/* The key the index holds category c under (text_category_keys, the
 * indexer's own rule: "cs.CV" is "cs.cv"). */
static std::string category_key(const char *c)
{
    arena a = {};
    char *k[TEXT_CATEGORY_KEYS];
    const std::string key = text_category_keys(&a, c, 0, k) > 0 ? k[0] : "";
    arena_free(&a);
    return key;
}

/* The value of `slot` (facet values separated by FACET_SEP) that a work
 * holding `term` writes for key `key`, by key_of, the indexer's rule
 * ("cs.CV" for cs.cv, "Drug Therapy" for drugtherapy); key itself when
 * no work holds the term or none of its values has that key (an archive,
 * "math"). */
static std::string written_value(shim_db *h, const std::string &term,
                                 const std::string &key, Xapian::valueno slot,
                                 std::string (*key_of)(const std::string &))
{
    Xapian::PostingIterator p = h->db.postlist_begin(term);
    if (p == h->db.postlist_end(term))
        return key;
    const std::string all = h->db.get_document(*p).get_value(slot);
    for (size_t at = 0; at <= all.size();) {
        size_t end = all.find(FACET_SEP, at);
        if (end == std::string::npos)
            end = all.size();
        const std::string v = all.substr(at, end - at);
        if (key_of(v) == key)
            return v;
        at = end + 1;
    }
    return key;
}

static std::string category_key_of(const std::string &c)
{
    return category_key(c.c_str());
}

/* The category of key `key` (its category term `term`) as the works
 * write it. */
static std::string written_category(shim_db *h, const std::string &term,
                                    const std::string &key)
{
    return written_value(h, term, key, SLOT_CATS, category_key_of);
}

/* The keys of the terms under prefix pfx within edit distance of key
 * (a third of its length, at least 2), nearer first, then the more
 * common: a missing category's or subject's nearest. */
static std::vector<std::string> nearest_keys(shim_db *h, const std::string &pfx,
                                             const std::string &key)
{
    const size_t limit = std::max<size_t>(2, key.size() / 3);
    std::vector<std::pair<std::pair<size_t, Xapian::doccount>, std::string>>
        near;
    for (Xapian::TermIterator c = h->db.allterms_begin(pfx);
         c != h->db.allterms_end(pfx); ++c) {
        std::string cand = (*c).substr(pfx.size());
        const size_t d = edit_distance(key, cand, limit);
        if (d <= limit)
            near.push_back({{d, ~c.get_termfreq()}, std::move(cand)});
    }
    std::sort(near.begin(), near.end());
    std::vector<std::string> keys;
    for (auto &n : near)
        keys.push_back(std::move(n.second));
    return keys;
}

/* The alternatives of a filter value ("A|B": A and B). */
static std::vector<std::string> alternatives(const std::string &v)
{
    std::vector<std::string> out;
    for (size_t at = 0; at <= v.size();) {
        size_t end = v.find('|', at);
        if (end == std::string::npos)
            end = v.size();
        out.push_back(v.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

std::string missing_categories(shim_db *h, const Xapian::Query &q)
{
    const std::string pfx = LAYOUT_P_CATEGORY;
    /* A category's arXiv name stands with its codes (text_category_keys):
     * the three are one filter, missing only when none is held, and then
     * named by the name alone. */
    std::set<std::string> quiet;
    for (Xapian::TermIterator t = q.get_unique_terms_begin();
         t != q.get_unique_terms_end(); ++t) {
        const std::string &term = *t;
        if (term.compare(0, pfx.size(), pfx))
            continue;
        const std::string key = term.substr(pfx.size());
        const char *codes[2];
        const size_t n = key.find('.') != std::string::npos
                             ? 0
                             : arxiv_categories_named(key.c_str(), codes);
        bool held = n && h->db.get_termfreq(term);
        for (size_t i = 0; i < n; i++) {
            quiet.insert(pfx + category_key(codes[i]));
            held = held || h->db.get_termfreq(pfx + category_key(codes[i]));
        }
        if (held)
            quiet.insert(term);
    }
    std::string note;
    for (Xapian::TermIterator t = q.get_unique_terms_begin();
         t != q.get_unique_terms_end(); ++t) {
        const std::string &term = *t;
        if (term.compare(0, pfx.size(), pfx) || quiet.count(term) ||
            h->db.get_termfreq(term))
            continue;
        const std::string key = term.substr(pfx.size());
        /* First the categories the index holds whose arXiv names hold the
         * words ("vision": cs.CV), then the nearest three by edit
         * distance, nearer first, then the more common. */
        std::vector<std::string> shown;
        const char *like[8];
        const size_t n_like = arxiv_categories_like(key.c_str(), like, 8);
        for (size_t i = 0; i < n_like && shown.size() < 3; i++) {
            const std::string code_term = pfx + category_key(like[i]);
            if (h->db.get_termfreq(code_term))
                shown.push_back(written_category(h, code_term, category_key(like[i])) +
                                " " + arxiv_category_name(like[i]));
        }
        const std::vector<std::string> near = nearest_keys(h, pfx, key);
        for (size_t i = 0; i < near.size() && shown.size() < 3; i++) {
            const std::string w = written_category(h, pfx + near[i], near[i]);
            bool dup = false;
            for (const std::string &x : shown)
                dup = dup || x.compare(0, w.size() + 1, w + " ") == 0;
            if (!dup)
                shown.push_back(w);
        }
        std::string list;
        for (size_t i = 0; i < shown.size(); i++)
            list += (i ? ", " : "") + shown[i];
        note += std::string(note.empty() ? "" : "; ") + "no work has category " +
                key + (list.empty() ? "" : " (nearest: " + list + ")");
    }
    return note;
}

/* Does any work pass q alone?  A match stopped at its first work. */
static bool any_work(shim_db *h, const Xapian::Query &q)
{
    Xapian::Enquire e(h->db);
    e.set_query(q);
    e.set_weighting_scheme(Xapian::BoolWeight());
    return !e.get_mset(0, 1).empty();
}

/* The year nearest to `from` (itself included) that a work is from,
 * going back (`back`) or forward; 0 when none. */
static int nearest_year(shim_db *h, int from, bool back)
{
    if (from <= 0)
        return 0;
    const std::string at = Xapian::sortable_serialise(from);
    Xapian::Enquire e(h->db);
    e.set_query(Xapian::Query(back ? Xapian::Query::OP_VALUE_LE
                                   : Xapian::Query::OP_VALUE_GE,
                              SLOT_YEAR, at));
    e.set_weighting_scheme(Xapian::BoolWeight());
    e.set_sort_by_value(SLOT_YEAR, back); /* back: the latest first */
    const Xapian::MSet m = e.get_mset(0, 1);
    if (m.empty())
        return 0;
    return static_cast<int>(Xapian::sortable_unserialise(m.begin().get_sort_key()));
}

/* "no work is from 2019 (nearest years with works: 2018, 2021)" for the
 * year range [lo, hi] (0: open), or "" when a work is from it. */
static std::string empty_years(shim_db *h, int lo, int hi)
{
    if (!lo && !hi)
        return std::string();
    const Xapian::Query range = year_range_query(h, lo, hi);
    if (any_work(h, range))
        return std::string();
    std::string span = !lo         ? std::to_string(hi) + " or earlier"
                       : !hi       ? std::to_string(lo) + " or later"
                       : lo == hi  ? std::to_string(lo)
                                   : std::to_string(lo) + " to " + std::to_string(hi);
    const int before = lo ? nearest_year(h, lo - 1, true) : 0;
    const int after = hi ? nearest_year(h, hi + 1, false) : 0;
    std::string near;
    if (before && after)
        near = " (nearest years with works: " + std::to_string(before) +
               ", " + std::to_string(after) + ")";
    else if (before || after)
        near = " (nearest year with works: " +
               std::to_string(before ? before : after) + ")";
    else
        near = " (no work gives a year)";
    return "no work is from " + span + near;
}

/* "no work has author \"name\"" when no work passes the author filter
 * `name` ("A|B": either) alone, else "". */
static std::string empty_author(shim_db *h, const std::string &name)
{
    std::vector<Xapian::Query> alts;
    for (const std::string &alt : alternatives(name)) {
        Xapian::Query one;
        if (author_name_query(h, alt, one) == -1)
            throw std::bad_alloc();
        alts.push_back(one); /* -2, no family name: the empty query */
    }
    const Xapian::Query q(Xapian::Query::OP_OR, alts.begin(), alts.end());
    return q.empty() || any_work(h, q) ? std::string()
                                       : "no work has author \"" + name + "\"";
}

/* The filters empty_filters checks at most, of each kind: a query of a
 * thousand year: values costs a thousand matches, and the notes have
 * room for a few. */
#define EMPTY_FILTERS_MOST 4

std::string empty_filters(shim_db *h, const shim_query *q)
{
    std::vector<std::string> authors;
    for (size_t i = 0; q->author_names && i < q->n_author_names; i++)
        if (q->author_names[i])
            authors.push_back(q->author_names[i]);
    const Reader &r = reader(h);
    std::vector<std::pair<int, int>> years;
    if (q->year_min || q->year_max)
        years.emplace_back(q->year_min, q->year_max);
    if (q->text && *q->text) {
        authors.insert(authors.end(), r.author_values.begin(),
                       r.author_values.end());
        years.insert(years.end(), r.year_values.begin(), r.year_values.end());
    }
    std::vector<std::string> notes;
    std::set<std::string> asked;
    for (size_t i = 0, n = 0; i < authors.size() && n < EMPTY_FILTERS_MOST; i++)
        if (asked.insert(authors[i]).second) {
            notes.push_back(empty_author(h, authors[i]));
            n++;
        }
    std::set<std::pair<int, int>> spans;
    for (size_t i = 0; i < years.size() && spans.size() < EMPTY_FILTERS_MOST; i++)
        if (spans.insert(years[i]).second)
            notes.push_back(empty_years(h, years[i].first, years[i].second));
    std::string note;
    for (const std::string &n : notes)
        if (!n.empty())
            note += (note.empty() ? "" : "; ") + n;
    return note;
}

/* The folded key of subject `v` (text_fold, the indexer's rule). */
static std::string subject_key(const std::string &v)
{
    arena a = {};
    const char *k = text_fold(&a, v.data(), v.size());
    const std::string key = k ? k : "";
    arena_free(&a);
    return key;
}

/* The subject of term `term` (key `key`) as a work holding it writes it. */
static std::string written_subject(shim_db *h, const std::string &term,
                                   const std::string &key)
{
    return written_value(h, term, key, SLOT_SUBJECTS, subject_key);
}

std::string missing_subjects(shim_db *h, const Xapian::Query &q,
                             const shim_query *sq)
{
    const std::string pfx = LAYOUT_P_SUBJECT;
    std::map<std::string, std::string> given; /* made at the first missing */
    std::string note;
    for (Xapian::TermIterator t = q.get_unique_terms_begin();
         t != q.get_unique_terms_end(); ++t) {
        const std::string &term = *t;
        if (term.compare(0, pfx.size(), pfx) || h->db.get_termfreq(term))
            continue;
        if (given.empty()) {
            /* each key as the filter gave it: --subject's alternatives,
             * then subject: values */
            for (size_t i = 0; sq->subject_names && i < sq->n_subject_names; i++)
                for (const std::string &alt : alternatives(
                         sq->subject_names[i] ? sq->subject_names[i] : ""))
                    given.emplace(subject_key(alt), alt);
            for (const auto &g : reader(h).subject_values)
                given.emplace(subject_key(g), g);
        }
        const std::string key = term.substr(pfx.size());
        const std::vector<std::string> near = nearest_keys(h, pfx, key);
        std::string list;
        for (size_t i = 0; i < near.size() && i < 3; i++)
            list += (i ? ", " : "") + written_subject(h, pfx + near[i], near[i]);
        const auto g = given.find(key);
        note += std::string(note.empty() ? "" : "; ") +
                "no work has subject \"" +
                (g != given.end() ? g->second : key) + "\"" +
                (list.empty() ? "" : " (nearest: " + list + ")");
    }
    return note;
}
