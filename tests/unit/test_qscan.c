/*
 * test_qscan.c -- the query text scanner (searcher/qscan.c): tokens and
 * their positions, operators only in capitals, filters with their values
 * as written (a leading +/- included), words and field names.
 */
#include <stdlib.h>

#include "../../searcher/qscan.h"
#include "check.h"

/* The tokens of t as "KIND:text" joined by spaces. */
static const char *tokens(const char *t)
{
    static char out[1024];
    static const char *const names[] = {"END", "(", ")", "PHRASE", "OP",
                                        "FILTER", "TERM"};
    size_t n = strlen(t), pos = 0, o = 0;
    qtok k;
    out[0] = '\0';
    while (qscan_next(t, n, &pos, &k) != QT_END && o < sizeof out - 100)
        o += (size_t)snprintf(out + o, sizeof out - o, "%s%s:%.*s",
                              o ? " " : "", names[k.kind], (int)k.len,
                              t + k.start);
    return out;
}

int main(void)
{
    CHECK_STR(tokens("a AND (b OR c)"),
              "TERM:a OP:AND (:( TERM:b OP:OR TERM:c ):)");
    CHECK_STR(tokens("And or not"), "TERM:And TERM:or TERM:not");
    CHECK_STR(tokens("title:\"large model\" NEAR x"),
              "TERM:title: PHRASE:\"large model\" OP:NEAR TERM:x");
    CHECK_STR(tokens("category:CV -category:cs.LG year:2019..2021)"),
              "FILTER:category:CV FILTER:-category:cs.LG "
              "FILTER:year:2019..2021 ):)");
    CHECK_STR(tokens("category:\"hep th\" x"),
              "FILTER:category:\"hep th\" TERM:x");
    CHECK_STR(tokens("\"unclosed phrase"), "PHRASE:\"unclosed phrase");
    CHECK_STR(tokens("  PP-OCRv3 optim* +must -not  "),
              "TERM:PP-OCRv3 TERM:optim* TERM:+must TERM:-not");
    CHECK_STR(tokens(""), "");

    /* Positions are byte offsets into the text. */
    size_t pos = 0;
    qtok k;
    CHECK_INT(qscan_next("  (x", 4, &pos, &k), QT_LPAREN);
    CHECK_INT(k.start, 2);
    CHECK_INT(qscan_next("  (x", 4, &pos, &k), QT_TERM);
    CHECK_INT(k.start, 3);
    CHECK_INT(qscan_next("  (x", 4, &pos, &k), QT_END);

    /* Words: runs of letters; a field name is told apart. */
    const char *t = "title:Graph-Nets2x";
    size_t wpos = 0, ws, we;
    int field;
    CHECK(qscan_word(t, strlen(t), &wpos, &ws, &we, &field));
    CHECK(field && ws == 0 && we == 5);
    CHECK(qscan_word(t, strlen(t), &wpos, &ws, &we, &field));
    CHECK(!field && ws == 6 && we == 11);
    CHECK(qscan_word(t, strlen(t), &wpos, &ws, &we, &field));
    CHECK(!field && ws == 12 && we == 16);
    CHECK(qscan_word(t, strlen(t), &wpos, &ws, &we, &field));
    CHECK(we == 18);
    CHECK(!qscan_word(t, strlen(t), &wpos, &ws, &we, &field));

    CHECK_INT(qscan_is_op("XOR", 3), 1);
    CHECK_INT(qscan_is_op("Xor", 3), 0);

    return check_done();
}
