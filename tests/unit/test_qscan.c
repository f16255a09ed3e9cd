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

/* qscan_fields(t): the text, then " | " and the note when there is one. */
static const char *fields(const char *t)
{
    static char out[1024], note[512];
    static char both[1600];
    size_t n = strlen(t);
    size_t len = qscan_fields(t, n, out, QSCAN_FIELDS_ROOM(n), note,
                              sizeof note);
    if (len != strlen(out))
        return "length differs";
    snprintf(both, sizeof both, "%s%s%s", out, note[0] ? " | " : "", note);
    return both;
}

/* qscan_citations(t): the text, then " | " and the note when there is
 * one, then " [e]", " [n]" or " [a]" for each QSCAN_CITED_ kind read. */
static const char *citations(const char *t)
{
    static char out[1024], note[512];
    static char both[1600];
    size_t n = strlen(t);
    unsigned kinds = 99;
    size_t len = qscan_citations(t, n, 1, out, QSCAN_CITATION_ROOM(n), note,
                                 sizeof note, &kinds);
    if (len != strlen(out))
        return "length differs";
    snprintf(both, sizeof both, "%s%s%s%s%s%s", out, note[0] ? " | " : "", note,
             kinds & QSCAN_CITED_ET_AL ? " [e]" : "",
             kinds & QSCAN_CITED_NAMED ? " [n]" : "",
             kinds & QSCAN_CITED_AUTHORS ? " [a]" : "");
    return both;
}

/* qscan_citations(t) as its any-author reading: the text, " | ", the
 * note. */
static const char *citations_any(const char *t)
{
    static char out[1024], note[512];
    static char both[1600];
    size_t n = strlen(t);
    size_t len = qscan_citations(t, n, 0, out, QSCAN_CITATION_ROOM(n), note,
                                 sizeof note, NULL);
    if (len != strlen(out))
        return "length differs";
    snprintf(both, sizeof both, "%s | %s", out, note);
    return both;
}

/* qscan_slop(t). */
static const char *slop(const char *t)
{
    static char out[1024];
    size_t n = strlen(t);
    if (qscan_slop(t, n, out, QSCAN_SLOP_ROOM(n)) != strlen(out))
        return "length differs";
    return out;
}

/* qscan_categories(t): the text, then " | " and the note when there is
 * one. */
static const char *categories(const char *t)
{
    static char out[1024], note[256], both[1400];
    size_t n = strlen(t);
    if (qscan_categories(t, n, out, QSCAN_CATEGORIES_ROOM(n), note, sizeof note) !=
        strlen(out))
        return "length differs";
    snprintf(both, sizeof both, "%s%s%s", out, note[0] ? " | " : "", note);
    return both;
}

/* qscan_pasted(t). */
static const char *pasted(const char *t)
{
    static char out[1024];
    size_t n = strlen(t);
    if (qscan_pasted(t, n, out, QSCAN_PASTED_ROOM(n)) != strlen(out))
        return "length differs";
    return out;
}

int main(void)
{
    /* Dashes a PDF writes inside a compound are '-', between two word
     * characters only; an em dash stays; TeX's Greek letters alone in
     * math are the letters. */
    CHECK_STR(pasted("Navier\xe2\x80\x93Stokes GPT\xe2\x80\x90" "4 a\xe2\x88\x92" "b"),
              "Navier-Stokes GPT-4 a-b");
    CHECK_STR(pasted("x\xe2\x80\x91y \xce\xb2\xe2\x80\x90VAE"),
              "x-y \xce\xb2-VAE");
    CHECK_STR(pasted("a \xe2\x80\x93 b \xe2\x80\x93" "c d\xe2\x80\x93 e\xe2\x80\x94" "f"),
              "a \xe2\x80\x93 b \xe2\x80\x93" "c d\xe2\x80\x93 e\xe2\x80\x94" "f");
    CHECK_STR(pasted("$\\beta$-VAE $\\gamma$ $\\Gamma$ $\\betax$ $x$ $\\beta"),
              "\xce\xb2-VAE \xce\xb3 $\\Gamma$ $\\betax$ $x$ $\\beta");
    CHECK_STR(pasted("\xe2\x80\x93"), "\xe2\x80\x93");
    /* A word broken at a line's end is joined again; a compound's first
     * part before "and", "to", a capital or an operator's '-' is not. */
    CHECK_STR(pasted("deep classi- fication with pre-\n  trained nets"),
              "deep classification with pretrained nets");
    CHECK_STR(pasted("pre- and post-training, low- to high-resolution, Vision- Language, "
                     "transformer -vision, a - b, 3- fold"),
              "pre- and post-training, low- to high-resolution, Vision- Language, "
              "transformer -vision, a - b, 3- fold");
    /* An initial glued to the name after it gets its space; an
     * abbreviation, a category and a small letter's dot do not. */
    CHECK_STR(pasted("Y.LeCun and J.R.R.Tolkien, M.-H.Yang (A.Ng)"),
              "Y. LeCun and J.R.R. Tolkien, M.-H. Yang (A. Ng)");
    CHECK_STR(pasted("e.g.The cs.CL Fig.3 St.Louis U.S.A. Ph.D"),
              "e.g.The cs.CL Fig.3 St.Louis U.S.A. Ph.D");
    CHECK_STR(pasted("$\\ell_1$-norm $L_1$-norm $x$- y $-z 5$-a"),
              "$\\ell_1-norm $L_1-norm $x$- y $-z 5-a");
    /* Other languages' quotation marks are '"'; English's and single
     * quotes stay (Xapian's parser reads “…” itself). */
    CHECK_STR(pasted("\xe2\x80\x9e" "a b\xe2\x80\x9c \xc2\xab c \xc2\xbb \xc2\xbb" "d\xc2\xab"),
              "\"a b\xe2\x80\x9c \" c \" \"d\"");
    CHECK_STR(pasted("\xe3\x80\x8c" "x\xe3\x80\x8d\xe3\x80\x8e" "y\xe3\x80\x8f\xef\xbc\x82" "z\xef\xbc\x82 \xe2\x80\x98q\xe2\x80\x99"),
              "\"x\"\"y\"\"z\" \xe2\x80\x98q\xe2\x80\x99");
    CHECK_STR(pasted(""), "");
    /* A PDF's ligatures and full-width letters and digits are the
     * letters; full-width punctuation (the colon that would name a
     * field) stays. */
    CHECK_STR(pasted("E\xef\xac\x83" "cient \xef\xac\x81" "ne-tuning \xef\xac\x82" "ow"),
              "Efficient fine-tuning flow");
    CHECK_STR(pasted("\xef\xbc\xa7\xef\xbc\xb0\xef\xbc\xb4\xef\xbc\x8d\xef\xbc\x94 "
                     "\xef\xbd\x82\xef\xbd\x85\xef\xbd\x92\xef\xbd\x94\xef\xbc\x9a"),
              "GPT-4 bert\xef\xbc\x9a");
    CHECK_STR(pasted("\xef\xac\x80\xef\xac\x84\xef\xac\x85\xef\xac\x86\xef\xac\x87"),
              "ffffl" "stst\xef\xac\x87");

    /* arXiv's prefixes as paperdex's, at a token's start only, never in
     * quotes; the text may grow ("cat:" is 4 bytes, "category:" 9). */
    CHECK_STR(fields("au:Hinton AND ti:capsule"),
              "author:Hinton AND title:capsule");
    CHECK_STR(fields("cat:x cat:y"), "category:x category:y");
    /* arXiv writes a name's words with underscores (au:del_maestro, its
     * listings' bengio_y): a quoted name of words */
    CHECK_STR(fields("au:Bengio_Y AND -au:del_maestro (author:wu_z)"),
              "author:\"Bengio Y\" AND -author:\"del maestro\" (author:\"wu z\")");
    CHECK_STR(fields("au:\"Bengio_Y\" au:Hinton_G_E x_y"),
              "author:\"Bengio Y\" author:\"Hinton G E\" x_y");
    /* Google Scholar's intitle: and allintitle: */
    CHECK_STR(fields("intitle:graph nets"), "title:graph nets");
    CHECK_STR(fields("allintitle: graph \"neural nets\" OR x -y author:wu (z)"),
              "+title:graph +title:\"neural nets\" OR +title:x -y author:wu (+title:z)");
    CHECK_STR(fields("allintitle:graph a"), "+title:graph +title:a");
    CHECK_STR(fields("allintitle: a a a a a a a a"),
              "+title:a +title:a +title:a +title:a +title:a +title:a +title:a +title:a");
    CHECK_STR(fields("all:glacier (abs:\"sea ice\" -cat:physics)"),
              "glacier (abstract:\"sea ice\" -category:physics)");
    CHECK_STR(fields("\"ti:x au:y\" scat:z"), "\"ti:x au:y\" scat z | "
              "scat: is not a field (title:, abstract:, author:, category:, "
              "year:, subject:; arXiv's ti:, abs:, au:, cat:, all:) and was "
              "searched as words");
    /* Empty values are left out, a leading +/- with them. */
    CHECK_STR(fields("glacier +category: x"),
              "glacier  x | category: has no value and was left out");
    CHECK_STR(fields("glacier title:"),
              "glacier  | title: has no value and was left out");
    /* and so is a value of empty quotes, which the parser would read as
     * the field's name, a word ("title" in 156 works of the 101k) */
    CHECK_STR(fields("title:\"\" glacier"),
              " glacier | title: has no value and was left out");
    CHECK_STR(fields("glacier (abstract:\"  \")"),
              "glacier () | abstract: has no value and was left out");
    CHECK_STR(fields("title:\"\"x"), "x | title: has no value and was left out");
    CHECK_STR(fields("a +title:\"\"glacier"),
              "a glacier | title: has no value and was left out");
    /* Not fields: capitalised words, id schemes, URLs, times. */
    CHECK_STR(fields("Framework:Enhanced arXiv:2103.00823 doi:10.1/x"),
              "Framework:Enhanced arXiv:2103.00823 doi:10.1/x");
    CHECK_STR(fields("see https://arxiv.org/abs/1 at 10:30"),
              "see https://arxiv.org/abs/1 at 10:30");
    CHECK_STR(fields("foo:bar"), "foo bar | foo: is not a field (title:, "
              "abstract:, author:, category:, year:, subject:; arXiv's ti:, "
              "abs:, au:, cat:, all:) and was searched as words");
    /* arXiv's names in capitals stay words ("Ti:sapphire"), with a note
     * for whoever meant the field; paperdex's own names are fields in
     * any case further on (the query is read in lower case). */
    CHECK_STR(fields("Ti:sapphire laser"), "Ti:sapphire laser | Ti: was "
              "searched as a word (as in Ti:sapphire); arXiv's field is "
              "written ti:");
    CHECK_STR(fields("AU:Hinton Title:x"), "AU:Hinton Title:x | AU: was "
              "searched as a word (as in Ti:sapphire); arXiv's field is "
              "written au:");
    CHECK_STR(fields(""), "");

    /* A citation as a text writes it names its first author and year. */
    CHECK_STR(citations("Bengio et al. 2025"),
              "firstauthor:\"Bengio\" year:2025 | read \"Bengio et al. 2025\" as "
              "firstauthor:\"Bengio\" year:2025 [e]");
    /* alone in parentheses, they filter the whole query */
    CHECK_STR(citations("attention (Vaswani et al., 2017) x"),
              "attention  firstauthor:\"Vaswani\" year:2017  x | read \"Vaswani et "
              "al., 2017\" as firstauthor:\"Vaswani\" year:2017 [e]");
    CHECK_STR(citations("(Vaswani et al., 2017; Li et al. 2019)"),
              " firstauthor:\"Vaswani\" year:2017   firstauthor:\"Li\" year:2019  | read "
              "\"Vaswani et al., 2017\" as firstauthor:\"Vaswani\" year:2017; read "
              "\"Li et al. 2019\" as firstauthor:\"Li\" year:2019 [e]");
    /* a group's leading words go with its parentheses */
    CHECK_STR(citations("x (see Li et al. 2019)"),
              "x      firstauthor:\"Li\" year:2019  | read \"Li et al. 2019\" as "
              "firstauthor:\"Li\" year:2019 [e]");
    CHECK_STR(citations("x (see also y Li et al. 2019)"),
              "x (see also y firstauthor:\"Li\" year:2019) | read \"Li et al. 2019\" as "
              "firstauthor:\"Li\" year:2019 [e]");
    CHECK_STR(citations("van der Berg et al. (2019a); M\xc3\xbcller, et al"),
              "firstauthor:\"van der Berg\" year:2019 ; firstauthor:\"M\xc3\xbcller\" | read "
              "\"van der Berg et al. (2019a)\" as firstauthor:\"van der Berg\" year:2019; read "
              "\"M\xc3\xbcller, et al\" as firstauthor:\"M\xc3\xbcller\" [e]");
    CHECK_STR(citations("Ng ET AL"), "firstauthor:\"Ng\" | read \"Ng ET AL\" as firstauthor:\"Ng\" [e]");
    /* not a citation: quoted, no name, an operator, "alia", a number */
    CHECK_STR(citations("\"Bengio et al. 2025\" et al. 2025 x AND et al"),
              "\"Bengio et al. 2025\" et al. 2025 x AND et al");
    CHECK_STR(citations("Smith et alia 2020 x:Li et al 12 et al"),
              "Smith et alia 2020 x:Li et al 12 et al");
    /* a year of four digits only, from 1000 to 2999 */
    CHECK_STR(citations("Li et al. 20251 Wu et al. 3000"),
              "firstauthor:\"Li\" 20251 firstauthor:\"Wu\" 3000 | read \"Li et al.\" as "
              "firstauthor:\"Li\"; read \"Wu et al.\" as firstauthor:\"Wu\" [e]");
    /* Two authors and a year: the first is the first author. */
    CHECK_STR(citations("Smith and Jones 2020"),
              "firstauthor:\"Smith\" author:\"Jones\" year:2020 | read \"Smith and "
              "Jones 2020\" as firstauthor:\"Smith\" author:\"Jones\" year:2020 [n]");
    CHECK_STR(citations("gates (van der Berg & O'Neil, 2019b; Hinton, 2006)"),
              "gates  firstauthor:\"van der Berg\" author:\"O'Neil\" year:2019   "
              "firstauthor:\"Hinton\" year:2006  | read \"van der Berg & O'Neil, "
              "2019b\" as firstauthor:\"van der Berg\" author:\"O'Neil\" year:2019; "
              "read \"Hinton, 2006\" as firstauthor:\"Hinton\" year:2006 [n]");
    CHECK_STR(citations("nets by Hinton (2006) and LeCun and Bengio (1995)"),
              "nets by firstauthor:\"Hinton\" year:2006 and firstauthor:\"LeCun\" "
              "author:\"Bengio\" year:1995 | read \"Hinton (2006)\" as "
              "firstauthor:\"Hinton\" year:2006; read \"LeCun and Bengio (1995)\" as "
              "firstauthor:\"LeCun\" author:\"Bengio\" year:1995 [n]");
    CHECK_STR(citations("(see M\xc3\xbcller 2019) Li et al."),
              "     firstauthor:\"M\xc3\xbcller\" year:2019  firstauthor:\"Li\" | read "
              "\"M\xc3\xbcller 2019\" as firstauthor:\"M\xc3\xbcller\" year:2019; "
              "read \"Li et al.\" as firstauthor:\"Li\" [e] [n]");
    /* A list of three or more: the first the first author, the second
     * any author, the others ANDed with the whole query. */
    CHECK_STR(citations("LeCun, Bengio and Hinton 2015 GPT and BERT 2019"),
              "(firstauthor:\"LeCun\" author:\"Bengio\" year:2015 GPT and BERT 2019) "
              "AND author:\"Hinton\" | read \"LeCun, Bengio and Hinton 2015\" as "
              "firstauthor:\"LeCun\" author:\"Bengio\" AND author:\"Hinton\" year:2015 [n]");
    CHECK_STR(citations("data (LifeCLEF 2017) Pfeffer, Kr\xc3\xbcgel, and Uhl (2025)"),
              "(data (LifeCLEF 2017) firstauthor:\"Pfeffer\" author:\"Kr\xc3\xbcgel\" "
              "year:2025) AND author:\"Uhl\" | read \"Pfeffer, Kr\xc3\xbcgel, and Uhl "
              "(2025)\" as firstauthor:\"Pfeffer\" author:\"Kr\xc3\xbcgel\" AND "
              "author:\"Uhl\" year:2025 [n]");
    CHECK_STR(citations_any("(LeCun, Bengio & Hinton, 2015) x"),
              "( author:\"LeCun\" year:2015  x) AND author:\"Bengio\" AND "
              "author:\"Hinton\" | read \"LeCun, Bengio & Hinton, 2015\" as "
              "author:\"LeCun\" AND author:\"Bengio\" AND author:\"Hinton\" year:2015");
    /* A query of PubMed's names alone: its authors, every one. */
    CHECK_STR(citations("Wu Z"), "author:\"Wu Z\" | read \"Wu Z\" as author:\"Wu Z\" (in quotes, as words) [a]");
    CHECK_STR(citations_any(" van der Berg J; Manning CD,Li Y "),
              "author:\"van der Berg J\" AND author:\"Manning CD\" AND author:\"Li Y\" | "
              "read \" van der Berg J; Manning CD,Li Y \" as author:\"van der Berg J\" AND "
              "author:\"Manning CD\" AND author:\"Li Y\" (in quotes, as words)");
    /* A query of one person's name: that author. */
    CHECK_STR(citations("Ming-Hsuan Yang"), "author:\"Ming-Hsuan Yang\" | read "
              "\"Ming-Hsuan Yang\" as author:\"Ming-Hsuan Yang\" (in quotes, as words) [a]");
    CHECK_STR(citations(" LeCun, Yann "), "author:\"LeCun, Yann\" | read "
              "\" LeCun, Yann \" as author:\"LeCun, Yann\" (in quotes, as words) [a]");
    CHECK_STR(citations("G. E. Hinton"), "author:\"G. E. Hinton\" | read "
              "\"G. E. Hinton\" as author:\"G. E. Hinton\" (in quotes, as words) [a]");
    /* initials glued, as Harvard and many exports write them */
    CHECK_STR(citations("Manning, C.D."), "author:\"Manning, C.D.\" | read "
              "\"Manning, C.D.\" as author:\"Manning, C.D.\" (in quotes, as words) [a]");
    CHECK_STR(citations("J.-P. Serre"), "author:\"J.-P. Serre\" | read "
              "\"J.-P. Serre\" as author:\"J.-P. Serre\" (in quotes, as words) [a]");
    CHECK_STR(citations("J.R.R. Tolkien"), "author:\"J.R.R. Tolkien\" | read "
              "\"J.R.R. Tolkien\" as author:\"J.R.R. Tolkien\" (in quotes, as words) [a]");
    /* not initials: small letters, a dot missing, a number */
    CHECK_STR(citations("e.g. Manning"), "e.g. Manning");
    CHECK_STR(citations("C.D Manning"), "C.D Manning");
    CHECK_STR(citations("Anton van den Hengel"), "author:\"Anton van den Hengel\" | "
              "read \"Anton van den Hengel\" as author:\"Anton van den Hengel\" (in quotes, as words) [a]");
    /* a family name with its initials before "et al.", as a reference
     * list writes it (APA's "Wang, X.", Vancouver's "Wang X") */
    CHECK_STR(citations("Wang, X. et al. (2025)"),
              "firstauthor:\"Wang, X.\" year:2025 | read \"Wang, X. et al. (2025)\" as "
              "firstauthor:\"Wang, X.\" year:2025 [e]");
    CHECK_STR(citations("Wang X, et al. 2025"),
              "firstauthor:\"Wang X\" year:2025 | read \"Wang X, et al. 2025\" as "
              "firstauthor:\"Wang X\" year:2025 [e]");
    CHECK_STR(citations("Ho, J.-P. et al."),
              "firstauthor:\"Ho, J.-P.\" | read \"Ho, J.-P. et al.\" as firstauthor:\"Ho, J.-P.\" [e]");
    /* the list of such names before "et al.", as Vancouver and APA write
     * it: the first is the first author, not the last before "et al." */
    CHECK_STR(citations("Wang X, Li Y, et al."),
              "firstauthor:\"Wang X\" author:\"Li Y\" | read \"Wang X, Li Y, et al.\" as "
              "firstauthor:\"Wang X\" author:\"Li Y\" [e]");
    CHECK_STR(citations("Wang, X., Li, Y., Chen, Z. et al. (2024)"),
              "(firstauthor:\"Wang, X.\" author:\"Li, Y.\" year:2024) AND author:\"Chen, Z.\" | "
              "read \"Wang, X., Li, Y., Chen, Z. et al. (2024)\" as firstauthor:\"Wang, X.\" "
              "author:\"Li, Y.\" AND author:\"Chen, Z.\" year:2024 [e]");
    CHECK_STR(citations("see Hinton GE, Osindero S, et al. 2006"),
              "see firstauthor:\"Hinton GE\" author:\"Osindero S\" year:2006 | read "
              "\"Hinton GE, Osindero S, et al. 2006\" as firstauthor:\"Hinton GE\" "
              "author:\"Osindero S\" year:2006 [e]");
    /* a reference's list of names with initials and its year, as APA
     * ("&" after a comma, two names too) and Vancouver (commas only)
     * write it */
    CHECK_STR(citations("Wang, X., & Li, Y. (2025)"),
              "firstauthor:\"Wang, X.\" author:\"Li, Y.\" year:2025 | read \"Wang, X., & Li, Y. "
              "(2025)\" as firstauthor:\"Wang, X.\" author:\"Li, Y.\" year:2025 [n]");
    CHECK_STR(citations("Wang, X., Li, Y., & Chen, Z. (2025)"),
              "(firstauthor:\"Wang, X.\" author:\"Li, Y.\" year:2025) AND author:\"Chen, Z.\" | "
              "read \"Wang, X., Li, Y., & Chen, Z. (2025)\" as firstauthor:\"Wang, X.\" "
              "author:\"Li, Y.\" AND author:\"Chen, Z.\" year:2025 [n]");
    CHECK_STR(citations("Wang X, Li Y, Chen Z (2025)"),
              "(firstauthor:\"Wang X\" author:\"Li Y\" year:2025) AND author:\"Chen Z\" | "
              "read \"Wang X, Li Y, Chen Z (2025)\" as firstauthor:\"Wang X\" author:\"Li Y\" "
              "AND author:\"Chen Z\" year:2025 [n]");
    CHECK_STR(citations("Wang X, Li Y. 2025"),
              "firstauthor:\"Wang X\" author:\"Li Y\" year:2025 | read \"Wang X, Li Y. 2025\" as "
              "firstauthor:\"Wang X\" author:\"Li Y\" year:2025 [n]");
    /* not: one name with initials and a bare year, a capitalised word
     * before the list */
    CHECK_STR(citations("Wang X 2025"), "Wang X 2025");
    CHECK_STR(citations("In Wang X, Li Y (2025)"), "In Wang X, Li Y (2025)");
    /* initials after a name are not a name of their own ("GE") */
    CHECK_STR(citations("Hinton GE, et al."),
              "firstauthor:\"Hinton GE\" | read \"Hinton GE, et al.\" as "
              "firstauthor:\"Hinton GE\" [e]");
    /* not: initials without a name before them, a name in small letters */
    CHECK_STR(citations("X. et al. 2020"), "X. et al. 2020");
    CHECK_STR(citations("see wang X. et al. 2020"), "see wang X. et al. 2020");
    /* a list of people's names, every one */
    CHECK_STR(citations("Kaiming He, Jian Sun"),
              "author:\"Kaiming He\" AND author:\"Jian Sun\" | read \"Kaiming He, Jian Sun\" as "
              "author:\"Kaiming He\" AND author:\"Jian Sun\" (in quotes, as words) [a]");
    CHECK_STR(citations("Yann LeCun, Yoshua Bengio, and G. E. Hinton"),
              "author:\"Yann LeCun\" AND author:\"Yoshua Bengio\" AND author:\"G. E. Hinton\" | "
              "read \"Yann LeCun, Yoshua Bengio, and G. E. Hinton\" as author:\"Yann LeCun\" AND "
              "author:\"Yoshua Bengio\" AND author:\"G. E. Hinton\" (in quotes, as words) [a]");
    CHECK_STR(citations("Jan van der Berg & Ruair\xc3\xad \xc3\x93 Conaill"),
              "author:\"Jan van der Berg\" AND author:\"Ruair\xc3\xad \xc3\x93 Conaill\" | read "
              "\"Jan van der Berg & Ruair\xc3\xad \xc3\x93 Conaill\" as author:\"Jan van der Berg\" AND "
              "author:\"Ruair\xc3\xad \xc3\x93 Conaill\" (in quotes, as words) [a]");
    /* not: a separator last, words not names beside a name (capitalised
     * words are read as names, and searched as words when no author
     * has them, as one name is) */
    CHECK_STR(citations("Kaiming He, Jian Sun,"), "Kaiming He, Jian Sun,");
    CHECK_STR(citations("Kaiming He and"), "Kaiming He and");
    CHECK_STR(citations("Kaiming He, deep learning"), "Kaiming He, deep learning");
    /* Irish particles, capitalised, and the family name first with its
     * particles before the comma */
    CHECK_STR(citations("Diarmuid \xc3\x93 S\xc3\xa9\x61ghdha"),
              "author:\"Diarmuid \xc3\x93 S\xc3\xa9\x61ghdha\" | read \"Diarmuid \xc3\x93 "
              "S\xc3\xa9\x61ghdha\" as author:\"Diarmuid \xc3\x93 S\xc3\xa9\x61ghdha\" (in quotes, "
              "as words) [a]");
    CHECK_STR(citations("van der Berg, Jan"), "author:\"van der Berg, Jan\" | read "
              "\"van der Berg, Jan\" as author:\"van der Berg, Jan\" (in quotes, as words) [a]");
    CHECK_STR(citations("\xc3\x93 Conaill et al. 2019"),
              "firstauthor:\"\xc3\x93 Conaill\" year:2019 | read \"\xc3\x93 Conaill et al. 2019\" "
              "as firstauthor:\"\xc3\x93 Conaill\" year:2019 [e]");
    CHECK_STR(citations("Ruair\xc3\xad Mac Math\xc3\xbana"),
              "author:\"Ruair\xc3\xad Mac Math\xc3\xbana\" | read \"Ruair\xc3\xad Mac "
              "Math\xc3\xbana\" as author:\"Ruair\xc3\xad Mac Math\xc3\xbana\" (in quotes, as words) [a]");
    /* not one: one word, five, a word not a name, a comma elsewhere,
     * quotes, an initial alone */
    CHECK_STR(citations("LeCun"), "LeCun");
    CHECK_STR(citations("Attention Is All You Need"), "Attention Is All You Need");
    CHECK_STR(citations("Trust The Typical"), "Trust The Typical");
    CHECK_STR(citations("Kaiming He"), "author:\"Kaiming He\" | read \"Kaiming He\" as "
              "author:\"Kaiming He\" (in quotes, as words) [a]");
    CHECK_STR(citations("Deep learning"), "Deep learning");
    CHECK_STR(citations("GPT Models"), "GPT Models");
    CHECK_STR(citations("Yann LeCun, Hinton"), "Yann LeCun, Hinton");
    CHECK_STR(citations("\"Yann LeCun\""), "\"Yann LeCun\"");
    CHECK_STR(citations("G. E."), "G. E.");
    /* not: beside other words, no name, initials not so written */
    CHECK_STR(citations("Wu Z glacier"), "Wu Z glacier");
    CHECK_STR(citations("LSTM RNN"), "LSTM RNN");
    CHECK_STR(citations("Wu zh"), "Wu zh");
    CHECK_STR(citations("Wu ABCD"), "Wu ABCD");
    CHECK_STR(citations("Wu Z,"), "Wu Z,");
    /* a name after an elision in lower case, either apostrophe */
    CHECK_STR(citations("(d'Aquin, 2026) dell\xe2\x80\x99Orto and Li (2019)"),
              " firstauthor:\"d'Aquin\" year:2026  firstauthor:\"dell\xe2\x80\x99Orto\" "
              "author:\"Li\" year:2019 | read \"d'Aquin, 2026\" as firstauthor:\"d'Aquin\" "
              "year:2026; read \"dell\xe2\x80\x99Orto and Li (2019)\" as "
              "firstauthor:\"dell\xe2\x80\x99Orto\" author:\"Li\" year:2019 [n]");
    CHECK_STR(citations("it's (2020) (d'AQUIN, 2026) (d', 2026)"),
              "it's (2020) (d'AQUIN, 2026) (d', 2026)");
    /* a particle capitalised, as a name's first word */
    CHECK_STR(citations("De Santis & Li, 2019"),
              "firstauthor:\"De Santis\" author:\"Li\" year:2019 | read \"De Santis & "
              "Li, 2019\" as firstauthor:\"De Santis\" author:\"Li\" year:2019 [n]");
    /* Any author: several author: filters OR together, so a second name
     * is ANDed with the whole query. */
    CHECK_STR(citations_any("x (Smith & Jones, 2020) OR y Li et al."),
              "(x  author:\"Smith\" year:2020  OR y author:\"Li\") AND "
              "author:\"Jones\" | read \"Smith & Jones, 2020\" as author:\"Smith\" "
              "AND author:\"Jones\" year:2020; read \"Li et al.\" as author:\"Li\"");
    CHECK_STR(citations_any("Hinton (2006)"),
              "author:\"Hinton\" year:2006 | read \"Hinton (2006)\" as "
              "author:\"Hinton\" year:2006");
    /* not one: a name and a year alone, a capitalised word before (a
     * title's, a given name, a list's first), names not written as
     * names, glued to the year, operators, quotes */
    CHECK_STR(citations("Hinton 2006 Deep Belief Nets (2006) Geoffrey Hinton (2006)"),
              "Hinton 2006 Deep Belief Nets (2006) Geoffrey Hinton (2006)");
    CHECK_STR(citations("GPT and BERT 2019 In Paris, Smith and Jones 2020"),
              "GPT and BERT 2019 In Paris, Smith and Jones 2020");
    /* a list longer than a citation's names (seven) */
    CHECK_STR(citations("Ab, Bc, Cd, De, Ef, Fg and Gh 2020"),
              "Ab, Bc, Cd, De, Ef, Fg and Gh 2020");
    CHECK_STR(citations("smith and jones 2020 (Hinton2006) Smith AND Jones 2020"),
              "smith and jones 2020 (Hinton2006) Smith AND Jones 2020");
    CHECK_STR(citations("\"Smith and Jones 2020\" (Hinton, 20061) (Hinton, 2006"),
              "\"Smith and Jones 2020\" (Hinton, 20061) (Hinton, 2006");

    /* arXiv's category codes as words are its category filters. */
    CHECK_STR(categories("cs.CL transformers"),
              "category:cs.CL transformers | read cs.CL as category:cs.CL");
    CHECK_STR(categories("x (cs.LG, stat.ML) -hep-th astro-ph.GA."),
              "x (category:cs.LG  category:stat.ML) -category:hep-th category:astro-ph.GA  | "
              "read cs.LG as category:cs.LG, stat.ML as category:stat.ML, hep-th as "
              "category:hep-th, astro-ph.GA as category:astro-ph.GA");
    /* in brackets, as arXiv's listings write it, one left open too */
    CHECK_STR(categories("LLM agents [cs.AI] [-cs.LG] [cs.CL"),
              "LLM agents  category:cs.AI   -category:cs.LG   category:cs.CL | read cs.AI as "
              "category:cs.AI, cs.LG as category:cs.LG, cs.CL as category:cs.CL");
    /* not: quoted, a field's value, an archive alone, no such code, an
     * id, part of a word */
    CHECK_STR(categories("\"cs.CL\" category:cs.CV math physics cs.XX hep-th/9901001 x-cs.CL"),
              "\"cs.CL\" category:cs.CV math physics cs.XX hep-th/9901001 x-cs.CL");

    /* Xapian's NEAR/n and ADJ/n are operators; Lucene's "a b"~n is NEAR. */
    CHECK_STR(tokens("a NEAR/3 b ADJ/12 c NEAR/ d near/3 NEAR/1234"),
              "TERM:a OP:NEAR/3 TERM:b OP:ADJ/12 TERM:c TERM:NEAR/ TERM:d "
              "TERM:near/3 TERM:NEAR/1234");
    CHECK_STR(slop("\"diffusion image\"~3 x"),
              "(diffusion NEAR/4 image) x");
    CHECK_STR(slop("(\"a b c\"~1)"), "((a NEAR/2 b NEAR/2 c))");
    CHECK_STR(slop("\"a b\"~0 \"c d\" \"e f\"~ \"g h\"~2x"),
              "\"a b\" \"c d\" \"e f\"~ \"g h\"~2x");
    CHECK_STR(slop("\"unclosed~2"), "\"unclosed~2");

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
