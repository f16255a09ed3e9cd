/*
 * test_cli.c -- the command's own helpers (searcher/cli.c), which the
 * program keeps out of the library: the family term `search --batch`
 * builds author filters from, and the UTF-8 check of query ids.
 */
#include <stdlib.h>

#include "../../searcher/cli.h"
#include "check.h"

int main(void)
{
    char fam[64];
    cli_family_term("Zhihua Wu", fam, sizeof fam);
    CHECK_STR(fam, "Wu");
    cli_family_term("Seán O'Brien-Smith (MIT)", fam, sizeof fam);
    CHECK_STR(fam, "MIT");
    cli_family_term("Jane J.", fam, sizeof fam);
    CHECK_STR(fam, "");
    cli_family_term("Marie Skłodowska", fam, sizeof fam);
    CHECK_STR(fam, "Skłodowska");

    CHECK(cli_utf8_valid("Skłodowska", 11));
    CHECK(cli_utf8_valid("", 0));
    CHECK(!cli_utf8_valid("a\xff", 2));
    CHECK(!cli_utf8_valid("\xc3", 1));         /* cut inside a character */
    CHECK(!cli_utf8_valid("\xed\xa0\x80", 3)); /* a surrogate */
    return check_done();
}
