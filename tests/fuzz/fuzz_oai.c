/*
 * fuzz_oai.c -- the reader target (fuzz_reader.c) on the oai reader alone,
 * forced and detected.
 */
#define FUZZ_ONLY PDX_FORMAT_OAI
#include "fuzz_reader.c"
