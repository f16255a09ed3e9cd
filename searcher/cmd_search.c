/*
 * cmd_search.c -- `paperdex search`: one query, BM25-ranked, with filters.
 * Every option maps onto a field of pdx_query; the library does the work.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "batch.h"
#include "output.h"

#define MAX_FILTERS 64

static const char help[] =
    "usage: paperdex search --db DIR [options] [QUERY...]\n"
    "       paperdex search --db DIR --batch FILE [options]\n"
    "\n"
    "Rank the works in DIR against QUERY with BM25.  Words are OR-ed,\n"
    "ranked and searched by their stems (networks finds network); a\n"
    "\"quoted word or phrase\" (or \u201e\u2026\u201c, \u00ab\u2026\u00bb, \u300c\u2026\u300d) is the words\n"
    "as written (a quote never closed: to the end of the query, or\n"
    "in a passage read as words, left out).  +must, -not, AND, OR,\n"
    "NOT, ( ), a NEAR/n b\n"
    "(within n words), a ADJ/n b (b after a), \"a b\"~n (Lucene's), a\n"
    "trailing * wildcard (a letter with a star, A* or Q*, is a word),\n"
    "the field prefixes title: and abstract:,\n"
    "and the filters author:, category:, year: and subject: are\n"
    "understood, and arXiv's ti:, abs:, au: (au:bengio_y, a name's\n"
    "words joined by _), cat: and all: as these,\n"
    "Google Scholar's intitle: as title: and allintitle: a b as\n"
    "+title:a +title:b, firstauthor:Bengio (the first author), and a\n"
    "citation as a text writes it, Bengio et al. 2025, (Vaswani et\n"
    "al., 2017), Smith and Jones 2020, LeCun, Bengio and Hinton 2015\n"
    "or Hinton (2006), as\n"
    "firstauthor:\"Bengio\" year:2025 (any author when no work has it\n"
    "first, the words when nothing matches), and a query of PubMed's\n"
    "names alone, Wu Z or Wu Z, Li Y, or of one person's name, Yann\n"
    "LeCun or C.D. Manning, as those authors (the words when no work\n"
    "has them, with a note when they are punctuated as names, the\n"
    "index's authors of that family name have other initials, or the\n"
    "given name is its authors' more than a word: Edward Witten), and an\n"
    "arXiv category code written as a word, cs.CL, as category:cs.CL\n"
    "(docs/query.md has the whole syntax).  A field\n"
    "with no value, a name that is no field, a category or subject no\n"
    "work has, a query of stop words only or of no word at all (\u221e),\n"
    "and, when nothing matched, an author no work has or years no\n"
    "work is from get a note.\n"
    "Options may follow the words; after the first word, -word is an\n"
    "exclusion.  With no QUERY, the works passing the filters are\n"
    "listed, newest first.\n"
    "\n"
    "filters (every filter given must hold, a repeated one too: two\n"
    "--category narrow to the works in both; alternatives go in one value,\n"
    "separated by |, as --category 'cs.CV|cs.LG'):\n"
    "  --year Y           one year, or a range 2019..2021 (or 2019-2021),\n"
    "                     2019.., ..2019 (or >=2019, <2020)\n"
    "  --category C       cs.CV; a bare archive (cs) matches all of it;\n"
    "                     a bare cs code (CV, LG) means cs.CV; arXiv's\n"
    "                     name (\"Machine Learning\") its codes (repeatable)\n"
    "  --author NAME      \"Zhihua Wu\", \"Wu, Zhihua\", \"Wu Zhihua\" (both\n"
    "                     orders tried), \"Z. Wu\", \"Wu Z\" (PubMed),\n"
    "                     \"van der Berg\": case, accents (Muller,\n"
    "                     Mueller), order and initials do not matter;\n"
    "                     \"Ming-Hsuan\", \"M.-H.\" and \"MH\" are never\n"
    "                     \"Ming\" (repeatable); a name that matches\n"
    "                     nothing gets the nearest one; in a query,\n"
    "                     author:\"Wu, Z.\"\n"
    "  --subject S        a whole subject term: a MeSH heading, an OpenAlex\n"
    "                     topic, a BibTeX keyword; case, accents and\n"
    "                     punctuation do not matter (repeatable); in a\n"
    "                     query, subject:\"Drug Therapy\"\n"
    "options:\n"
    "  --db DIR           the index (default: $PAPERDEX_DB); repeat it to\n"
    "                     search several indexes as one, with global BM25\n"
    "                     statistics; DIR may be tcp://HOST:PORT, an index\n"
    "                     served by xapian-tcpsrv\n"
    "  --limit N          hits to show (default 10, at most 10000)\n"
    "  --offset N         hits to skip (default 0)\n"
    "  --sort S           relevance (default with a query), newest\n"
    "                     (default without), oldest; by date, the query's\n"
    "                     words are AND-ed (each must hold), and works of\n"
    "                     one date go by id in the same direction\n"
    "  --rank R           default: BM25 plus a bonus for the query's\n"
    "                     neighbouring words standing together in a work's\n"
    "                     title (closer, and in the order written, count\n"
    "                     more); bm25: flat BM25 over the bag of words\n"
    "                     (the weights below then default to 0)\n"
    "  --proximity-weight X  that bonus's weight (default 0.35; 0: none)\n"
    "  --k1 X, --b X      BM25 parameters (defaults 1.2 and 0.6)\n"
    "  --title-weight X   add X times the words' BM25 weight in the title\n"
    "                     alone (default 0)\n"
    "  --author-weight X  the same for the author names (default 0)\n"
    "  --expand           pseudo-relevance feedback: add the best terms of\n"
    "                     the top works of a first ranking to the query\n"
    "  --expand-docs N    feedback works (default 10; implies --expand)\n"
    "  --expand-terms N   terms added (default 10)\n"
    "  --expand-weight X  the best added term's weight relative to one\n"
    "                     query word, 0 < X <= 1 (default 0.25)\n"
    "  --syntax S         auto (default): the query language, but prose\n"
    "                     -- 30 words or more, 4 or more all in capitals,\n"
    "                     AND, OR, NOT right after a stop word (are NOT),\n"
    "                     or XOR between capitalised words (Embedded XOR\n"
    "                     Logic) -- is read as plain words, so a NOT or a\n"
    "                     '(' in a pasted abstract or title is a word, and\n"
    "                     a note says so; query: always the language; words:\n"
    "                     always plain words and \"phrases\" (the default\n"
    "                     with --batch)\n"
    "  --lenient          read a query that does not parse as plain words\n"
    "                     instead of failing (always on with --batch)\n"
    "  --exact            count every match, so the total is exact past\n"
    "                     10,000 too (slower on common words)\n"
    "  --count-limit N    count matches exactly up to N (default 10000);\n"
    "                     past N the total reads \"N+ matches\"\n"
    "  --all              with no QUERY and no filter, list every work\n"
    "  --explain          show each hit's BM25 weight term by term (field,\n"
    "                     wdf, document frequency) and its length\n"
    "                     normalisation; the weights add up to the score\n"
    "  --no-suggest       no \"did you mean\" for misspelt words\n"
    "  --facets LIST      count year, category, author and/or subject values over\n"
    "                     every match (comma-separated)\n"
    "  --facet-limit N    values kept per facet (default 10)\n"
    "  --snippet N        show about N bytes of each abstract around the\n"
    "                     matched words (default 200; 0: none); the words\n"
    "                     are bold on a terminal, and JSON gives their\n"
    "                     byte offsets in \"highlights\"\n"
    "  --format F         text (default), json or jsonl; bibtex, ris or\n"
    "                     csljson: the page's works as citations, for a\n"
    "                     reference manager; with --batch, trec (default)\n"
    "                     or jsonl\n"
    "  --batch FILE       run every query in FILE: BEIR queries (JSON\n"
    "                     lines with _id and text), a SMART query file\n"
    "                     (.I/.W/.A), or lines \"qid<TAB>query\"; the\n"
    "                     default --limit is then 1000\n"
    "  --run-tag TAG      the last column of TREC output (default\n"
    "                     paperdex)\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 ok (also when nothing matched); 1 the index is missing,\n"
    "locked against reading, damaged or not a paperdex index; 2 usage,\n"
    "including a query that cannot be parsed or an empty query without\n"
    "filters.\n";

/* "year,category,author,subject" -> PDX_FACET_* bits. */
static int parse_facets(const char *s, unsigned *out)
{
    *out = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        if (n == 4 && !strncmp(s, "year", 4))
            *out |= PDX_FACET_YEAR;
        else if (n == 8 && !strncmp(s, "category", 8))
            *out |= PDX_FACET_CATEGORY;
        else if (n == 6 && !strncmp(s, "author", 6))
            *out |= PDX_FACET_AUTHOR;
        else if (n == 7 && !strncmp(s, "subject", 7))
            *out |= PDX_FACET_SUBJECT;
        else
            return -1;
        s += n + (s[n] == ',');
    }
    return *out ? 0 : -1;
}

int cmd_search(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"year", required_argument, NULL, 'y'},
        {"category", required_argument, NULL, 'c'},
        {"author", required_argument, NULL, 'a'},
        {"subject", required_argument, NULL, 'j'},
        {"limit", required_argument, NULL, 'l'},
        {"offset", required_argument, NULL, 'o'},
        {"sort", required_argument, NULL, 's'},
        {"k1", required_argument, NULL, 'K'},
        {"b", required_argument, NULL, 'B'},
        {"exact", no_argument, NULL, 'e'},
        {"count-limit", required_argument, NULL, 'C'},
        {"all", no_argument, NULL, 'A'},
        {"snippet", required_argument, NULL, 'S'},
        {"facets", required_argument, NULL, 'T'},
        {"explain", no_argument, NULL, 'E'},
        {"no-suggest", no_argument, NULL, 'N'},
        {"facet-limit", required_argument, NULL, 'L'},
        {"format", required_argument, NULL, 'f'},
        {"batch", required_argument, NULL, 'Q'},
        {"expand", no_argument, NULL, 'x'},
        {"expand-docs", required_argument, NULL, 'D'},
        {"expand-terms", required_argument, NULL, 'M'},
        {"expand-weight", required_argument, NULL, 'W'},
        {"lenient", no_argument, NULL, 'P'},
        {"syntax", required_argument, NULL, 1001},
        {"title-weight", required_argument, NULL, 't'},
        {"rank", required_argument, NULL, 1002},
        {"proximity-weight", required_argument, NULL, 1003},
        {"author-weight", required_argument, NULL, 'u'},
        {"run-tag", required_argument, NULL, 'R'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *dbs[MAX_FILTERS], *cats[MAX_FILTERS], *authors[MAX_FILTERS],
        *subjects[MAX_FILTERS];
    size_t n_dbs = 0;
    pdx_query q = PDX_QUERY_INIT;
    q.filters_all = 1; /* a repeated filter narrows, as a facet click */
    out_format fmt = OUT_TEXT;
    const char *batch = NULL, *fmt_name = NULL, *tag = "paperdex";
    int limit_given = 0, syntax_given = 0;
    int c;
    optind = 1;
    int words_at;
    if (cli_query_args("search", argc, argv, opts, &words_at))
        return EXIT_USAGE;
    opterr = 0;
    /* to the first word: one that begins with '-' is no option */
    while ((c = getopt_long(words_at, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (n_dbs == MAX_FILTERS) {
                cli_error("at most %d --db", MAX_FILTERS);
                return EXIT_USAGE;
            }
            dbs[n_dbs++] = optarg;
            break;
        case 'y':
            if (pdx_parse_year_range(optarg, &q.year_min, &q.year_max)) {
                cli_error("--year takes YEAR, A..B, A.., ..B, >=A or <B "
                          "with 4-digit years and A <= B, not '%s'",
                          optarg);
                return EXIT_USAGE;
            }
            break;
        case 'c':
        case 'a':
        case 'j': {
            size_t *n = c == 'c'   ? &q.n_categories
                        : c == 'a' ? &q.n_authors
                                   : &q.n_subjects;
            const char **v = c == 'c' ? cats : c == 'a' ? authors : subjects;
            if (*n == MAX_FILTERS) {
                cli_error("at most %d --%s filters", MAX_FILTERS,
                          c == 'c' ? "category" : c == 'a' ? "author" : "subject");
                return EXIT_USAGE;
            }
            v[(*n)++] = optarg;
            break;
        }
        case 'l':
            limit_given = 1;
            if (cli_size(optarg, PDX_MAX_LIMIT, &q.limit)) {
                cli_error("--limit takes a number from 0 to %d",
                          PDX_MAX_LIMIT);
                return EXIT_USAGE;
            }
            break;
        case 'o':
            if (cli_size(optarg, 100000000, &q.offset)) {
                cli_error("--offset takes a non-negative number");
                return EXIT_USAGE;
            }
            break;
        case 's':
            if (!strcmp(optarg, "relevance"))
                q.sort = PDX_SORT_RELEVANCE;
            else if (!strcmp(optarg, "newest"))
                q.sort = PDX_SORT_NEWEST;
            else if (!strcmp(optarg, "oldest"))
                q.sort = PDX_SORT_OLDEST;
            else {
                cli_error("--sort takes relevance, newest or oldest");
                return EXIT_USAGE;
            }
            break;
        case 'K':
            if (cli_double(optarg, &q.k1) || q.k1 < 0) {
                cli_error("--k1 takes a number >= 0");
                return EXIT_USAGE;
            }
            break;
        case 'B':
            if (cli_double(optarg, &q.b) || q.b < 0 || q.b > 1) {
                cli_error("--b takes a number from 0 to 1");
                return EXIT_USAGE;
            }
            break;
        case 'e': q.exact_total = 1; break;
        case 'C':
            if (cli_size(optarg, 100000000, &q.count_limit) || !q.count_limit) {
                cli_error("--count-limit takes a whole number from 1 to "
                          "100000000");
                return EXIT_USAGE;
            }
            break;
        case 'A': q.all = 1; break;
        case 'E': q.explain = 1; break;
        case 'N': q.no_suggest = 1; break;
        case 'T':
            if (parse_facets(optarg, &q.facets)) {
                cli_error("--facets takes a list of year, category, author, subject");
                return EXIT_USAGE;
            }
            break;
        case 'L':
            if (cli_size(optarg, 1000000, &q.facet_limit) || !q.facet_limit) {
                cli_error("--facet-limit takes a number from 1 to 1000000");
                return EXIT_USAGE;
            }
            break;
        case 'S':
            if (cli_size(optarg, 100000, &q.snippet_bytes)) {
                cli_error("--snippet takes a length in bytes, 0 to 100000");
                return EXIT_USAGE;
            }
            break;
        case 'f': fmt_name = optarg; break;
        case 'Q': batch = optarg; break;
        case 'x':
            if (!q.expand_docs)
                q.expand_docs = PDX_DEFAULT_EXPAND_DOCS;
            break;
        case 'D':
            if (cli_size(optarg, 1000, &q.expand_docs) || !q.expand_docs) {
                cli_error("--expand-docs takes a number from 1 to 1000");
                return EXIT_USAGE;
            }
            break;
        case 'M':
            if (cli_size(optarg, 1000, &q.expand_terms) || !q.expand_terms) {
                cli_error("--expand-terms takes a number from 1 to 1000");
                return EXIT_USAGE;
            }
            break;
        case 'W':
            if (cli_double(optarg, &q.expand_weight) || q.expand_weight <= 0 ||
                q.expand_weight > 1) {
                cli_error("--expand-weight takes a number in (0, 1]");
                return EXIT_USAGE;
            }
            break;
        case 'P': q.lenient = 1; break;
        case 1001:
            if (!strcmp(optarg, "auto"))
                q.syntax = PDX_SYNTAX_AUTO;
            else if (!strcmp(optarg, "query"))
                q.syntax = PDX_SYNTAX_QUERY;
            else if (!strcmp(optarg, "words"))
                q.syntax = PDX_SYNTAX_WORDS;
            else {
                cli_error("--syntax takes auto, query or words");
                return EXIT_USAGE;
            }
            syntax_given = 1;
            break;
        case 1002:
            if (!strcmp(optarg, "default"))
                q.rank = PDX_RANK_DEFAULT;
            else if (!strcmp(optarg, "bm25"))
                q.rank = PDX_RANK_BM25;
            else {
                cli_error("--rank takes default or bm25");
                return EXIT_USAGE;
            }
            break;
        case 't':
        case 'u':
        case 1003: {
            double *w = c == 't'   ? &q.title_weight
                        : c == 'u' ? &q.author_weight
                                   : &q.proximity_weight;
            if (cli_double(optarg, w) || *w < 0 || *w > 100) {
                cli_error("--%s-weight takes a number from 0 to 100",
                          c == 't'   ? "title"
                          : c == 'u' ? "author"
                                     : "proximity");
                return EXIT_USAGE;
            }
            break;
        }
        case 'R':
            if (!*optarg || strpbrk(optarg, " \t\n")) {
                cli_error("--run-tag takes one word");
                return EXIT_USAGE;
            }
            tag = optarg;
            break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("search", c, argv, opts);
        }
    }
    if (!n_dbs && cli_default_db())
        dbs[n_dbs++] = cli_default_db();
    if (!n_dbs) {
        cli_error("search: --db DIR is required");
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    q.categories = cats;
    q.subjects = subjects;
    q.authors = authors;
    if (batch) {
        batch_format bf = BATCH_TREC;
        if (fmt_name && !strcmp(fmt_name, "jsonl"))
            bf = BATCH_JSONL;
        else if (fmt_name && strcmp(fmt_name, "trec")) {
            cli_error("with --batch, --format takes trec or jsonl");
            return EXIT_USAGE;
        }
        if (optind < argc) {
            cli_error("--batch takes its queries from the file, not the "
                      "command line");
            return EXIT_USAGE;
        }
        if (!limit_given)
            q.limit = 1000;
        q.lenient = 1;
        if (!syntax_given) /* test-collection questions are prose */
            q.syntax = PDX_SYNTAX_WORDS;
        q.snippet_bytes = 0; /* not printed: TREC lines and records */
        q.no_suggest = 1;
        int st = EXIT_OK_;
        pdx_index *bix = cli_open_shards(dbs, n_dbs, &st);
        if (!bix)
            return st;
        st = search_batch(bix, &q, batch, bf, tag, stdout);
        pdx_close(bix);
        return st;
    }
    if (fmt_name && out_parse_format(fmt_name, &fmt)) {
        cli_error("--format takes text, json, jsonl, bibtex, ris or csljson%s",
                  !strcmp(fmt_name, "trec") ? " (trec needs --batch)" : "");
        return EXIT_USAGE;
    }

    char *text = NULL;
    size_t text_len = 0;
    FILE *tf = open_memstream(&text, &text_len);
    for (int i = optind; tf && i < argc; i++) {
        if (i > optind)
            fputc(' ', tf);
        fputs(argv[i], tf);
    }
    if (!tf || fclose(tf)) {
        cli_error("out of memory");
        return EXIT_ERROR;
    }
    q.text = text;

    int status = EXIT_OK_;
    pdx_index *ix = cli_open_shards(dbs, n_dbs, &status);
    if (!ix) {
        free(text);
        return status;
    }
    pdx_results *r = NULL;
    int rc = pdx_search(&r, ix, &q);
    if (!rc && pdx_results_note(r))
        fprintf(stderr, "note: %s\n", pdx_results_note(r));
    if (rc == PDX_EQUERY) {
        cli_error("%s (--syntax words, or --lenient, searches it as plain "
                  "words)",
                  pdx_errmsg(ix));
        status = cli_exit_for(rc);
    } else if (rc) {
        cli_error("%s", pdx_errmsg(ix));
        status = cli_exit_for(rc);
    } else if (out_results(stdout, fmt, q.text, r, q.offset, q.limit,
                           cli_color(stdout), q.facets)) {
        cli_error("cannot write the results");
        status = EXIT_ERROR;
    }
    pdx_results_free(r);
    pdx_close(ix);
    free(text);
    return status;
}
