#!/usr/bin/env python3
"""spellings.py -- the table of British words and their American
spellings that an index's stemmer reads them as (common/spellings.c),
made at build time from SCOWL's word lists (Debian's package scowl,
/usr/share/dict/scowl).

usage: spellings.py SCOWL_DIR OUT.c

SCOWL lists the words spelt one way only: british-words.N holds the words
of British spelling that American English spells otherwise, and
american-words.N the other side (N, the size level: 10 common to 95
rare).  SCOWL's pairing of them (VarCon) is not packaged, so the pairs
are found again here: a British-only word of level 80 or less is paired
with each American-only word that one or two of the spelling rules below
make of it (optimisation: optimization; manoeuvre: maneuver).  A rule
that makes a word the American list lacks makes no pair, so the rules
may be loose: on SCOWL 2020.12.07 they make 7,790 pairs, among them
each word's inflections (optimise, optimised, optimising, optimisation).
A word SCOWL spells alike on both sides (program, meter, license) is
not paired: "programme" stays itself.

Also written: the words common to both spellings (english-words.N) that
end the way the -ise rule reads (precise, expertise, premises):
spellings.c reads a word SCOWL does not know (tokenisation, vectorise)
by that rule, and never these.
"""
import glob
import os
import re
import sys

LEVEL = 80

# British -> American, each tried at every place it applies.
RULES = [("is", "iz"), ("ys", "yz"), ("our", "or"), ("tre", "ter"),
         ("bre", "ber"), ("tred", "tered"), ("bred", "bered"),
         ("tring", "tering"), ("ll", "l"), ("l", "ll"), ("ae", "e"),
         ("oe", "e"), ("ogue", "og"), ("ogues", "ogs"), ("ence", "ense"),
         ("mme", "m"), ("mmes", "ms"), ("mmed", "med"), ("e", ""),
         ("ph", "f"), ("ey", "ay"), ("que", "k"), ("que", "ck"),
         ("ium", "um")]

# The -ise rule's endings (spellings.c, ise_to_ize()).
PRODUCTIVE = re.compile(r"is(e|ed|es|ing|er|ers|ation|ations|able)$")


def words(scowl, kind):
    out = set()
    for f in glob.glob(os.path.join(scowl, "%s-words.*" % kind)):
        if int(f.rsplit(".", 1)[1]) <= LEVEL:
            with open(f, encoding="latin-1") as fi:
                for w in fi:
                    w = w.strip()
                    if w.isascii() and w.isalpha() and w.islower():
                        out.add(w)
    return out


def rewrites(w):
    """What one rule makes of w, at each place it applies.  A Latin
    plural's ending (-ae, -oes) is not the ae or oe of haem- or oestr-."""
    out = set()
    for a, b in RULES:
        i = w.find(a)
        while i >= 0:
            end = i + len(a)
            if not (a in ("ae", "oe") and (end == len(w) or w[end:] == "s")):
                out.add(w[:i] + b + w[end:])
            i = w.find(a, i + 1)
    # -re at the end, with its inflections: manoeuvre, manoeuvres, manoeuvred
    for end, to in (("re", "er"), ("res", "ers"), ("red", "ered"), ("ring", "ering")):
        if w.endswith(end) and len(w) > len(end) + 2:
            out.add(w[:-len(end)] + to)
    return out


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    scowl, out = argv
    uk, us, both = words(scowl, "british"), words(scowl, "american"), words(scowl, "english")
    if not uk or not us or not both:
        sys.stderr.write("spellings.py: no SCOWL word lists in %s "
                         "(install Debian's package scowl: ./dev.sh deps)\n" % scowl)
        return 1
    pairs = set()
    for b in uk:
        once = rewrites(b)
        twice = set()
        for w in once:
            twice |= rewrites(w)
        for a in (once | twice) & us:
            if a != b:
                pairs.add((b, a))
    keep = sorted(w for w in both if PRODUCTIVE.search(w))
    by_uk = sorted(pairs)
    with open(out, "w", encoding="ascii") as fo:
        fo.write("/* Made by common/spellings.py from SCOWL's word lists "
                 "(level %d): do not edit. */\n" % LEVEL)
        fo.write('#include "spellings.h"\n\n')
        fo.write("const struct spelling_pair spelling_by_uk[] = {\n")
        for b, a in by_uk:
            fo.write('    {"%s", "%s"},\n' % (b, a))
        fo.write("};\n\n")
        fo.write("const size_t spelling_pairs = %d;\n\n" % len(by_uk))
        fo.write("const char *const spelling_keep[] = {\n")
        for w in keep:
            fo.write('    "%s",\n' % w)
        fo.write("};\n\nconst size_t spelling_keeps = %d;\n" % len(keep))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
