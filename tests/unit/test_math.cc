/*
 * test_math.cc -- formulas read by the index's own rules
 * (common/layout.h, LAYOUT_META_MATH; text_join_tex_scripts in
 * common/text.c).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.math, and "$\ell_1$", "$L_1$" and
 *    U+2113 "1" are indexed as the one word l1, so that each form of the
 *    query finds every work; "CO$_2$", "CO₂" (Unicode's subscript) and
 *    "CO2" are co2, and "$k$-means" is a compound, joined as kmeans;
 *  - an index stamped "scripts" (before Unicode's scripts were read)
 *    keeps reading them as Xapian does, in its works and in a query;
 *  - an index without the stamp (as an older paperdex wrote it) keeps
 *    the rules it was built with: its writer indexes "$\ell_1$" as ell_1
 *    and a search reads the query so, so that "$\ell_1$" still finds the
 *    works that write it, until the index is rebuilt.
 *
 * usage: test_math WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>

#include "layout.h"
#include "api_checks.hh"

/* The index at path stamped `math` (LAYOUT_META_MATH) as an older
 * paperdex left it, then the works (id, title) written to it: whether
 * its writer kept that stamp. */
static bool put_stamped(const std::string &path, const char *math,
                        std::initializer_list<std::pair<const char *, const char *>> works)
{
    {
        Xapian::WritableDatabase db(path, Xapian::DB_OPEN);
        db.set_metadata(LAYOUT_META_MATH, math);
        db.commit();
    }
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    for (const auto &w : works)
        check_put(ix, w.first, w.second);
    pdx_close(ix);
    return Xapian::Database(path).get_metadata(LAYOUT_META_MATH) == math;
}

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_math");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    check_put(ix, "a", "Sparse recovery by $\\ell_1$ relaxations");
    check_put(ix, "b", "$L_1$-norm penalties");
    check_put(ix, "c", "The \xe2\x84\x93" "1 ball");
    check_put(ix, "u1", "Soil CO$_2$ fluxes");
    check_put(ix, "u2", "Soil CO\xe2\x82\x82 sinks, an R\xc2\xb2 of fits");
    check_put(ix, "u3", "Soil CO2 sensors");
    check_put(ix, "u5", "Federated $k$-means");
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_MATH) ==
              LAYOUT_MATH_JOINED,
          "a new index is stamped");
    check(check_has_term(path, "co2") && check_has_term(path, "r2") &&
              !check_has_term(path, "co\xe2\x82\x82"),
          "a new index reads Unicode's scripts as digits");
    check(check_has_term(path, "kmean"), "a new index joins $k$-means");
    check(check_has_term(path, "l1") && !check_has_term(path, "ell_1") &&
              !check_has_term(path, "l_1"),
          "a new index holds l1 alone");
    const std::set<std::string> all = {"a", "b", "c"};
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    for (const char *q : {"$\\ell_1$", "\\ell_1", "L1", "l_1", "\xe2\x84\x93" "1"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == all, std::string(q) + " finds every work: " + check_show(got));
    }
    const std::set<std::string> co2 = {"u1", "u2", "u3"};
    for (const char *q : {"CO2", "CO$_2$", "CO\xe2\x82\x82", "co\xe2\x82\x82 soil"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == co2, std::string(q) + " finds every CO2: " + check_show(got));
    }
    pdx_close(ix);

    /* Stamped "scripts", as a paperdex that read TeX's scripts alone left
     * it: its next work keeps Unicode's subscript, and a query reads it
     * so (CO2 finds the works written by the newer rules). */
    check(put_stamped(path, LAYOUT_MATH_SCRIPTS,
                      {{"u4", "Ocean CO\xe2\x82\x82 uptake"},
                       {"u6", "Private $q$-ary codes"}}),
          "a writer keeps an index's \"scripts\"");
    check(check_has_term(path, "co\xe2\x82\x82") && !check_has_term(path, "qari"),
          "a \"scripts\" index's writer keeps its rules");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    {
        std::set<std::string> got = check_ids(ix, "CO\xe2\x82\x82 uptake");
        check(got == std::set<std::string>{"u4"},
              "on a \"scripts\" index CO\xe2\x82\x82 is read as it was built: " +
                  check_show(got));
        got = check_ids(ix, "$\\ell_1$");
        check(got == all, "and $\\ell_1$ as \"scripts\" reads it: " + check_show(got));
    }
    pdx_close(ix);

    /* The same index as an older paperdex left it: no stamp.  Its next
     * work is written by the older rules, and read so. */
    check(put_stamped(path, "", {{"d", "Bounds in $\\ell_1$"}}),
          "a writer leaves an older index unstamped");
    check(check_has_term(path, "ell_1"), "an older index's writer keeps its rules");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    std::set<std::string> got = check_ids(ix, "$\\ell_1$");
    check(got == std::set<std::string>{"d"},
          "on an older index $\\ell_1$ is read as it was built: " + check_show(got));
    got = check_ids(ix, "l1");
    check(got == all, "and l1 finds the works the new rules wrote: " + check_show(got));
    pdx_close(ix);
    return check_finish(work);
}
