/*
 * fuzz_ris.c -- the reader target (fuzz_reader.c) on the RIS reader alone,
 * forced and detected.
 */
#define FUZZ_ONLY PDX_FORMAT_RIS
#include "fuzz_reader.c"
