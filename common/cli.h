/*
 * cli.h -- what the `paperdex` subcommands share: the command table, exit
 * statuses, and small argument helpers.  The CLI is a thin user of
 * paperdex.h; nothing here reaches into the library's internals.
 */
#ifndef PDX_CLI_H
#define PDX_CLI_H

#include <stdio.h>

#include "paperdex.h"

/* Exit statuses, the same for every subcommand (documented in README.md
 * and in each --help). */
enum {
    EXIT_OK_ = 0,      /* done                                          */
    EXIT_ERROR = 1,    /* failed, or some input could not be read       */
    EXIT_USAGE = 2,    /* bad arguments or query                        */
    EXIT_SKIPPED = 3,  /* index: done, but some records were skipped    */
    EXIT_LOCKED = 75   /* another indexer holds the lock (EX_TEMPFAIL)  */
};

int cmd_index(int argc, char **argv);
int cmd_compact(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_similar(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* "paperdex: " + message + newline, on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The exit status for a library error code. */
int cli_exit_for(int pdx_code);

/* Parse a non-negative integer no larger than max.  0 or -1. */
int cli_size(const char *s, size_t max, size_t *out);

/* --format text|json: sets *json; prints the error and returns -1 for
 * anything else. */
int cli_text_or_json(const char *s, int *json);

/* Parse a double.  0 or -1. */
int cli_double(const char *s, double *out);

/* Open an index for reading, printing the error; returns NULL on failure
 * and sets *status to the exit status. */
pdx_index *cli_open_read(const char *db, int *status);
/* The same for several indexes searched as one (paths or tcp://HOST:PORT). */
pdx_index *cli_open_shards(const char *const *dbs, size_t n, int *status);

#endif
