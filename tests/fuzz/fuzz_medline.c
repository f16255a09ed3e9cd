/*
 * fuzz_medline.c -- the reader target (fuzz_reader.c) on the MEDLINE text
 * reader alone, forced and detected.
 */
#define FUZZ_ONLY PDX_FORMAT_MEDLINE
#include "fuzz_reader.c"
