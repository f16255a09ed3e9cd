/*
 * fuzz_pubmed.c -- the reader target (fuzz_reader.c) on the pubmed reader alone,
 * forced and detected.
 */
#define FUZZ_ONLY PDX_FORMAT_PUBMED
#include "fuzz_reader.c"
