/*
 * main.c -- the top of the `paperdex` program: main() and the command
 * table.  This is the one place that knows both sides' commands, the
 * write side's (indexer/cmd_index.c, cmd_compact.c) and the read side's
 * (searcher/cmd_search.c, cmd_show.c, cmd_similar.c, cmd_stats.c,
 * cmd_serve.c).  The program links the shared library and sees only what
 * paperdex.h exports.  It sits with the read side's commands, beside
 * cli.c, the helpers the commands share; like cli.c it is built into the
 * program, never into the library.
 *
 * Like git, each subcommand lives in its own cmd_*.c file and has its own
 * --help; this file only dispatches.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"index", cmd_index, "Index records: arXiv, PubMed, OpenAlex, OAI-PMH, BibTeX, pages..."},
    {"compact", cmd_compact, "Write a compacted copy of an index, or merge several"},
    {"search", cmd_search, "Rank works by BM25, with filters"},
    {"show", cmd_show, "Print works with all their fields and sources"},
    {"similar", cmd_similar, "List the works most like one work"},
    {"stats", cmd_stats, "Show what an index holds"},
    {"serve", cmd_serve, "Serve the index over HTTP: a JSON API and a search page"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: paperdex <command> [--help] [options]\n\n"
               "Full-text search for scientific papers.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'paperdex <command> --help' describes a command.\n"
               "'paperdex --version' prints the version.\n\n"
               "environment: PAPERDEX_DB is the index when --db is not "
               "given;\nNO_COLOR turns off bold on a terminal.\n\n"
               "exit status: 0 ok, 1 error, 2 usage, 3 records skipped "
               "(index),\n75 index locked by another writer.\n");
}

int main(int argc, char **argv)
{
    /* A failed write Xapian cannot recover from (a full disk inside a
     * commit) ends the run with its message and status 1, not a core. */
    pdx_exit_on_fatal("paperdex", EXIT_ERROR);
    /* A file grown past the size limit (ulimit -f) fails its write with
     * EFBIG, which the run reports as an I/O error naming the file, as
     * it does a full disk; the signal would end it with no word. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            char help[] = "--help";
            char *sub[] = {argv[2], help, NULL};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (!strcmp(commands[i].name, argv[2]))
                    return commands[i].fn(2, sub);
        }
        usage(stdout);
        return EXIT_OK_;
    }
    if (!strcmp(cmd, "--version")) {
        printf("paperdex %s\n", pdx_version());
        return EXIT_OK_;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, cmd))
            return commands[i].fn(argc - 1, argv + 1);
    cli_error("'%s' is not a paperdex command; see 'paperdex --help'", cmd);
    return EXIT_USAGE;
}
