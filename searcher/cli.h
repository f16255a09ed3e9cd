/*
 * cli.h -- what the `paperdex` subcommands share: the command table, exit
 * statuses, and small argument helpers.  The program links the shared
 * library and sees only what paperdex.h exports; what it needs beyond
 * that (a UTF-8 check, a name's last word) is its own, here.
 *
 * The program sits above both sides: its table (main.c) and these helpers
 * live in searcher/ with the read side's commands, and the write side's
 * commands (indexer/cmd_*.c) include this header and nothing else of
 * searcher/ (tests/tree/layers.sh checks it).
 */
#ifndef PDX_CLI_H
#define PDX_CLI_H

#include <getopt.h>
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

/* $PAPERDEX_DB when set and not empty: the index --db names when it is
 * not given (not for compact, whose source indexes are always named).
 * NULL otherwise. */
const char *cli_default_db(void);

/* Whether output to f may be coloured or bold: a terminal, and NO_COLOR
 * unset or empty (no-color.org). */
int cli_color(FILE *f);

/* Put argv's options first and its query words after them, in their
 * order, so that getopt_long with "+:h" stops at the first word.  Before
 * the first word every "-..." is an option but one with a space in it
 * (a pasted query that opens with an excluded word: `search "-survey
 * graph networks"`); after it, a word beginning with one '-' is a query
 * word (an exclusion: `search glacier -coral`) and one beginning with
 * "--" still an option; everything after "--" is words.  A long option's
 * separate value stays with it.  When words_at is not NULL, *words_at is
 * set to the index of the first word (argc when there is none): the argc
 * to hand getopt_long, which would read a first word that begins with
 * '-' as an option.  0, or (the message printed) EXIT_USAGE when the
 * last argument is an option that needs a value: moved, it would take
 * the first word as its value. */
int cli_query_args(const char *cmd, int argc, char **argv,
                   const struct option *opts, int *words_at);

/* What getopt_long's '?' or ':' (optstring "+:h", opterr 0) means, on
 * stderr: a value missing, an unknown or ambiguous option, with the
 * nearest long option when one is within two edits (`--lmit`: did you
 * mean --limit?).  Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv,
                   const struct option *opts);

/* Is s[0..n) valid UTF-8 (utf8proc's reading: no surrogates, no
 * overlong forms)?  1 or 0. */
int cli_utf8_valid(const char *s, size_t n);

/* The last word of a personal name ("Zhihua Wu" -> "Wu"), reduced to the
 * characters the query syntax reads as part of one term (letters, digits,
 * non-ASCII, '-', '\''), in out[0..n); "" when fewer than two letters
 * are left.  For building `author:` filters from records (--batch). */
void cli_family_term(const char *name, char *out, size_t n);

#endif
