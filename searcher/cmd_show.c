/*
 * cmd_show.c -- `paperdex show`: one work with every field and every
 * source it was merged from (file, line, and what that source said).
 */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../common/arxiv_categories.h"
#include "cite.h"
#include "cli.h"

static const char help[] =
    "usage: paperdex show --db DIR [--format text|json|jsonl|bibtex|ris|\n"
    "                               csljson] ID...\n"
    "\n"
    "Print each work with all its fields and its sources: the file and\n"
    "line of every record merged into it, and, when there are several,\n"
    "what each of them gave.  ID is the work's id, an id any of its\n"
    "sources gave, an arXiv id, DOI, PMID or OpenAlex id as people paste\n"
    "them (arXiv:ID, https://doi.org/..., PMID:123, W123), or a record's\n"
    "citation key in its file (BibTeX, RIS ID): the works of every file\n"
    "that uses it.\n"
    "\n"
    "  --db DIR        the index (default: $PAPERDEX_DB)\n"
    "  --format F      text (default); json: the work as one object, or\n"
    "                  one array of them for several IDs (or an ID that\n"
    "                  names several works); jsonl: one\n"
    "                  object a line; bibtex, ris or csljson: the works\n"
    "                  as citations, for a reference manager\n"
    "\n"
    "exit status: 0 every ID found; 1 an ID has no work, or the index is\n"
    "missing, damaged or not a paperdex index; 2 usage.\n";

static void text_field(const char *key, const cJSON *v)
{
    if (cJSON_IsString(v))
        printf("  %-18s %s\n", key, v->valuestring);
    else if (cJSON_IsNumber(v))
        printf("  %-18s %g\n", key, v->valuedouble);
    else if (cJSON_IsBool(v))
        printf("  %-18s %s\n", key, cJSON_IsTrue(v) ? "yes" : "no");
    else if (cJSON_IsArray(v)) {
        printf("  %-18s ", key);
        const cJSON *it;
        int i = 0;
        /* an arXiv category with its name, as arXiv's abstract pages
         * write it: "cs.LG (Machine Learning)" */
        const int cats = !strcmp(key, "categories");
        cJSON_ArrayForEach(it, v)
        {
            const char *s = cJSON_IsString(it) ? it->valuestring : "?";
            const char *name = cats ? arxiv_category_name(s) : NULL;
            printf("%s%s", i++ ? "; " : "", s);
            if (name)
                printf(" (%s)", name);
        }
        putchar('\n');
    }
}

static void show_text(const char *json)
{
    cJSON *o = cJSON_Parse(json);
    const cJSON *f;
    /* "versioned" belongs to a source's record, not to the work. */
    cJSON_ArrayForEach(f, o)
        if (strcmp(f->string, "sources") && strcmp(f->string, "versioned"))
            text_field(f->string, f);
    const cJSON *srcs = cJSON_GetObjectItemCaseSensitive(o, "sources");
    int n = cJSON_GetArraySize(srcs), i = 0;
    printf("  sources            %d\n", n);
    const cJSON *s;
    cJSON_ArrayForEach(s, srcs)
    {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(s, "file");
        const cJSON *line = cJSON_GetObjectItemCaseSensitive(s, "line");
        /* A record with an id of its own is placed by the id, not by a
         * line (it may move within its file). */
        if (cJSON_IsNumber(line))
            printf("  [%d] %s:%g\n", ++i,
                   cJSON_IsString(file) ? file->valuestring
                                        : "(added by a program)",
                   line->valuedouble);
        else
            printf("  [%d] %s\n", ++i,
                   cJSON_IsString(file) ? file->valuestring
                                        : "(added by a program)");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "set_aside")))
            printf("      (set aside: a later file's version or withdrawal "
                   "replaces it)\n");
        const cJSON *rec = cJSON_GetObjectItemCaseSensitive(s, "record");
        cJSON_ArrayForEach(f, rec)
            if (strcmp(f->string, "abstract") && strcmp(f->string, "id")) {
                printf("    ");
                text_field(f->string, f);
            }
    }
    cJSON_Delete(o);
}

int cmd_show(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL;
    int json = 0, c; /* 1 json, 2 jsonl, 3 a citation format */
    cite_format cite = CITE_BIBTEX;
    optind = 1;
    if (cli_query_args("show", argc, argv, opts, NULL))
        return EXIT_USAGE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f':
            if (!strcmp(optarg, "jsonl")) {
                json = 2;
            } else if (!cite_parse_format(optarg, &cite)) {
                json = 3;
            } else if (cli_text_or_json(optarg, &json)) {
                cli_error("show: --format takes text, json, jsonl, bibtex, "
                          "ris or csljson");
                return EXIT_USAGE;
            }
            break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("show", c, argv, opts);
        }
    }
    if (!db)
        db = cli_default_db();
    if (!db || optind >= argc) {
        cli_error("show: --db DIR and at least one ID are required");
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    int status = EXIT_OK_;
    pdx_index *ix = cli_open_read(db, &status);
    if (!ix)
        return status;
    /* json: one array of every work found, for several ids or an id
     * that names several works (a citation key two files use); the
     * work alone for one id that names one */
    cJSON *all = json == 1 ? cJSON_CreateArray() : NULL;
    /* citations: one document of every work found, written at the end */
    pdx_results **found = json == 3 ? calloc((size_t)(argc - optind), sizeof *found)
                                    : NULL;
    size_t n_found = 0;
    if (json == 3 && !found) {
        cli_error("out of memory");
        pdx_close(ix);
        return EXIT_ERROR;
    }
    for (int i = optind; i < argc; i++) {
        pdx_results *r = NULL;
        int rc = pdx_get(&r, ix, argv[i]);
        if (rc) {
            cli_error("%s", pdx_errmsg(ix));
            status = cli_exit_for(rc);
        } else if (pdx_results_count(r) == 0) {
            cli_error("no work with id '%s'", argv[i]);
            status = EXIT_ERROR;
        } else if (json == 3) {
            found[n_found++] = r; /* freed after the document */
            r = NULL;
        } else {
            for (size_t k = 0; k < pdx_results_count(r); k++) {
                const pdx_hit *h = pdx_results_hit(r, k);
                if (json == 2) {
                    printf("%s\n", h->json);
                } else if (all) {
                    cJSON *o = cJSON_Parse(h->json);
                    if (o)
                        cJSON_AddItemToArray(all, o);
                } else {
                    printf("%s\n", h->work->id);
                    show_text(h->json);
                }
            }
        }
        pdx_results_free(r);
    }
    if (found) {
        size_t n = 0;
        for (size_t i = 0; i < n_found; i++)
            n += pdx_results_count(found[i]);
        const pdx_work **works = malloc((n ? n : 1) * sizeof *works);
        n = 0;
        for (size_t i = 0; works && i < n_found; i++)
            for (size_t k = 0; k < pdx_results_count(found[i]); k++)
                works[n++] = pdx_results_hit(found[i], k)->work;
        if (!works || cite_works(stdout, cite, works, n)) {
            cli_error("cannot write the citations");
            status = EXIT_ERROR;
        }
        free(works);
        for (size_t i = 0; i < n_found; i++)
            pdx_results_free(found[i]);
        free(found);
    }
    if (all && argc - optind == 1 && cJSON_GetArraySize(all) <= 1) {
        cJSON *one = cJSON_GetArrayItem(all, 0); /* NULL: not found */
        char *s = one ? cJSON_Print(one) : NULL;
        if (s)
            printf("%s\n", s);
        else if (one)
            status = EXIT_ERROR;
        cJSON_free(s);
        cJSON_Delete(all);
    } else if (all) {
        char *s = cJSON_Print(all);
        if (s)
            printf("%s\n", s);
        else
            status = EXIT_ERROR;
        cJSON_free(s);
        cJSON_Delete(all);
    }
    pdx_close(ix);
    return status;
}
