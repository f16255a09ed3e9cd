/*
 * hit_text.cc -- what a hit shows beside its record: why it scored what
 * it did (explain_hit: each query term's BM25 weight and the length
 * normalisation, the field boosts and the proximity bonus, adding up to
 * the score) and its snippet (make_snippet:
 * about N bytes of the abstract around the matched words, chosen with
 * the indexing stemmer, with the byte ranges to highlight).
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

#include "proximity.hh"
#include "read_side.hh"
extern "C" {
#include "../common/text.h"
#include "qscan.h"
}

using namespace pdxshim;

/* Term by term, the BM25 weight of each word of query that work did
 * (its document doc) holds: entries appended to terms, their sum
 * returned.  Each is the weight Xapian gives that term alone, with the
 * same wqf, for this work. */
static double term_weights(shim_db *h, const Xapian::Query &query,
                           const Xapian::Document &doc,
                           const std::string &idterm, double k1, double b,
                           cJSON *terms)
{
    std::map<std::string, Xapian::termcount> wqf, in_abstract;
    scored_terms(query, wqf, &in_abstract);
    double sum = 0;
    for (const auto &tw : wqf) {
        Xapian::TermIterator t = doc.termlist_begin();
        t.skip_to(tw.first);
        if (t == doc.termlist_end() || *t != tw.first || t.get_wdf() == 0)
            continue;
        Xapian::Enquire one(h->db);
        one.set_query(Xapian::Query(Xapian::Query::OP_FILTER,
                                    Xapian::Query(tw.first, tw.second),
                                    Xapian::Query(idterm)));
        one.set_weighting_scheme(Xapian::BM25Weight(k1, 0, 1, b, 0.5));
        Xapian::MSet ms = one.get_mset(0, 1);
        double w = ms.empty() ? 0.0 : ms.begin().get_weight();
        sum += w;
        if (!terms)
            continue;
        std::string word;
        const char *field = term_field(tw.first, word);
        /* An abstract: word is the default field's stem, matched only
         * where the abstract has it; the same stem also asked in the
         * default field shares its weight, and is labelled "text". */
        auto a = in_abstract.find(tw.first);
        if (a != in_abstract.end() && a->second == tw.second)
            field = "abstract";
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "term", tw.first.c_str());
        cJSON_AddStringToObject(e, "field", field);
        cJSON_AddStringToObject(e, "word", word.c_str());
        cJSON_AddBoolToObject(e, "stem", 1); /* layout 2: every word */
        cJSON_AddNumberToObject(e, "wdf", t.get_wdf());
        cJSON_AddNumberToObject(e, "docfreq", h->db.get_termfreq(tw.first));
        cJSON_AddNumberToObject(e, "weight", w);
        cJSON_AddItemToArray(terms, e);
    }
    return sum;
}

/* Why a hit scored what it did, part by part: each query term the work
 * holds, with its within-document frequency, document frequency and
 * BM25 weight, and the work's length normalisation ("terms", "sum");
 * each field boost ("title_boost", "author_boost": the words' BM25
 * weight in that field times the boost); the proximity bonus
 * ("proximity": each pair of neighbouring query words, its
 * co-occurrence in the title and its score,
 * proximity.cc).  The parts add up to the score for words, phrases and
 * boolean operators; a wildcard's OP_SYNONYM group is weighed as one
 * term by Xapian, so any difference is reported as "other". */
std::string explain_hit(shim_db *h, const ScoreParts &parts,
                        Xapian::docid did, double score)
{
    const double k1 = parts.k1, b = parts.b;
    Xapian::Document doc = h->db.get_document(did);
    std::string idterm;
    {
        Xapian::TermIterator t = doc.termlist_begin();
        t.skip_to(LAYOUT_P_ID);
        if (t != doc.termlist_end() && (*t)[0] == 'Q')
            idterm = *t;
    }
    double doclen = h->db.get_doclength(did), avlen = h->db.get_avlength();
    double normlen = std::max(avlen > 0 ? doclen / avlen : 0.0, 0.5);
    cJSON *o = cJSON_CreateObject();
    cJSON *terms = cJSON_AddArrayToObject(o, "terms");
    double sum = term_weights(h, parts.query, doc, idterm, k1, b, terms);
    double parts_sum = sum;
    const struct {
        const char *name;
        const Xapian::Query &q;
        double weight;
    } boosts[] = {{"title_boost", parts.title, parts.title_weight},
                  {"author_boost", parts.author, parts.author_weight}};
    for (const auto &bo : boosts) {
        if (bo.weight <= 0 || bo.q.empty())
            continue;
        const double w =
            term_weights(h, bo.q, doc, idterm, k1, b, nullptr);
        cJSON *e = cJSON_AddObjectToObject(o, bo.name);
        cJSON_AddNumberToObject(e, "boost", bo.weight);
        cJSON_AddNumberToObject(e, "words", w);
        cJSON_AddNumberToObject(e, "score", bo.weight * w);
        parts_sum += bo.weight * w;
    }
    if (parts.proximity) {
        const ProximityQuery &pq = *parts.proximity;
        std::vector<ProximityQuery::Part> got;
        ProximityReader one(parts.proximity);
        one.init(h->db);
        const double bonus = one.weigh(did, nullptr, &got);
        cJSON *e = cJSON_AddObjectToObject(o, "proximity");
        cJSON_AddNumberToObject(e, "window", pq.window);
        cJSON *pairs = cJSON_AddArrayToObject(e, "pairs");
        for (size_t i = 0; i < got.size(); i++) {
            if (got[i].score <= 0)
                continue;
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "pair",
                                    (pq.stems[pq.pairs[i].a] + " " +
                                     pq.stems[pq.pairs[i].b])
                                        .c_str());
            cJSON_AddNumberToObject(x, "title", got[i].title_tp);
            cJSON_AddNumberToObject(x, "score", got[i].score);
            cJSON_AddItemToArray(pairs, x);
        }
        cJSON_AddNumberToObject(e, "score", bonus);
        parts_sum += bonus;
    }
    cJSON_AddNumberToObject(o, "doc_length", doclen);
    cJSON_AddNumberToObject(o, "avg_length", avlen);
    cJSON_AddNumberToObject(o, "norm_length", normlen);
    cJSON_AddNumberToObject(o, "k1", k1);
    cJSON_AddNumberToObject(o, "b", b);
    cJSON_AddNumberToObject(o, "length_factor", k1 * ((1 - b) + b * normlen));
    cJSON_AddNumberToObject(o, "sum", sum);
    cJSON_AddNumberToObject(o, "other", score - parts_sum);
    cJSON_AddNumberToObject(o, "score", score);
    char *txt = cJSON_PrintUnformatted(o);
    std::string out = txt ? txt : "";
    cJSON_free(txt);
    cJSON_Delete(o);
    return out;
}

std::vector<Word> words_of(const std::string &text)
{
    std::vector<Word> out;
    Xapian::Utf8Iterator it(text), end;
    bool in = false;
    size_t start = 0;
    unsigned prev = 0;
    while (it != end) {
        const size_t at = it.raw() - text.data();
        const unsigned ch = *it;
        ++it;
        const unsigned next = it != end ? *it : 0;
        bool word = Xapian::Unicode::is_wordchar(ch);
        if (!word && in && (ch == '.' || ch == ',') && next &&
            Xapian::Unicode::get_category(prev) == Xapian::Unicode::DECIMAL_DIGIT_NUMBER &&
            Xapian::Unicode::get_category(next) == Xapian::Unicode::DECIMAL_DIGIT_NUMBER)
            word = true;
        if (!word && in && (ch == '\'' || ch == 0x2019) && next &&
            Xapian::Unicode::get_category(prev) <= Xapian::Unicode::OTHER_LETTER &&
            Xapian::Unicode::get_category(next) <= Xapian::Unicode::OTHER_LETTER)
            word = true;
        if (word && !in) {
            in = true;
            start = at;
        } else if (!word && in) {
            in = false;
            out.push_back(Word{start, at});
        }
        prev = ch;
    }
    if (in)
        out.push_back(Word{start, text.size()});
    return out;
}

/* Does a word character begin at text[at]? */
static bool word_after(const std::string &text, size_t at)
{
    if (at >= text.size())
        return false;
    Xapian::Utf8Iterator it(text.data() + at, text.size() - at);
    return Xapian::Unicode::is_wordchar(*it);
}

bool star_ends_word(const std::string &text, size_t at)
{
    return at < text.size() && text[at] == '*' && !word_after(text, at + 1) &&
           (at + 1 == text.size() || text[at + 1] != '*');
}

size_t word_suffix(const std::string &text, size_t at)
{
    size_t n = 0;
    while (at + n < text.size() && n < 4 && (text[at + n] == '+' || text[at + n] == '#'))
        n++;
    if (n == 0 || n > 3 || word_after(text, at + n))
        return 0;
    return n;
}

/* A word as it is indexed before stemming: accents folded, lower case. */
std::string fold_word(const std::string &w)
{
    return Xapian::Unicode::tolower(unaccent(w));
}

/* The snippet of one hit (pdx_query.snippet_bytes): the window of `text`
 * (its abstract) of at most `bytes` bytes that holds the most weight of
 * distinct query stems, each matched word between SHIM_HI_START and
 * SHIM_HI_END, SHIM_OMIT where the text is cut.  `weight` maps each stem
 * of the query to its idf.  A word is stemmed only if its first two bytes
 * begin some query stem (a porter2 stem keeps its word's first letters),
 * and stems are cached, so a page costs little beyond the scan.  The
 * window starts at its sentence when that fits, and ends at a sentence
 * end when one falls in its last part. */
namespace {
struct Match {
    Word w;
    const std::string *stem;
    double weight;
};
} // namespace

/* Whether Xapian 1.4's TermGenerator reads ch as CJK (its
 * CJK::codepoint_is_cjk, which the public API does not export). */
static bool is_cjk(unsigned ch)
{
    return (ch >= 0x2E80 && ch <= 0x2EFF) || (ch >= 0x3000 && ch <= 0x9FFF) ||
           (ch >= 0xA700 && ch <= 0xA71F) || (ch >= 0xAC00 && ch <= 0xD7AF) ||
           (ch >= 0xF900 && ch <= 0xFAFF) || (ch >= 0xFE30 && ch <= 0xFE4F) ||
           (ch >= 0xFF00 && ch <= 0xFFEF) || (ch >= 0x20000 && ch <= 0x2A6DF) ||
           (ch >= 0x2F800 && ch <= 0x2FA1F);
}

/* In an index that reads CJK text in n-grams, a run of CJK characters is
 * no word: its terms are each character and each pair of neighbours
 * (FLAG_CJK_NGRAM).  The run text[from, to)'s matches are the stretches
 * the query's n-grams of n characters cover (n 2 when the query has
 * pairs: each pair's two characters, neighbouring or overlapping pairs
 * one stretch, "蛋白" and "白质" marking 蛋白质; else 1, each character
 * it holds). */
static void cjk_matches(const std::string &text, size_t from, size_t to,
                        const std::map<std::string, double> &weight, size_t n,
                        std::vector<Match> &out)
{
    /* the characters' byte offsets, one past the last */
    std::vector<size_t> at;
    for (Xapian::Utf8Iterator it(text.data() + from, to - from), end; it != end; ++it)
        at.push_back(static_cast<size_t>(it.raw() - text.data()));
    at.push_back(to);
    const size_t m = at.size() - 1;
    std::vector<const std::map<std::string, double>::value_type *> covered(m, nullptr);
    for (size_t i = 0; i + n <= m; i++) {
        auto it = weight.find(text.substr(at[i], at[i + n] - at[i]));
        if (it == weight.end())
            continue;
        for (size_t k = i; k < i + n; k++)
            if (!covered[k])
                covered[k] = &*it;
    }
    for (size_t i = 0; i < m;) {
        if (!covered[i]) {
            i++;
            continue;
        }
        /* one stretch: its distinct terms' weights summed, named by its
         * first */
        size_t j = i;
        std::set<const std::string *> seen;
        double sum = 0;
        for (; j < m && covered[j]; j++)
            if (seen.insert(&covered[j]->first).second)
                sum += covered[j]->second;
        out.push_back(Match{Word{at[i], at[j]}, &covered[i]->first, sum});
        i = j;
    }
}

/* The words of text whose stems weight holds, in order. */
static std::vector<Match> matched_words(shim_db *h, const std::string &text,
                                        const std::map<std::string, double> &weight)
{
    std::set<std::string> starts;
    /* CJK n-grams' length (cjk_matches): 2 if the query has a pair */
    size_t ngram = 1;
    for (const auto &w : weight) {
        starts.insert(w.first.substr(0, 2));
        size_t chars = 0;
        bool cjk = true;
        for (Xapian::Utf8Iterator it(w.first), end; it != end && cjk; ++it, ++chars)
            cjk = is_cjk(*it);
        if (cjk && chars == 2)
            ngram = 2;
    }
    std::vector<Match> matches;
    /* the word text[from, to) */
    auto word = [&](size_t from, size_t to) {
        std::string f = fold_word(text.substr(from, to - from));
        /* a formula's word read as the index reads it (LAYOUT_META_MATH):
         * "L_1", "ℓ1" and TeX's "\ell_1" are l1, "CO₂" co2; the mark
         * then takes in the backslash */
        const bool tex = from > 0 && text[from - 1] == '\\';
        if (h->math_scripts &&
            (tex || text_may_hold_scripts(f.data(), f.size(), h->math_scripts))) {
            const std::string in = tex ? "\\" + f : f;
            std::string j = in;
            j.resize(text_join_tex_scripts(in.data(), in.size(), &j[0],
                                           h->math_scripts));
            if (j != in) {
                from -= tex && j.compare(0, 1, "\\");
                f = j;
            }
        }
        /* with its suffix ("KMeans++", "C#"), as the index reads it */
        if (const size_t sl = word_suffix(text, to)) {
            const std::string fs = f + text.substr(to, sl);
            auto it = starts.count(fs.substr(0, 2)) ? weight.find(h->stem(fs))
                                                    : weight.end();
            if (it != weight.end()) {
                matches.push_back(Match{Word{from, to + sl}, &it->first, it->second});
                return;
            }
        }
        /* a letter with its star ("A*"), where the index reads it as a
         * word (LAYOUT_META_STARS, TextTerms::stars: not "**R**") */
        if (h->stars && f.size() == 1 && f[0] >= 'a' && f[0] <= 'z' &&
            (from == 0 || text[from - 1] != '*') && star_ends_word(text, to)) {
            auto it = weight.find(f + "*");
            if (it != weight.end()) {
                matches.push_back(Match{Word{from, to + 1}, &it->first, it->second});
                return;
            }
        }
        if (!starts.count(f.substr(0, 2)))
            return;
        auto it = weight.find(h->stem(f));
        if (it != weight.end())
            matches.push_back(Match{Word{from, to}, &it->first, it->second});
    };
    /* Where the index joins a hyphenated compound into a word
     * (LAYOUT_META_COMPOUNDS), "pre-trained" is that word too: the
     * compound is marked whole when the joined word's stem is asked;
     * and where it reads a formula before a hyphen as the compound's
     * first part (TEXT_MATH_JOINED), so is "$k$-means". */
    auto hyphen = [&](size_t from, size_t to) {
        if (h->math_scripts >= TEXT_MATH_JOINED && to > from + 1 && text[from] == '$')
            from++;
        return to > from && text_compound_hyphen(text.data() + from, to - from) == to - from;
    };
    /* A run of letters, each alone, separated by single dots, as the
     * index reads it (indexer/text_terms.cc): capitals ("U.S.A") from
     * two, letters of either case ("i.i.d.") from three where the index
     * joins those (LAYOUT_META_DOTTED), two of either case with a dot
     * between where it keeps those ("e.g." e.g, LAYOUT_META_DOTTED_PAIRS): the
     * run is marked whole when its letters joined (the pair's with its
     * dot) are asked.  The number of words it takes, or 0. */
    auto letter = [&](const Word &w) {
        return w.end == w.start + 1 && isalpha(static_cast<unsigned char>(text[w.start]));
    };
    /* Two letters at i with a dot between, not right after a dot, where
     * the index reads them as one word that keeps its dot ("U.S." u.s,
     * LAYOUT_META_DOTTED_PAIRS). */
    auto pair = [&](const Word &first) {
        return h->dotted_pairs && !(first.start > 0 && text[first.start - 1] == '.');
    };
    auto dotted_run = [&](const std::vector<Word> &ws, size_t i) -> size_t {
        if (!letter(ws[i]) || (ws[i].start > 0 && text[ws[i].start - 1] == '.' &&
                               !isupper(static_cast<unsigned char>(text[ws[i].start]))))
            return 0;
        size_t j = i;
        bool lower = islower(static_cast<unsigned char>(text[ws[i].start]));
        while (j + 1 < ws.size() && letter(ws[j + 1]) && text[ws[j].end] == '.' &&
               ws[j + 1].start == ws[j].end + 1) {
            j++;
            lower = lower || islower(static_cast<unsigned char>(text[ws[j].start]));
        }
        const size_t n = j - i + 1;
        if (ws[j].end < text.size() && word_after(text, ws[j].end))
            return 0;
        if (n == 2 && pair(ws[i]))
            return n;
        return (lower ? h->dotted && n >= 3 : n >= 2) ? n : 0;
    };
    const std::vector<Word> words = words_of(text);
    for (size_t i = 0; i < words.size(); i++) {
        const Word &w = words[i];
        if (const size_t n = dotted_run(words, i)) {
            std::string joined;
            for (size_t k = i; k < i + n; k++)
                joined += static_cast<char>(tolower(static_cast<unsigned char>(text[words[k].start])));
            const bool dotted_pair = n == 2 && pair(w);
            if (dotted_pair)
                joined.insert(1, 1, '.');
            /* a pair unstemmed, as the index keeps it */
            auto it = weight.find(dotted_pair ? joined : h->stem(joined));
            if (it != weight.end()) {
                size_t to = words[i + n - 1].end;
                to += to < text.size() && text[to] == '.';
                matches.push_back(Match{Word{w.start, to}, &it->first, it->second});
                i += n - 1;
                continue;
            }
        }
        if (h->compounds_joined && i + 1 < words.size() &&
            hyphen(w.end, words[i + 1].start)) {
            size_t j = i;
            std::string joined = fold_word(text.substr(w.start, w.end - w.start));
            while (j + 1 < words.size() && hyphen(words[j].end, words[j + 1].start)) {
                j++;
                joined += fold_word(text.substr(words[j].start, words[j].end - words[j].start));
            }
            auto it = starts.count(joined.substr(0, 2)) ? weight.find(h->stem(joined))
                                                        : weight.end();
            size_t to = words[j].end;
            /* "k-means++": kmeans++ before kmeans */
            if (const size_t sl = word_suffix(text, to)) {
                auto sit = starts.count(joined.substr(0, 2))
                               ? weight.find(h->stem(joined + text.substr(to, sl)))
                               : weight.end();
                if (sit != weight.end()) {
                    it = sit;
                    to += sl;
                }
            }
            if (it != weight.end()) {
                matches.push_back(Match{Word{w.start, to}, &it->first, it->second});
                i = j;
                continue;
            }
        }
        /* A pair joined by a slash with a stop word in it ("A/B",
         * "and/or"), where the index reads it as one word, its parts
         * joined by an underscore (LAYOUT_META_SLASH_PAIRS): marked whole
         * when that word is asked (not in a run of slashes, "a/b/c"). */
        if (h->slash_pairs && i + 1 < words.size() && text[w.end] == '/' &&
            words[i + 1].start == w.end + 1 && !(w.start > 0 && text[w.start - 1] == '/') &&
            !(words[i + 1].end < text.size() && text[words[i + 1].end] == '/' &&
              word_after(text, words[i + 1].end + 1))) {
            const std::string joined =
                fold_word(text.substr(w.start, w.end - w.start)) + "_" +
                fold_word(text.substr(words[i + 1].start, words[i + 1].end - words[i + 1].start));
            auto it = starts.count(joined.substr(0, 2)) ? weight.find(h->stem(joined))
                                                        : weight.end();
            if (it != weight.end()) {
                matches.push_back(Match{Word{w.start, words[i + 1].end}, &it->first, it->second});
                i++;
                continue;
            }
        }
        if (!h->cjk_ngram) {
            word(w.start, w.end);
            continue;
        }
        /* its runs of CJK characters as n-grams, the rest as words */
        size_t run = w.start;
        bool in_cjk = false;
        for (Xapian::Utf8Iterator it(text.data() + w.start, w.end - w.start), end;; ++it) {
            const bool over = it == end;
            const size_t here = over ? w.end : static_cast<size_t>(it.raw() - text.data());
            const bool c = !over && is_cjk(*it);
            if ((over || c != in_cjk) && here > run) {
                if (in_cjk)
                    cjk_matches(text, run, here, weight, ngram, matches);
                else
                    word(run, here);
                run = here;
            }
            if (over)
                break;
            in_cjk = c;
        }
    }
    return matches;
}

std::string mark_words(shim_db *h, const std::string &text,
                       const std::map<std::string, double> &weight)
{
    std::string out;
    size_t at = 0;
    for (const Match &m : matched_words(h, text, weight)) {
        out.append(text, at, m.w.start - at);
        out += SHIM_HI_START;
        out.append(text, m.w.start, m.w.end - m.w.start);
        out += SHIM_HI_END;
        at = m.w.end;
    }
    out.append(text, at, std::string::npos);
    return out;
}

std::string make_snippet(shim_db *h, const std::string &text,
                                const std::map<std::string, double> &weight,
                                size_t bytes)
{
    if (text.empty())
        return text;
    const std::vector<Match> matches = matched_words(h, text, weight);
    /* The best run of matches that fits: distinct stems' weights, a
     * repeat adding a tenth. */
    size_t best_i = 0, best_j = 0;
    double best = -1;
    for (size_t i = 0; i < matches.size(); i++) {
        std::set<const std::string *> seen;
        double sc = 0;
        for (size_t j = i; j < matches.size(); j++) {
            if (matches[j].w.end - matches[i].w.start > bytes)
                break;
            sc += seen.insert(matches[j].stem).second ? matches[j].weight
                                                      : matches[j].weight / 10;
            if (sc > best + 1e-9) {
                best = sc;
                best_i = i;
                best_j = j + 1;
            }
        }
    }
    size_t from = 0, to = text.size();
    if (text.size() > bytes) {
        size_t lo = best < 0 ? 0 : matches[best_i].w.start;
        size_t hi = best < 0 ? 0 : matches[best_j - 1].w.end;
        /* Start at the sentence if it fits, else a little before the
         * first match, at a word. */
        size_t sent = text.rfind(". ", lo);
        sent = sent == std::string::npos ? 0 : sent + 2;
        if (lo - sent + (hi - lo) <= bytes)
            from = sent;
        else
            from = lo > bytes / 8 ? lo - bytes / 8 : 0;
        while (from > 0 && from < lo &&
               !isspace(static_cast<unsigned char>(text[from - 1])))
            from++;
        to = std::min(text.size(), from + bytes);
        if (to < text.size()) {
            size_t stop = text.rfind(". ", to - 1);
            if (stop != std::string::npos && stop + 1 >= hi &&
                stop + 1 > from + bytes * 6 / 10) {
                to = stop + 1; /* a whole sentence: no mark */
            } else {
                /* Back to a space: past the run when it fits, else inside
                 * it (its later matches left out); in text without spaces
                 * (Chinese, Japanese) to a character's edge.  Never in a
                 * character or a word. */
                const size_t keep = hi < to ? hi : from;
                size_t t = to;
                while (t > keep && !isspace(static_cast<unsigned char>(text[t])))
                    t--;
                if (t == from) {
                    t = to;
                    while (t > from &&
                           (static_cast<unsigned char>(text[t]) & 0xC0) == 0x80)
                        t--;
                }
                to = t;
            }
        }
        while (to > from && isspace(static_cast<unsigned char>(text[to - 1])))
            to--;
    }
    std::string out;
    if (from > 0)
        out += SHIM_OMIT;
    size_t at = from;
    for (const Match &m : matches) {
        if (m.w.start < from || m.w.end > to)
            continue;
        out.append(text, at, m.w.start - at);
        out += SHIM_HI_START;
        out.append(text, m.w.start, m.w.end - m.w.start);
        out += SHIM_HI_END;
        at = m.w.end;
    }
    out.append(text, at, to - at);
    if (to < text.size() && text[to - 1] != '.')
        out += SHIM_OMIT;
    return out;
}

/* The stems a query matches text by, with their idf, for snippets: its
 * scored terms, field prefixes taken off. */
std::map<std::string, double> snippet_weights(shim_db *h,
                                                     const Xapian::Query &q)
{
    std::map<std::string, Xapian::termcount> wqf;
    scored_terms(q, wqf);
    std::map<std::string, double> out;
    const double n = std::max<double>(1, h->db.get_doccount());
    for (const auto &t : wqf) {
        std::string stem;
        if (!strcmp(term_field(t.first, stem), "text") && !is_plain_term(stem))
            continue; /* not a word: a boolean term */
        if (stem.empty())
            continue;
        const double tf = std::max<double>(1, h->db.get_termfreq(t.first));
        out[stem] = std::max(out[stem], std::log(1 + n / tf));
    }
    return out;
}

