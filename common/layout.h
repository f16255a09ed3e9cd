/*
 * layout.h -- the index layout: its essay, and every name it gives
 * (term prefixes, value slots, metadata keys) in one place.
 *
 * The write side (indexer/shim_write.cc, corpus/merge.c's keys) and the
 * read side (searcher/shim_read.cc) spell a prefix only through these
 * macros, so the two cannot disagree.  Plain C: corpus/ and the C files
 * of both sides include it as well as the C++ shim.
 *
 * ======================================================================
 * THE INDEX LAYOUT (layout version 8)
 * ======================================================================
 *
 * An index is one Xapian "glass" database directory.  One Xapian document
 * holds one work.
 *
 * Terms
 * -----
 * Free text gives the terms Xapian::TermGenerator would give with the
 * Snowball English (porter2) stemmer from libstemmer, wrapped below as a
 * Xapian::StemImplementation, under stemming strategy STEM_ALL: every word
 * gives one term, its stem, and no unstemmed copy.  A British spelling
 * is stemmed as its American one (colour as color) in an index stamped
 * LAYOUT_META_SPELLINGS (below).  The writer reads the
 * text itself, by TermGenerator's rules (indexer/text_terms.cc, which the
 * suite compares with TermGenerator on any text), and queries are parsed
 * by Xapian's QueryParser, whose words follow the same rules.  Before
 * that, the text is folded by text_unaccent() (text.c): Latin, Greek and
 * Cyrillic diacritics removed, so "Schütze" and "Schutze" are one word,
 * in the index and in queries alike (the stored record keeps the text as
 * written).  English stop words (common/stopwords.h: Snowball's list less 14
 * words titles mean, in an index stamped LAYOUT_META_STOP_WORDS)
 * are not indexed at all and take no position (STOP_ALL).  Words longer than 64 bytes are
 * not indexed (TermGenerator::set_max_word_length).
 *
 *   prefix  what                                        how
 *   ------  ------------------------------------------  ------------------
 *   (none)  the default field of a query: the stems of  positions: the
 *           the abstract, the title and the author      abstract's only
 *           names together; a title word counts
 *           TITLE_WDF times, so it outweighs the same
 *           word in the abstract under BM25.
 *   S       title stems (query prefix `title:`)          positional
 *   A       author-name stems (`author:`)                positional
 *   XB      a stem the abstract shares with the title   boolean (wdf 0)
 *           or an author name (`abstract:`, below)
 *   XL      no word: its wdf is the number of the       never searched
 *           abstract's words, so that a work's length
 *           is what it was in layout 3 (below)
 *
 * Each field's positions are kept once, in its own terms: the title's in
 * S, the authors' in A, the abstract's in the default field's stems
 * (TermGenerator adds a title or author word to the default field
 * without a position).  A word of the abstract is thus one posting, a
 * word of the title or an author name two.  Layout 3 indexed every word
 * twice, once in the default field without positions and again under
 * its field's prefix (S, XB, A) with them; layout 4 drops the abstract's
 * copies, most of the postings, with the same scores for every query
 * of the default field.
 * Layout 1 had four postings per word (the unstemmed word and a
 * Z-prefixed stem, each in the default field and under the field prefix).
 * Layout 5 is layout 4 without boolean keys that other terms stand for:
 * XAI (an author filter of initials reads XAF by prefix), and XI<x> and
 * XMA<x> in the work whose id is x (Q<x> stands for them; below).  On
 * arXiv records that is 7.6 fewer postings a work, of 3.7 fewer
 * distinct terms a work (a B-tree item each).
 * Layout 6 has layout 5's terms and values, and moves the stored record
 * out of Xapian's document data into a zstd frame of its own ("The
 * stored record", below); an index of layout 5 is used as it is
 * (Metadata, below).
 *
 * Layout 7 has layout 6's terms, and keeps their positions out of
 * Xapian's position table: each work's positions are one value, slot
 * SLOT_POSITIONS, whose format and phrase matcher common/positions.cc
 * owns and describes.  Glass keeps one B-tree item per (term, work) in
 * its position table, 200 of the 444 MB of the arXiv 101k compacted,
 * and builds it through a third per-term map of its inverter; the
 * values take about 74 MB of it.
 *
 * Layout 8 has layout 7's terms and values, with the positions value
 * in a smaller format (common/positions.cc): no size or flags byte
 * an entry (its count of positions in two bits of its hash word
 * instead), and each field's first positions counted from the field's
 * start: about 0.6 of layout 7's bytes.  An index of layout 7 is used
 * as it is: its values are read in their own
 * format, and its new works get layout 8's beside them.
 *
 * Layout 9 has layout 8's terms, and keeps each term's positions by the
 * term instead of each work's by the work: chunks of up to 128 works in
 * Xapian's metadata, each position tagged with the form the work wrote
 * (common/chunks.cc owns the format and says why).  It replaces the
 * positions, forms and forms-at values (slots 7, 8 and 9), which a new
 * index no longer writes (metadata paperdex.chunks = "1").  A phrase
 * reads the chunks of its own words where layout 8 read the whole
 * positions value of every work holding them, and the index is smaller
 * and built faster than layout 8's.
 * An index of layout 7 or 8 is used as it is, its new works getting
 * layout 8's values (it has no paperdex.chunks stamp).
 * The chunks of an index stamped LAYOUT_META_COMMON_GRAMS also keep
 * common grams: XG<a> <b> <tags> for two words of its list of common
 * words next to each other in one field, so that a phrase of two of
 * them is read as one word's works (common/common_grams.cc); they are
 * words of the chunks only, no Xapian terms.
 *
 * Where "positions" below says where a field's positions are, they are
 * in that value under the field's terms.  An index created with
 * PDX_OPEN_XAPIAN_POSITIONS (`paperdex index --xapian-positions`) keeps
 * them in Xapian's table as layout 6 did (metadata
 * paperdex.positions = "xapian"): a shard served by xapian-tcpsrv needs
 * that for phrases, because the remote backend runs only Xapian's own
 * positional queries.  Indexes of layouts 5 and 6 are used as they are
 * (their positions are Xapian's; the phrase matcher reads those for a
 * work without the value).
 *
 * What a query reads (searcher/shim_read.cc, fit_layout()):
 *
 *   a word             its stem: the default field.
 *   title:w, author:w  S<w>, A<w>.
 *   abstract:w         the abstract has w unless the work holds it only
 *                      through its title or author names:
 *                        w AND_NOT ((S<w> OR A<w>) AND_NOT XB<w>)
 *                      scored as w, from the default field's statistics.
 *   abstract:w*        the default field's stems beginning with w (the
 *                      PDX_WILDCARD_MAX most frequent), scored as one
 *                      term, matching where the abstract has one of them.
 *   "a phrase"         a phrase never spans two fields (each field is
 *                      followed by a position gap of 100), so
 *                        (t1 AND t2 ...)  FILTER  (the phrase in S  OR
 *                          in the default field's stems  OR  in A)
 *                      the left side scored exactly as Xapian scores a
 *                      phrase, from the default field's statistics; the
 *                      right side only decides which works match.
 *   abstract:"..."     the phrase in the default field's stems, whose
 *                      positions are the abstract's alone.
 *   title:"...", author:"..."  the phrase in S or A.
 *
 * So phrases match on stems ("large language model" finds "large
 * language models"), and a stop word inside a phrase, of any field, is
 * dropped from it, its neighbours searched next to each other ("theory
 * of everything" finds what has "theory of everything", and "theory for
 * everything" too).  Hyphenated and versioned names (PP-OCRv3, ERNIE
 * 3.0), NEAR and ADJ go the same way.  Without unstemmed copies a word
 * as written is not a term: a quoted word (`"learning"`, not
 * `learned`) and a wildcard longer than a stem (`optimiza*`) are held to
 * the words each work writes, kept in value slot 8 (SLOT_FORMS,
 * common/forms.cc, which says why not as terms).  Snippets and
 * suggestions stem the text of the hits themselves (make_snippet,
 * suggest).
 *
 * Document length (BM25's) is Xapian's: the sum of the wdf of every
 * term.  Layout 3 counted each word twice (default field and field copy);
 * layout 4 has no abstract copies, and XL puts their count back, so that
 * BM25's length normalisation, on which k1, b and TITLE_WDF were tuned
 * (bench/eval.py), is unchanged: without it CACM MAP is 0.3629 against
 * 0.3671, and SciFact nDCG@10 0.6728 against 0.6903.
 *
 * A derived title (an abstract's first sentence standing in for a missing
 * title) is not indexed as a title at all: its words are already indexed as
 * abstract text.
 *
 * Boolean terms (wdf 0: they filter, they never add to scores or lengths):
 *
 *   Q<id>              the work's unique id; replace_document() on this
 *                      term makes re-adding a work replace it.  Ids are at
 *                      most PDX_ID_MAX (200) bytes, so Q<id> is always
 *                      below Xapian's 245-byte term limit.
 *   XC<category>       each category, folded to lower case ("cs.cv",
 *                      "hep-th"), and each category's archive ("cs",
 *                      "math", "cond-mat") so that a bare archive matches
 *                      every category in it.
 *   XAL<family>        each author's folded family name  ("wu")
 *   XAP<family>        the first author's alone (with its particles
 *                      and without, as XAL), in an index stamped
 *                      paperdex.first_author (every new one): the
 *                      `firstauthor:` filter, and a citation's author
 *                      ("Bengio et al." names the first author).
 *   XAF<family> <g>    family name and first given name  ("wu zhihua"),
 *                      or the initial when only initials are known
 *                      ("wu z").  A filter of initials ("Z. Wu") is
 *                      every XAF term that begins "wu z" (a wildcard
 *                      without limit over the given names of one family
 *                      and initial: 580 for "wang y" in the arXiv 101k,
 *                      as fast there as one term; 2,000 to 3,500 for
 *                      the commonest in a synthetic million works,
 *                      7-10 ms).  Layout 4 also wrote XAI<family> <i>,
 *                      the same works as one term, 5.6 a work and 1.7
 *                      distinct ones a work on arXiv.
 *   XY<year>           the work's year in decimal ("XY2021"), in an
 *                      index stamped paperdex.years (every new one): a
 *                      year filter is the OR of the years in its range
 *                      that works have (searcher/query_parse.cc), a
 *                      posting list read forward like a category's,
 *                      where SLOT_YEAR's range is checked work by work.
 *                      An older index filters on SLOT_YEAR alone.
 *   XK<subject>        each subject term (MeSH heading, OpenAlex topic,
 *                      BibTeX keyword), folded as an author key is
 *                      ("drugtherapycombination"): `subject:` and the
 *                      subject filter match a whole heading.
 *   XW                 a tombstone: a work whose every record is set
 *                      aside (corpus/merge.c, "Versions and
 *                      withdrawals").  It has no text terms and no
 *                      values but SLOT_ID, so only a search for every
 *                      work could reach it, and that one excludes XW;
 *                      pdx_stats counts works without them.
 *
 * Merge keys (corpus/merge.c): how a new record finds the work it belongs
 * to.  Each source's record of a work contributes its own:
 *
 *   XMA<arxiv id>      arXiv id, lower case, without its version
 *                      suffix, unless it is the work's own id (then Q<id>
 *                      stands for it, as for XI below; a work with an
 *                      arXiv id has it as its id, so only a tombstone of
 *                      another id holds XMA).  Layout 4 always wrote it.
 *   XMD<doi>           DOI, lower case
 *   XMP<pmid>          PubMed id, digits
 *   XMO<openalex id>   OpenAlex work id, upper case, without its URL
 *   XMT<16 hex>        FNV-1a hash of the folded real title
 *   XMF<16 hex>        FNV-1a hash of the folded abstract (its fingerprint)
 *   XI<id>             an id the source gave, unless it is the work's
 *                      own (then Q<id> stands for it: every lookup by a
 *                      record's id asks for Q<id> too, and the merge of
 *                      --jobs shards pairs each XI<id> with Q<id>).
 *                      Layout 4 wrote it for every record with an id.
 *   XS<16 hex>         hash of the record's place in its file: the file
 *                      and the record's identity (its own id, else its
 *                      BibTeX key, else its arXiv id, else its DOI), or
 *                      its line when it has none.  Reading the same record again replaces its
 *                      old version, wherever in the file it now is.
 *   XR<48 hex>         the record itself (merge_record_key): its file,
 *                      its place and a hash of its content, each 16 hex.
 *                      A re-read file is compared record by record: a
 *                      record whose XR term some work holds is unchanged
 *                      and costs no Xapian work; one with another XR
 *                      term under XR<file><place> changed; the XR terms
 *                      under XR<file> whose place the file no longer has
 *                      are records gone from it.  (Layout 3: layout 2
 *                      placed every record by its line and had no XR.)
 *   XP<16 hex>         hash of the source file: the works a file feeds,
 *                      found when it changes or vanishes
 *
 * Class terms (corpus/merge.c, merge_class_terms): what a work has that
 * lets an earlier merge rule decide before the title or abstract rule.
 *
 *   XMCa               the merged view has an arXiv id
 *   XMCd               the merged view has a DOI
 *   XMCi               some source gave an id of its own
 *   XMCt               the merged view has a real title
 *
 * A new record looks a work up by title only among works without the
 * class terms of what it has itself (a record with its own id skips works
 * with XMCi: their ids decide), and by abstract likewise, XMCt included.
 * So a thousand "Editorial" works with ids of their own are not each
 * other's candidates.  A work written before these terms existed has none
 * and is simply always a candidate.
 *
 * A key over the term limit is left out (the work is then not found by
 * it), never cut: a cut key could join two works that differ.
 *
 * "Folded" is text_fold() in text.c: compatibility decomposition, case
 * folding, accents removed, only letters and digits kept.  An author
 * filter is matched on these keys, so it ignores case, accents and name
 * order, and an initial finds full given names.  Keys are cut to 100 bytes
 * (at a character boundary) and add_boolean() refuses anything that would
 * still exceed the term limit: an over-long term must never reach
 * add_document, which would throw away every uncommitted document.
 *
 * Value slots
 * -----------
 *   0  SLOT_YEAR  the year, Xapian::sortable_serialise()d: year facets,
 *                 and year ranges (OP_VALUE_RANGE / _GE / _LE) in an
 *                 index without XY terms.  Absent when unknown.
 *   1  SLOT_DATE  "YYYYMMDD", unknown month or day as "00": date sorting.
 *   2  SLOT_ID    the id: the final tie-break of every sort order, so that
 *                 equal scores or dates always come out in the same order
 *                 and paging is stable, whatever the docids are.
 *   3  SLOT_CATS  the categories as written, separated by 0x1f: facets.
 *   4  SLOT_AUTHORS  the author names as shown, separated by 0x1f:
 *                 facets.  (A MatchSpy reads values cheaply for every
 *                 match; the stored JSON would have to be parsed.)
 *   5  SLOT_SUBJECTS  the subject terms as written, separated by 0x1f:
 *                 facets.
 *   6  SLOT_RECORD  the stored record (below), one zstd frame.
 *   7  SLOT_POSITIONS  the work's word positions (layouts 7 and 8,
 *                 each in its own format; common/positions.cc).
 *                 Absent in an index made
 *                 with Xapian's positions or by layout 9 (its chunks,
 *                 common/chunks.cc), and in works of layout 6 and
 *                 before.
 *   8  SLOT_FORMS  the words the work writes where they are not
 *                 their own stems, as 32-bit hashes (common/forms.cc):
 *                 what a quoted word or a wildcard is held to.  Every
 *                 work of an index stamped paperdex.forms and not
 *                 paperdex.chunks has it (layout 9 tags each position
 *                 with its form in the chunks instead).
 *   9  SLOT_FORMS_AT  where the work writes each form of a stem it
 *                 writes in another form than itself, field by field
 *                 (common/forms.cc): what holds a quoted phrase's words
 *                 to their forms at the phrase's own positions.  Absent
 *                 in a work that writes every stem as itself, in works
 *                 an older paperdex wrote, and in layout 9.
 *
 * (XMP, XMO, XK, XW and slot 5 came with the PubMed, OpenAlex, OAI-PMH
 * and BibTeX readers; an index of layout 3 written before them simply
 * has none, as no record it holds had those fields.)
 *
 * The stored record
 * -----------------
 * The merged work as one JSON object in paperdex's own JSON-lines schema
 * (docs/jsonl.md), plus "sources": [{"file", "line", "record"}], one entry
 * per source in (file, place) order, each holding that source's own
 * record when there are several (a single source's record is the work
 * itself).  "line" is kept only for a record without an identity, whose
 * line is its place: a record with one may move within its file without
 * the index changing, so its line is not part of the index.
 * Written with cJSON by corpus/merge.c.  Hits are read back from it, and a
 * work is re-merged from its sources when one of them changes.
 *
 * Layout 6 keeps it in value slot 6 as a zstd frame, compressed with a
 * dictionary trained on the index's own first 1,000 records (the
 * dictionary in the metadata, below; the frame names it), and leaves
 * Xapian's document data empty: glass deflates document data on the
 * writer's thread at zlib's level 6, and does not compress values.  On
 * the arXiv records the frames are 0.35 of the JSON, against deflate's
 * 0.53, and cost a quarter of deflate's time, on the builder thread
 * (common/record_store.cc, which owns the format).  Layouts 5 and
 * before keep the JSON itself as the document data, and a document without slot 6 is read that way.
 *
 * Metadata
 * --------
 *   paperdex.layout   "8": written at creation.  An index of layout 5
 *                     has the terms and values of layout 6 and its
 *                     records in the document data, where layout 6
 *                     reads a document without slot 6; one of layout 6
 *                     has the terms and values of layout 7 and its
 *                     positions in Xapian's table, where layout 7 reads
 *                     a work without slot 7; one of layout 7 has slot
 *                     7 in layout 7's format, which layout 8 tells by
 *                     its first byte.  All are searched as they are, and
 *                     a writer stamps them "8" when it opens one, so
 *                     that an older paperdex leaves it alone (layouts 5
 *                     and 6 also get paperdex.positions
 *                     "xapian-inherited": their new works keep their
 *                     positions as the old ones; layout 7's key stays
 *                     as it was).
 *                     Layout 4 is rebuilt (it was layout 5's
 *                     compatible one: its XAI terms are never read, its
 *                     XI<id> and XMA<id> in the work of that id find
 *                     what Q<id> finds).  An index of
 *                     another layout is refused with PDX_EVERSION
 *                     (naming, for an older one, the command that
 *                     rebuilds it), a Xapian database
 *                     without it (and not empty) with PDX_ENOTINDEX.  A
 *                     writer opened with SHIM_UPGRADE may hold an older
 *                     layout's lock while `paperdex index` rebuilds it
 *                     beside itself; it writes nothing there.
 *   paperdex.positions  where the positions are: absent, in slot 7;
 *                     "xapian", in Xapian's position table, as the index
 *                     was made (PDX_OPEN_XAPIAN_POSITIONS), and a rebuild
 *                     (--full, --jobs) keeps them there; "xapian-inherited",
 *                     in Xapian's table because the index was of layout 5
 *                     or 6 when stamped 7 or 8, and a rebuild puts them
 *                     in slot 7.
 *   paperdex.updated  unix time of the last commit, in decimal.
 *   paperdex.reindexed  unix time the last `paperdex index` run finished.
 *   paperdex.src:<16 hex>  one per source file read, keyed by the hash of
 *                     its path: JSON {"path", "size", "mtime_ns", "hash",
 *                     "records"}, the fingerprint that tells a re-run
 *                     whether the file changed.  Written in the same
 *                     commit as the file's last records, so a crash never
 *                     leaves a fingerprint for records that are not there.
 *   paperdex.zdict:<id>  a zstd dictionary the stored records were packed
 *                     with, <id> its own id in decimal (derived from its
 *                     content).  Written in the commit of the first
 *                     records packed with it; an index merged from
 *                     `--jobs` shards holds each shard's.
 *
 * Besides Xapian's own files the directory holds `paperdex-writer`: the
 * pid, host and start time of the writer holding the lock, written when a
 * writer opens and removed when it closes, so that a second writer can say
 * who holds the lock.
 *
 * Weighting
 * ---------
 * BM25Weight(k1, k2=0, k3=1, b, min_normlen=0.5), k1 and b per query
 * (defaults in paperdex.h).  Document length is Xapian's: the sum of the
 * wdf of every non-boolean term.
 */
#ifndef PDX_LAYOUT_H
#define PDX_LAYOUT_H

/* ---- text terms (the default field has no prefix; XB marks a stem the
 *      abstract shares with the title or an author) */
#define LAYOUT_P_TITLE "S"
#define LAYOUT_P_ABSTRACT "XB"
#define LAYOUT_P_AUTHOR "A"

/* ---- boolean terms */
#define LAYOUT_P_ID "Q"
#define LAYOUT_P_CATEGORY "XC"
#define LAYOUT_P_AUTHOR_FAMILY "XAL"
#define LAYOUT_P_AUTHOR_FULL "XAF"
#define LAYOUT_P_AUTHOR_FIRST "XAP"
#define LAYOUT_P_SUBJECT "XK"
#define LAYOUT_P_YEAR "XY"
#define LAYOUT_P_COMMON_GRAM "XG"
#define LAYOUT_TOMBSTONE "XW"
#define LAYOUT_LENGTH_PAD "XL"

/* ---- merge keys (corpus/merge.c) */
#define LAYOUT_P_ARXIV "XMA"
#define LAYOUT_P_DOI "XMD"
#define LAYOUT_P_PMID "XMP"
#define LAYOUT_P_OPENALEX "XMO"
#define LAYOUT_P_TITLE_HASH "XMT"
#define LAYOUT_P_ABSTRACT_HASH "XMF"
#define LAYOUT_P_SOURCE_ID "XI"
#define LAYOUT_P_SOURCE_POS "XS"
#define LAYOUT_P_SOURCE_FILE "XP"
#define LAYOUT_P_RECORD "XR"
/* class terms */
#define LAYOUT_CLASS_ARXIV "XMCa"
#define LAYOUT_CLASS_DOI "XMCd"
#define LAYOUT_CLASS_ID "XMCi"
#define LAYOUT_CLASS_TITLE "XMCt"

/* ---- value slots */
#define LAYOUT_SLOT_YEAR 0u
#define LAYOUT_SLOT_DATE 1u
#define LAYOUT_SLOT_ID 2u
#define LAYOUT_SLOT_CATS 3u
#define LAYOUT_SLOT_AUTHORS 4u
#define LAYOUT_SLOT_SUBJECTS 5u
#define LAYOUT_SLOT_RECORD 6u
#define LAYOUT_SLOT_POSITIONS 7u
#define LAYOUT_SLOT_FORMS 8u
#define LAYOUT_SLOT_FORMS_AT 9u
#define LAYOUT_FACET_SEP '\x1f'

/* ---- metadata keys */
#define LAYOUT_META_LAYOUT "paperdex.layout"
#define LAYOUT_META_UPDATED "paperdex.updated"
#define LAYOUT_META_REINDEXED "paperdex.reindexed"
#define LAYOUT_META_SOURCE "paperdex.src:"
#define LAYOUT_META_ZDICT "paperdex.zdict:"
#define LAYOUT_META_POSITIONS "paperdex.positions"
/* The rules its author keys were made by (TEXT_NAME_RULES, common/text.h,
 * says what each reads): "2" since a hyphenated given name is one name,
 * "3" since particles in capitals open a family name, "4" since a y joins
 * two family names; none for an index built before, whose keys are rules
 * 1.  An index keeps its rules until it is rebuilt (`paperdex index
 * --full`), so that one index never mixes two. */
#define LAYOUT_META_NAMES "paperdex.names"
/* How its CJK text was read: "ngram" (Xapian's FLAG_CJK_NGRAM: each
 * character and each pair of neighbours a term), stamped on every new
 * index; none for an index built before, which was read as Xapian then
 * read it (a run of CJK characters one word, or n-grams if
 * XAPIAN_CJK_NGRAM was set), and is written and searched so until it is
 * rebuilt, so that the indexer and a search never read CJK apart. */
#define LAYOUT_META_CJK "paperdex.cjk"
#define LAYOUT_CJK_NGRAM "ngram"
/* Whether Xapian's spelling table lists the words its works write:
 * "words", stamped on every new index.  Each word of four letters or
 * more (a-z once accents are folded, not a stop word) of a work's title
 * and abstract counts once per work: its frequency is the number of
 * works that write it.  A work replaced or deleted takes its words'
 * counts back.  The "did you mean" of searcher/suggest.cc reads it; an
 * index without the stamp (built by an older paperdex) has no such
 * table, and is corrected from its stems alone until it is rebuilt. */
#define LAYOUT_META_SPELLING "paperdex.spelling"
#define LAYOUT_SPELLING_WORDS "words"
/* Whether each work keeps the words it writes as written (a value in
 * slot LAYOUT_SLOT_FORMS, common/forms.cc): "words", stamped on every
 * new index.  An index without it (built by an older
 * paperdex) matches a quoted word by its stem, as it was built, until it
 * is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_FORMS "paperdex.forms"
/* Set ("1") on an index whose positions are kept by the term
 * (common/chunks.cc, layout 9): every new index but one made with
 * Xapian's positions (or with PDX_LAYOUT8 in the environment, for the
 * tests of layout 8's values). */
#define LAYOUT_META_CHUNKS "paperdex.chunks"
/* The chunk namespace a shard of a --jobs build writes (decimal), and
 * each namespace's docid offset (LAYOUT_META_CHUNK_OFF<ns>: decimal),
 * which the compactor that merges shards sets (common/chunks.cc). */
#define LAYOUT_META_CHUNK_NS "paperdex.chunks.ns"
#define LAYOUT_META_CHUNK_OFF "paperdex.chunks.off."
#define LAYOUT_FORMS_WORDS "words"
/* Whether every work with a year holds its XY<year> term: "terms",
 * stamped on every new index.  An index without it (built by an older
 * paperdex) filters years on SLOT_YEAR until it is rebuilt; shards
 * merged by the compactor keep it only when each of them has it. */
#define LAYOUT_META_YEARS "paperdex.years"
/* Whether its text's formulas were read by today's rules
 * (text_join_tex_scripts with math, common/text.h: \ell and the script l
 * are l, a digit script is joined to the letter before it, so that
 * "$\ell_1$", "$L_1$" and "L1" are one word): "scripts", stamped on every
 * new index.  An index without it keeps the words it was built with
 * ("ell_1", "l_1") and a search there reads a query's formulas so too,
 * until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_MATH "paperdex.math"
#define LAYOUT_MATH_SCRIPTS "scripts"
/* Stamped on every new index in LAYOUT_META_MATH's place: the formulas
 * read as "scripts" says and joined to the words around them
 * (TEXT_MATH_JOINED, common/text.h): the digits written as Unicode's
 * sub- and superscripts right after a letter or digit are the digits
 * ("CO₂" is co2, as "CO$_2$" is), and a formula before a hyphen is a
 * compound's first part ("$k$-means" is k-means, joined as kmeans with
 * LAYOUT_META_COMPOUNDS).  An index stamped "scripts" reads "CO₂" as
 * Xapian reads it and "$k$-means" as two words, in its works and in a
 * search's query, until it is rebuilt. */
#define LAYOUT_MATH_JOINED "scripts joined"
/* Whether a hyphenated compound of the title and abstract ("pre-trained",
 * "U-Net", "COVID-19") is also indexed as one word, its parts joined
 * ("pretrained", at the position of its last part): "joined", stamped on
 * every new index, so that a query of the closed word finds the works
 * that write the compound, as Lucene's word_delimiter_graph with
 * catenate_words makes it.  An index without it keeps the terms it was
 * built with until it is rebuilt (`paperdex index --full`): its writer
 * joins nothing, so that its works stay alike. */
#define LAYOUT_META_COMPOUNDS "paperdex.compounds"
#define LAYOUT_COMPOUNDS_JOINED "joined"
/* Whether a letter written alone with a star after it ("A*", "Q*",
 * "C*-algebra", "R*-tree": the names of an algorithm, a function, an
 * algebra) is read as that word, the letter and the star ("a*"), in the
 * title and the abstract: "letters", stamped on every new index, so that
 * a search for A* finds the works that write it, where the letter alone
 * is a stop word or any single letter, and a query's "A*" is that word,
 * not a wildcard over every word that begins with a (TextTerms::stars,
 * indexer/text_terms.cc; "Starred letters" in searcher/query_parse.cc).
 * An index without it keeps the terms it was built with, and reads "A*"
 * as a wildcard, until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_STARS "paperdex.stars"
#define LAYOUT_STARS_LETTERS "letters"
/* Whether a hyphenated compound of three parts or more that stop words
 * leave one word of ("out-of-distribution", "up-to-date",
 * "off-the-shelf") is also indexed as one word, its parts joined
 * ("outofdistribution", at the position of that word), in the title and
 * the abstract: "joined", stamped on every new index beside
 * LAYOUT_META_COMPOUNDS, so that a search for the compound finds the
 * works that write it, where its stop words, not indexed, leave the one
 * word that every work writing it holds (TextTerms::stop_compounds,
 * indexer/text_terms.cc; close_stop_compounds in
 * searcher/query_parse.cc).  An index without it keeps the terms it was
 * built with, and searches such a compound as that word with a note,
 * until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_STOP_COMPOUNDS "paperdex.stop_compounds"
#define LAYOUT_STOP_COMPOUNDS_JOINED "joined"
/* Whether a hyphenated compound of stop words alone ("on-off", "to-do",
 * "all-to-all", "one-to-one" is not: one is no stop word), its parts
 * letters alone, is also indexed as one word, its parts joined
 * ("onoff", "alltoall"), in the title and the abstract, at a position
 * of its own: none of its parts is indexed, so it has no part's
 * position to stand at, and without it the compound is nothing in the
 * index and a search for it finds nothing.  "joined", stamped on every
 * new index beside LAYOUT_META_STOP_COMPOUNDS (TextTerms::stop_runs,
 * indexer/text_terms.cc; close_stop_compounds in
 * searcher/query_parse.cc).  An index without it keeps the terms and
 * positions it was built with, and finds nothing for such a compound,
 * with a note, until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_STOP_RUNS "paperdex.stop_runs"
#define LAYOUT_STOP_RUNS_JOINED "joined"
/* Whether a pair of words joined by a slash, one of them a stop word or
 * both ("A/B", "I/O", "and/or", "yes/no", "on/off"), each part a-z
 * alone, the pair neither part of a longer run of slashes, is also
 * indexed as one word, its parts joined by an underscore ("a_b", "i_o",
 * "and_or"), in the title and the abstract: at the position of its part
 * that is indexed, or, of stop words alone, at a position of its own.
 * Joined without a mark it would be a word of its own ("ab" of "ab
 * initio", "io"), and apart its stop word is not indexed, so "A/B" was
 * the letter b, which thousands of works hold.  The underscore is a
 * word's character to Xapian's query parser and to the writer alike, so
 * the query's closed pair is one word there too.  "joined", stamped on
 * every new index (TextTerms::slash_pairs, indexer/text_terms.cc;
 * close_stop_compounds in searcher/query_parse.cc).  An index without it
 * keeps the terms and positions it was built with, and searches such a
 * pair as its other word with a note, until it is rebuilt (`paperdex
 * index --full`). */
#define LAYOUT_META_SLASH_PAIRS "paperdex.slash_pairs"
#define LAYOUT_SLASH_PAIRS_JOINED "joined"
/* Which English stop words the index leaves out (common/stopwords.h):
 * "titles", stamped on every new index, is Snowball's list less 14 words
 * that carry meaning in titles (more, few, under, over, only, against,
 * before, after, ...: "Less is More", "Few-Shot"), which are indexed and
 * searched.  An index without it was built with Snowball's whole list
 * (174 words); its writers and readers keep that list, and a search
 * over shards that differ leaves out the longer list's words, which some
 * of them do not hold, until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_STOP_WORDS "paperdex.stop_words"
#define LAYOUT_STOP_WORDS_TITLES "titles"
/* Whether a run of three letters or more, each written alone and
 * separated by dots, with a lower-case letter among them ("i.i.d.",
 * "w.r.t.", "a.k.a.", "I.i.d."), is read as one word, its letters
 * joined ("iid"), in the title and the abstract, as a run of capitals
 * is ("I.I.D.", "U.S.A": Xapian's own rule): "letters", stamped on every
 * new index (TextTerms::dotted, indexer/text_terms.cc; join_acronyms in
 * searcher/query_parse.cc), so that a search for i.i.d. finds the works
 * that write it, or IID, where its letters apart are a stop word (i) and
 * a letter (d) that thousands of formulas hold.  Two letters ("e.g.",
 * "i.e.") are left apart: joined, they would be the words EG and IE.  An
 * index without it keeps the terms it was built with, and reads such a
 * run as its letters, until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_DOTTED "paperdex.dotted"
#define LAYOUT_DOTTED_LETTERS "letters"
/* Whether two letters, each written alone, with a dot between them
 * ("U.S.", "e.g.", "a.m.", "U.S"), not right after a dot, are read as
 * one word that keeps its dot ("u.s"), unstemmed, in the title and the
 * abstract: "kept", stamped
 * on every new index (TextTerms::dotted_pairs, indexer/text_terms.cc;
 * join_acronyms in searcher/query_parse.cc).  Joined as a longer run is,
 * "U.S." would be the word us: a search for U.S. found the 2,058 works
 * of the arXiv 101k that hold us, where 281 write U.S.; and "e.g." would
 * be EG.  Lucene's StandardTokenizer keeps them apart the same way
 * ("u.s").  US written without dots stays the word us.  An index without
 * it keeps the terms it was built with ("U.S." us, "e.g." its letters),
 * and the query reads such a pair so, with a note, until it is rebuilt
 * (`paperdex index --full`). */
#define LAYOUT_META_DOTTED_PAIRS "paperdex.dotted_pairs"
#define LAYOUT_DOTTED_PAIRS_KEPT "kept"
/* Whether each work holds its first author's family name (and the name
 * without its particles) under LAYOUT_P_AUTHOR_FIRST: "kept", stamped on
 * every new index, so that `firstauthor:` and a citation ("Bengio et
 * al. 2025", which names the first author) find the works whose first
 * author that is.  An index without it holds none, and reads
 * firstauthor: as author:, with a note, until it is rebuilt (`paperdex
 * index --full`). */
#define LAYOUT_META_FIRST_AUTHOR "paperdex.first_author"
#define LAYOUT_FIRST_AUTHOR_KEPT "kept"
/* The words whose neighbouring pairs are common-gram terms
 * (LAYOUT_P_COMMON_GRAM; common/common_grams.cc), separated by spaces:
 * stamped on every new index whose positions are kept by the term, so
 * that its writers and readers use the list it was built with.  An
 * index without it holds no such terms, and reads every phrase from its
 * positions. */
#define LAYOUT_META_COMMON_GRAMS "paperdex.common_grams"
/* Whether a British word is stemmed as its American spelling
 * (optimisation as optimization, colour as color: common/spellings.c,
 * a table made from SCOWL's word lists), in the works and in the
 * queries: "american", stamped on every new index, so that either
 * spelling finds the works that write the other, weighed as one term.
 * The words as written are kept as ever (a quoted "colour" is the works
 * that write colour).  An index without it keeps the two apart, its
 * writer too, until it is rebuilt (`paperdex index --full`). */
#define LAYOUT_META_SPELLINGS "paperdex.spellings"
#define LAYOUT_SPELLINGS_AMERICAN "american"
/* Metadata key of each stem some work's compound was joined into
 * (LAYOUT_META_COMPOUNDS), this prefix and the stem, its value "1": the
 * words pseudo-relevance feedback leaves out (searcher/shim_read.cc,
 * FeedbackTerms).  A joined word stands beside its parts, which the
 * feedback already weighs; one rare in the collection and common in the
 * top works would be added as a word of its own.  A stem that works also write as one
 * word (pretrain) is left out too.  Written by the writer that first
 * meets the stem; the compactor keeps every shard's keys. */
#define LAYOUT_JOINED_KEY "\x03"
#define LAYOUT_YEARS_TERMS "terms"
#define LAYOUT_POSITIONS_XAPIAN "xapian"
#define LAYOUT_POSITIONS_INHERITED "xapian-inherited"

/* ---- files beside Xapian's own */
#define LAYOUT_HOLDER_FILE "paperdex-writer"

/* ---- Xapian's B-tree blocks: 16 KB, where glass's default is 8 KB, for
 * an index paperdex creates or compacts (an index keeps the size it was
 * made with, and is read the same either way).  A quoted phrase reads
 * the positions value (SLOT_POSITIONS) of every work that holds its
 * words, and glass reads a block with a pread() each: on the arXiv 101k
 * the top-10 query mix's p99 is about a fifth lower with 16 KB blocks
 * than with 8 KB, for an index 1% larger; 32 KB gains little more and
 * costs p50, 64 KB a third of it. */
#define LAYOUT_BLOCK_SIZE 16384

/* ---- limits */
#define LAYOUT_MAX_WORD_BYTES 64u  /* longer words are not indexed      */
#define LAYOUT_MAX_TERM_BYTES 245u /* Xapian's term limit                */
#define LAYOUT_MAX_KEY_BYTES 100u  /* boolean keys are cut to this       */
#define LAYOUT_FIELD_GAP 100u      /* positions between two fields       */
/* How many times a title word counts in the default field (its wdf):
 * part of the layout, since changing it changes what an index holds. */
#define LAYOUT_TITLE_WDF 2u

#endif
