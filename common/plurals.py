#!/usr/bin/env python3
"""plurals.py -- the table of irregular plurals and their singulars that
an index's stemmer reads them as (common/plurals.c), made at build time
from WordNet's exception list (Debian's package wordnet-base,
/usr/share/wordnet).

usage: plurals.py WORDNET_DIR OUT.c

WordNet's noun.exc lists each noun plural no rule of English makes
(matrices matrix, criteria criterion, corpora corpus, mice mouse), with
its singular or singulars.  A plural is kept when:
  * it and its singular are of a-z alone, and it has one singular (not
    "axes", of axe and axis, nor "bases", of base and basis);
  * it is no word of its own in WordNet (no lemma of a noun, verb,
    adjective or adverb: "data", "men", "teeth" are; a word used as
    both is left to the stemmer);
  * it is not the regular form of another word (a noun's plural, a
    verb's third person: "ellipses" is the plural of ellipse too,
    "synapses" of synapse, "lives" the verb live's), unless that word is
    a verb of the singular's own root (analyse: analyses, diagnose:
    diagnoses), whose works the singular's are in any case;
  * its singular has three letters or more, and it is not in KEEP_APART.
On WordNet 3.0 that keeps 1,758 of its 2,054 lines.
"""
import os
import re
import sys

# Plurals that have become words of their own, which WordNet lists only
# inside longer lemmas ("mass_media"): "social media" is no medium.
KEEP_APART = {"media"}

SIBILANT = re.compile(r"(s|x|z|ch|sh|o)$")


def lemmas(wordnet):
    """Every one-word lemma of WordNet, and those that are verbs."""
    every, verbs = set(), set()
    for part in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(wordnet, "index." + part), encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue  # the licence's lines
                w = line.split(" ", 1)[0]
                if "_" in w or "-" in w:
                    continue
                every.add(w)
                if part == "verb":
                    verbs.add(w)
    return every, verbs


def regular_bases(plural):
    """The words whose regular plural (or third person) plural is."""
    out = set()
    if plural.endswith("s"):
        out.add(plural[:-1])
    if plural.endswith("es") and SIBILANT.search(plural[:-2]):
        out.add(plural[:-2])
    if plural.endswith("ies"):
        out.add(plural[:-3] + "y")
    return out


def pairs(wordnet):
    every, verbs = lemmas(wordnet)
    nouns = set()
    with open(os.path.join(wordnet, "index.noun"), encoding="latin-1") as f:
        for line in f:
            if not line.startswith(" "):
                nouns.add(line.split(" ", 1)[0])
    out = []
    with open(os.path.join(wordnet, "noun.exc"), encoding="latin-1") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 2:
                continue
            plural, singular = parts
            if not (re.fullmatch("[a-z]+", plural) and re.fullmatch("[a-z]+", singular)):
                continue
            if plural == singular or len(singular) < 3 or plural in KEEP_APART:
                continue
            if plural in every:
                continue
            other = False
            for b in regular_bases(plural):
                if b == singular or b not in every:
                    continue
                same_root = b in verbs and b not in nouns and b[:-1] == singular[:-2]
                if not same_root:
                    other = True
            if not other:
                out.append((plural, singular))
    return sorted(out)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    wordnet, out = argv
    if not os.path.exists(os.path.join(wordnet, "noun.exc")):
        sys.stderr.write("plurals.py: no WordNet exception list in %s "
                         "(install Debian's package wordnet-base: ./dev.sh deps)\n" % wordnet)
        return 1
    table = pairs(wordnet)
    with open(out, "w", encoding="ascii") as fo:
        fo.write("/* Made by common/plurals.py from WordNet's noun.exc: do not edit. */\n")
        fo.write('#include "plurals.h"\n\n')
        fo.write("const struct plural_pair plural_by_plural[] = {\n")
        for p, s in table:
            fo.write('    {"%s", "%s"},\n' % (p, s))
        fo.write("};\n\nconst size_t plural_pairs = %d;\n" % len(table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
