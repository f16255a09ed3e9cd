/*
 * qscan.c -- the query text scanner; see qscan.h for the token rules.
 */
#include "qscan.h"

#include <ctype.h>
#include <string.h>

static int is_space(char c) { return isspace((unsigned char)c); }
static int is_alpha(char c) { return isalpha((unsigned char)c); }

int qscan_is_op(const char *t, size_t n)
{
    static const char *const ops[] = {"AND", "OR", "NOT", "XOR", "NEAR",
                                      "ADJ"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i]) == n && !memcmp(t, ops[i], n))
            return 1;
    return 0;
}

/* The filters whose values are matched as the flags match them. */
static int filter_name(const char *t, size_t n)
{
    return (n == 8 && !memcmp(t, "category", 8)) ||
           (n == 6 && !memcmp(t, "author", 6)) ||
           (n == 7 && !memcmp(t, "subject", 7)) ||
           (n == 4 && !memcmp(t, "year", 4));
}

qtok_kind qscan_next(const char *t, size_t n, size_t *pos, qtok *out)
{
    size_t i = *pos;
    while (i < n && is_space(t[i]))
        i++;
    out->start = i;
    out->len = 0;
    out->kind = QT_END;
    if (i >= n) {
        *pos = n;
        return QT_END;
    }
    size_t j = i + 1;
    if (t[i] == '(' || t[i] == ')') {
        out->kind = t[i] == '(' ? QT_LPAREN : QT_RPAREN;
    } else if (t[i] == '"') {
        while (j < n && t[j] != '"')
            j++;
        j += j < n; /* the closing quote */
        out->kind = QT_PHRASE;
    } else {
        size_t f = i + (t[i] == '+' || t[i] == '-'); /* +category:x */
        j = f;
        while (j < n && is_alpha(t[j]))
            j++;
        if (j < n && t[j] == ':' && filter_name(t + f, j - f)) {
            /* category:V, year:V, V "quoted" or up to space or ')' */
            j++;
            if (j < n && t[j] == '"') {
                j++;
                while (j < n && t[j] != '"')
                    j++;
                j += j < n;
            } else {
                while (j < n && !is_space(t[j]) && t[j] != ')')
                    j++;
            }
            out->kind = QT_FILTER;
        } else {
            j = i;
            while (j < n && !is_space(t[j]) && t[j] != '(' && t[j] != ')' &&
                   t[j] != '"')
                j++;
            out->kind = qscan_is_op(t + i, j - i) ? QT_OP : QT_TERM;
        }
    }
    out->len = j - i;
    *pos = j;
    return out->kind;
}

int qscan_word(const char *t, size_t end, size_t *pos, size_t *ws,
               size_t *we, int *field)
{
    size_t i = *pos;
    while (i < end && !is_alpha(t[i]))
        i++;
    if (i >= end) {
        *pos = end;
        return 0;
    }
    size_t j = i;
    while (j < end && is_alpha(t[j]))
        j++;
    *ws = i;
    *we = j;
    *field = j < end && t[j] == ':';
    *pos = j;
    return 1;
}
