/*
 * fuzz_bibtex.c -- the reader target (fuzz_reader.c) on the bibtex reader alone,
 * forced and detected.
 */
#define FUZZ_ONLY PDX_FORMAT_BIBTEX
#include "fuzz_reader.c"
