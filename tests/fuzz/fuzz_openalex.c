/*
 * fuzz_openalex.c -- the reader target (fuzz_reader.c) on the openalex reader alone,
 * forced and detected.
 */
#define FUZZ_ONLY PDX_FORMAT_OPENALEX
#include "fuzz_reader.c"
