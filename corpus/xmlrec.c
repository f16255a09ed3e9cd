/*
 * xmlrec.c -- MEDLINE/PubMed XML and arXiv OAI-PMH records, streamed with
 * expat (Debian's libexpat1-dev): a well-kept, fuzzed streaming parser,
 * so no XML is parsed by hand here.  Only the records' elements are
 * looked at; everything else passes by.
 *
 * Streaming.  The file is fed to expat a buffer at a time (XML_GetBuffer
 * and XML_ParseBuffer: expat owns the bytes).  When a record's end tag
 * has been seen, the end handler suspends the parser (XML_StopParser
 * with resumable set): xmlrec_next() hands the record over, and the next
 * call resumes where it stopped.  So one record's fields are in memory at
 * a time, whatever the file's size, and each field is cut at FIELD_MAX
 * bytes (a record with a longer one is skipped, named by its line).
 *
 * PubMed.  A PubmedArticle (or PubmedBookArticle) gives: PMID (the one of
 * MedlineCitation or BookDocument, not those of its comments or
 * references), ArticleTitle, the AbstractText parts (a structured
 * abstract's Label kept: "BACKGROUND: ..."), the authors (ForeName or
 * Initials and LastName, or CollectiveName; editors' lists left out),
 * the journal's Title as venue, PubDate (Year, Month, Day, or a
 * MedlineDate such as "1998 Dec-1999 Jan", read as its first year and
 * month), the DOI and PMC id of PubmedData's ArticleIdList (an
 * ELocationID DOI when that has none), MeSH DescriptorNames and Keywords
 * as subjects.  Each is marked versioned: a later file's version of a
 * PMID replaces an earlier one's (corpus/merge.c).  A DeleteCitation
 * gives one withdrawal per PMID it lists.  NLM's MEDLINE files up to
 * 2016 (and many tools' exports) have the root <MedlineCitationSet>
 * and bare <MedlineCitation> records, read the same way (they have no
 * PubmedData: the DOI is the ELocationID's).
 *
 * OAI-PMH.  Each <record> of ListRecords or GetRecord, in the arXiv or
 * arXivRaw metadata format: id, title, abstract, authors (arXiv's
 * keyname/forenames/suffix, or arXivRaw's one string), categories,
 * comments, journal-ref as venue, doi, and the date of the first version
 * (arXiv's <created>, arXivRaw's first <version><date>).  A header with
 * status="deleted" is a withdrawal of its identifier's arXiv id.  An
 * answer that is an OAI-PMH <error> fails the source, naming the code and
 * the server's message, except noRecordsMatch, an empty list.
 *
 * Entities: expat expands only XML's own and character references; it
 * fetches no external entity (no handler is set) and refuses the
 * "billion laughs" amplification itself (expat >= 2.4).
 */
#include "xmlrec.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "../common/text.h"
#include "record.h"

#define FIELD_MAX (1u << 20) /* bytes of one field */
#define FEED_MIN ((size_t)1 << 16) /* bytes handed to expat at a time */
#define FEED_MAX ((size_t)1 << 26) /* ... at most, in a long token */
#define MAX_DEPTH 64
#define NAME_MAX_LEN 40
enum { F_TITLE, F_ABSTRACT, F_VENUE, F_PMID, F_PMCID, F_DOI, F_ELOC_DOI,
       F_ARXIV, F_COMMENTS, F_CATEGORIES, F_DATE, F_YEAR, F_MONTH, F_DAY,
       F_MEDLINE_DATE, F_RAW_AUTHORS, F_OAI_ID,
       /* an author's parts */
       F_LAST, F_FORE, F_INITIALS, F_COLLECTIVE, F_SUFFIX,
       F__COUNT };

struct xmlrec {
    const char *name;
    XML_Parser p;
    pdx_format format;
    int started;        /* the root was seen */
    int medline;        /* the root is MEDLINE's own (before 2017):
                           <MedlineCitation> records, no PubmedData */
    int suspended;      /* a record is ready, the parser waits */
    int ended;          /* the last buffer was parsed */
    int fatal;          /* a syntax error or a stream error: no more */
    size_t feed;        /* bytes to hand expat next (0: FEED_MIN) */
    unsigned long events; /* handler calls so far */
    /* the element path: local names */
    char path[MAX_DEPTH][NAME_MAX_LEN + 1];
    int depth, deep;    /* deep: levels past MAX_DEPTH, not kept */
    /* text capture */
    int capture;        /* the depth whose element's text is captured, or 0 */
    int field;          /* which field it goes to */
    strbuf text;
    int too_long;
    int gap;            /* an inline element of emphasis began or ended
                           since the last text (inline_gap) */
    /* the record being read */
    int in_record;
    uint64_t rec_line;
    int deleted;        /* OAI deleted header */
    char oai_error[64]; /* the code of an OAI-PMH <error> being read */
    int editors;        /* inside an AuthorList of editors */
    int raw_version_seen;
    /* the record's metadata format: the first element inside <metadata>
     * ("arXiv", "arXivRaw", "dc" for oai_dc, or one not read) */
    char meta[NAME_MAX_LEN + 1];
    strbuf f[F__COUNT];
    record_list authors, subjects;
    record_list idents; /* oai_dc: its dc:identifier values */
    char *skip_why;     /* a record-level problem, static text */
    /* records ready to hand over */
    int ready;          /* 1: a record, 2: a DeleteCitation's PMIDs */
    record_list deletions; /* PMIDs of a DeleteCitation, handed over one by one */
    size_t next_deletion, deletion_pos;
    uint64_t deletion_line;
    char err[512];
};

/* ------------------------------------------------------------ helpers */

static const char *local(const char *name)
{
    const char *c = strrchr(name, ':');
    return c ? c + 1 : name;
}

static const char *attr(const char **atts, const char *key)
{
    for (size_t i = 0; atts && atts[i]; i += 2)
        if (!strcmp(local(atts[i]), key))
            return atts[i + 1];
    return NULL;
}

/* The name of the element `up` levels above the current one ("" when
 * out of range or too deep to be kept). */
static const char *up(const xmlrec *x, int k)
{
    int i = x->depth - 1 - k;
    return i >= 0 && i < MAX_DEPTH && !x->deep ? x->path[i] : "";
}

static int is(const char *a, const char *b) { return !strcmp(a, b); }

static void reset_record(xmlrec *x)
{
    for (int i = 0; i < F__COUNT; i++)
        sb_clear(&x->f[i]);
    record_list_clear(&x->authors);
    record_list_clear(&x->subjects);
    record_list_clear(&x->idents);
    x->meta[0] = '\0';
    x->deleted = 0;
    x->editors = 0;
    x->raw_version_seen = 0;
    x->skip_why = NULL;
}

static void start_capture(xmlrec *x, int field)
{
    x->capture = x->depth;
    x->field = field;
    x->too_long = 0;
    x->gap = 0;
    sb_clear(&x->text);
}

/* Inline markup in a captured field.  NLM writes emphasis hard against
 * the words around it ("at the<i>TERT</i>gene region"): the words are
 * still words, so where such an element (text_markup_kind) begins or
 * ends between two word characters a space is put (on_text).  Sub- and
 * superscripts stay joined ("CO<sub>2</sub>" is CO2, "r<sup>2</sup>"
 * r2), as does any other element. */
static int inline_gap(const char *name)
{
    return text_markup_kind(name, strlen(name)) == TEXT_MARKUP_EMPHASIS;
}

/* Which field an element's text goes to, by its name. */
typedef struct named {
    const char *name;
    int field;
} named;

static const named pubmed_author[] = {
    {"LastName", F_LAST},          {"ForeName", F_FORE},
    {"Initials", F_INITIALS},      {"CollectiveName", F_COLLECTIVE},
    {"Suffix", F_SUFFIX},          {NULL, 0}};
static const named pubmed_date_parts[] = {
    {"Year", F_YEAR},   {"Month", F_MONTH}, {"Day", F_DAY},
    {"MedlineDate", F_MEDLINE_DATE},        {NULL, 0}};
static const named oai_fields[] = { /* children of arXiv and arXivRaw */
    {"id", F_ARXIV},            {"title", F_TITLE},
    {"abstract", F_ABSTRACT},   {"categories", F_CATEGORIES},
    {"comments", F_COMMENTS},   {"journal-ref", F_VENUE},
    {"doi", F_DOI},             {"created", F_DATE},
    {NULL, 0}};
/* Children of oai_dc's <oai_dc:dc>: the first title and date; every
 * description (joined), creator, subject and identifier. */
static const named dc_fields[] = {
    {"title", F_TITLE},       {"description", F_ABSTRACT},
    {"date", F_DATE},         {"source", F_VENUE},
    {"creator", -4},          {"subject", -3},
    {"identifier", -5},       {NULL, 0}};
static const named oai_author[] = {
    {"keyname", F_LAST}, {"forenames", F_FORE}, {"suffix", F_SUFFIX},
    {NULL, 0}};

/* Capture the element's text if table t names it. */
static void capture_named(xmlrec *x, const char *name, const named *t)
{
    for (; t->name; t++)
        if (is(name, t->name)) {
            start_capture(x, t->field);
            return;
        }
}

/* A new author: its parts start empty. */
static void start_author(xmlrec *x)
{
    for (int i = F_LAST; i <= F_SUFFIX; i++)
        sb_clear(&x->f[i]);
}

/* ------------------------------------------------------------ handlers */

static void XMLCALL on_start(void *ud, const XML_Char *qname,
                             const XML_Char **atts)
{
    xmlrec *x = ud;
    x->events++;
    const char *name = local(qname);
    if (!x->started) {
        x->started = 1;
        pdx_format f = is(name, "PubmedArticleSet") ||
                               is(name, "MedlineCitationSet")
                           ? PDX_FORMAT_PUBMED
                       : is(name, "OAI-PMH") ? PDX_FORMAT_OAI
                                             : PDX_FORMAT_AUTO;
        x->medline = is(name, "MedlineCitationSet");
        if (f == PDX_FORMAT_AUTO || (x->format != PDX_FORMAT_AUTO && f != x->format)) {
            snprintf(x->err, sizeof x->err,
                     "%s:%lu: the root element <%.60s> is not %s", x->name,
                     (unsigned long)XML_GetCurrentLineNumber(x->p), name,
                     x->format == PDX_FORMAT_OAI      ? "<OAI-PMH>"
                     : x->format == PDX_FORMAT_PUBMED
                         ? "<PubmedArticleSet> or <MedlineCitationSet>"
                         : "<PubmedArticleSet>, <MedlineCitationSet> or "
                           "<OAI-PMH>");
            x->fatal = 1;
            XML_StopParser(x->p, XML_FALSE);
            return;
        }
        x->format = f;
    }
    if (x->depth >= MAX_DEPTH) {
        x->deep++;
        return;
    }
    snprintf(x->path[x->depth], NAME_MAX_LEN + 1, "%s", name);
    x->depth++;
    if (x->capture) { /* inline markup inside a captured field: its text counts */
        x->gap |= inline_gap(name);
        return;
    }
    const char *parent = up(x, 1);
    if (x->format == PDX_FORMAT_PUBMED) {
        if (is(name, "PubmedArticle") || is(name, "PubmedBookArticle") ||
            (x->medline && is(name, "MedlineCitation") &&
             is(parent, "MedlineCitationSet"))) {
            reset_record(x);
            x->in_record = 1;
            x->rec_line = XML_GetCurrentLineNumber(x->p);
        } else if (is(name, "DeleteCitation")) {
            record_list_clear(&x->deletions);
            x->next_deletion = x->deletion_pos = 0;
            x->deletion_line = XML_GetCurrentLineNumber(x->p);
        } else if (is(name, "PMID") && is(parent, "DeleteCitation")) {
            start_capture(x, -1);
        } else if (!x->in_record) {
            return;
        } else if (is(name, "PMID") &&
                   (is(parent, "MedlineCitation") || is(parent, "BookDocument"))) {
            if (!x->f[F_PMID].len)
                start_capture(x, F_PMID);
        } else if (is(name, "ArticleTitle") &&
                   (is(parent, "Article") || is(parent, "BookDocument"))) {
            start_capture(x, F_TITLE);
        } else if (is(name, "AbstractText") && is(parent, "Abstract")) {
            strbuf *ab = &x->f[F_ABSTRACT];
            const char *label = attr(atts, "Label");
            if (ab->len)
                sb_putc(ab, ' ');
            if (label && *label)
                sb_printf(ab, "%s: ", label);
            start_capture(x, F_ABSTRACT);
        } else if (is(name, "AuthorList")) {
            const char *type = attr(atts, "Type");
            x->editors = type && is(type, "editors");
        } else if (is(name, "Author") && is(parent, "AuthorList")) {
            start_author(x);
        } else if (is(parent, "Author") && is(up(x, 2), "AuthorList")) {
            capture_named(x, name, pubmed_author);
        } else if (is(name, "Title") && is(parent, "Journal")) {
            start_capture(x, F_VENUE);
        } else if (is(parent, "PubDate")) {
            capture_named(x, name, pubmed_date_parts);
        } else if (is(name, "ArticleId") && is(parent, "ArticleIdList") &&
                   is(up(x, 2), "PubmedData")) {
            const char *type = attr(atts, "IdType");
            if (type && is(type, "doi"))
                start_capture(x, F_DOI);
            else if (type && is(type, "pmc"))
                start_capture(x, F_PMCID);
        } else if (is(name, "ELocationID") && is(parent, "Article")) {
            const char *type = attr(atts, "EIdType");
            if (type && is(type, "doi"))
                start_capture(x, F_ELOC_DOI);
        } else if ((is(name, "DescriptorName") && is(parent, "MeshHeading")) ||
                   (is(name, "Keyword") && is(parent, "KeywordList"))) {
            start_capture(x, -3); /* a subject */
        }
        return;
    }
    /* OAI-PMH */
    if (is(name, "error") && is(parent, "OAI-PMH")) {
        /* An error answer, not a list (badArgument, badResumptionToken,
         * ...): the source fails, named.  noRecordsMatch is an empty
         * list: nothing changed in the range asked. */
        const char *code = attr(atts, "code");
        if (code && is(code, "noRecordsMatch"))
            return;
        snprintf(x->oai_error, sizeof x->oai_error, "%s",
                 code && *code ? code : "(no code)");
        x->rec_line = XML_GetCurrentLineNumber(x->p);
        sb_clear(&x->f[F_COMMENTS]); /* the message, outside any record */
        start_capture(x, F_COMMENTS);
        return;
    }
    if (is(name, "record") &&
        (is(parent, "ListRecords") || is(parent, "GetRecord"))) {
        reset_record(x);
        x->in_record = 1;
        x->rec_line = XML_GetCurrentLineNumber(x->p);
        return;
    }
    if (!x->in_record)
        return;
    if (is(parent, "metadata") && is(up(x, 2), "record")) {
        snprintf(x->meta, sizeof x->meta, "%s", name);
    } else if (is(parent, "dc") && is(up(x, 2), "metadata")) {
        for (const named *t = dc_fields; t->name; t++)
            if (is(name, t->name)) {
                /* one title, one date: the first */
                if ((t->field == F_TITLE || t->field == F_DATE ||
                     t->field == F_VENUE) && x->f[t->field].len)
                    break;
                if (t->field == F_ABSTRACT && x->f[F_ABSTRACT].len)
                    sb_putc(&x->f[F_ABSTRACT], ' ');
                start_capture(x, t->field);
                break;
            }
    } else if (is(name, "header") && is(parent, "record")) {
        const char *st = attr(atts, "status");
        x->deleted = st && is(st, "deleted");
    } else if (is(name, "identifier") && is(parent, "header")) {
        start_capture(x, F_OAI_ID);
    } else if (is(name, "authors") && is(parent, "arXivRaw")) {
        start_capture(x, F_RAW_AUTHORS); /* one string: "A, B and C" */
    } else if (is(parent, "arXiv") || is(parent, "arXivRaw")) {
        capture_named(x, name, oai_fields);
    } else if (is(name, "author") && is(parent, "authors") &&
               is(up(x, 2), "arXiv")) {
        start_author(x);
    } else if (is(parent, "author") && is(up(x, 2), "authors") &&
               is(up(x, 3), "arXiv")) {
        /* arXiv: <authors><author><keyname/><forenames/><suffix/> */
        capture_named(x, name, oai_author);
    } else if (is(name, "date") && is(parent, "version") &&
               is(up(x, 2), "arXivRaw") && !x->raw_version_seen) {
        x->raw_version_seen = 1;
        start_capture(x, F_DATE);
    }
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
    xmlrec *x = ud;
    x->events++;
    if (!x->capture)
        return;
    if (x->text.len + (size_t)len + 1 > FIELD_MAX) {
        x->too_long = 1;
        return;
    }
    if (x->gap && len > 0) {
        if (x->text.len && text_word_byte((unsigned char)x->text.s[x->text.len - 1]) &&
            text_word_byte((unsigned char)s[0]))
            sb_putc(&x->text, ' ');
        x->gap = 0;
    }
    sb_append(&x->text, s, (size_t)len);
}

/* An author's name from its parts, into the author list. */
static void end_author(xmlrec *x)
{
    strbuf name = STRBUF_INIT;
    if (x->f[F_COLLECTIVE].len) {
        sb_append(&name, x->f[F_COLLECTIVE].s, x->f[F_COLLECTIVE].len);
    } else if (x->f[F_LAST].len) {
        if (x->f[F_FORE].len) {
            sb_append(&name, x->f[F_FORE].s, x->f[F_FORE].len);
            sb_putc(&name, ' ');
        } else {
            /* MEDLINE's Initials "JP": written "J. P." so that they are
             * known for initials when authors are matched. */
            const strbuf *in = &x->f[F_INITIALS];
            for (size_t i = 0; i < in->len; i++)
                if (in->s[i] != ' ' && in->s[i] != '.') {
                    sb_putc(&name, in->s[i]);
                    if ((unsigned char)in->s[i] < 0x80)
                        sb_puts(&name, ". ");
                }
        }
        sb_append(&name, x->f[F_LAST].s, x->f[F_LAST].len);
        if (x->f[F_SUFFIX].len) {
            sb_putc(&name, ' ');
            sb_append(&name, x->f[F_SUFFIX].s, x->f[F_SUFFIX].len);
        }
    }
    if (name.len)
        record_list_add(&x->authors, name.s, name.len);
    sb_release(&name);
}

static void XMLCALL on_end(void *ud, const XML_Char *qname)
{
    xmlrec *x = ud;
    x->events++;
    const char *name = local(qname);
    if (x->deep) {
        x->deep--;
        return;
    }
    if (x->capture && x->depth > x->capture)
        x->gap |= inline_gap(name); /* the end of inline markup */
    if (x->capture == x->depth) {
        x->capture = 0;
        if (x->too_long)
            x->skip_why = "a field is longer than 1 MiB";
        if (x->field == -1) {
            record_list_add(&x->deletions, x->text.s ? x->text.s : "", x->text.len);
        } else if (x->field == -3) {
            record_list_add(&x->subjects, x->text.s ? x->text.s : "", x->text.len);
        } else if (x->field == -4) {
            record_list_add(&x->authors, x->text.s ? x->text.s : "", x->text.len);
        } else if (x->field == -5) {
            record_list_add(&x->idents, x->text.s ? x->text.s : "", x->text.len);
        } else if (x->field >= 0) {
            strbuf *f = &x->f[x->field];
            sb_append(f, x->text.s ? x->text.s : "", x->text.len);
        }
    }
    const char *parent = up(x, 1);
    int record_end = 0;
    if (x->format == PDX_FORMAT_PUBMED) {
        if (is(name, "Author") && is(parent, "AuthorList") && x->in_record &&
            !x->editors)
            end_author(x);
        else if (is(name, "AuthorList"))
            x->editors = 0;
        else if (is(name, "PubmedArticle") || is(name, "PubmedBookArticle") ||
                 (x->medline && is(name, "MedlineCitation") &&
                  is(parent, "MedlineCitationSet")))
            record_end = 1;
        else if (is(name, "DeleteCitation") && x->deletions.n) {
            x->next_deletion = x->deletion_pos = 0;
            record_end = 2;
        }
    } else if (x->format == PDX_FORMAT_OAI) {
        if (is(name, "author") && is(parent, "authors") &&
            is(up(x, 2), "arXiv") && x->in_record)
            end_author(x);
        else if (is(name, "record") && x->in_record)
            record_end = 1;
        else if (is(name, "error") && x->oai_error[0]) {
            x->fatal = 1;
            XML_StopParser(x->p, XML_FALSE);
        }
    }
    if (x->depth > 0)
        x->depth--;
    if (record_end) {
        x->ready = record_end;
        XML_StopParser(x->p, XML_TRUE);
    }
}

/* ------------------------------------------------------------ records */

static const char *field(arena *a, const xmlrec *x, int i, int tex)
{
    return record_text(a, &x->f[i], tex);
}

/* PubDate -> "YYYY[-MM[-DD]]" in out, or "" when it gives no year. */
static void pubmed_date(const xmlrec *x, char out[16])
{
    if (!x->f[F_YEAR].len && x->f[F_MEDLINE_DATE].len)
        record_medline_date(x->f[F_MEDLINE_DATE].s, out);
    else
        record_ymd(x->f[F_YEAR].s, x->f[F_MONTH].s, x->f[F_DAY].s, out);
}

/* oai_dc's identifiers: an arXiv abstract URL gives the arXiv id (when
 * the header did not), a DOI (doi:, a doi.org URL, or a bare 10.x/y) the
 * DOI.  0, or -1 out of memory. */
static int dc_identifiers(const xmlrec *x, arena *a, pdx_work *w)
{
    const char *p = x->idents.b.s;
    for (size_t i = 0; i < x->idents.n; i++, p += strlen(p) + 1) {
        char *v = text_collapse(a, p);
        if (!v)
            return -1;
        const char *abs = NULL; /* "arxiv.org/abs/", as arXiv writes it
                                   ("http://arXiv.org/abs/...") or not */
        for (const char *q = v; *q && !abs; q++)
            if (!strncasecmp(q, "arxiv.org/abs/", 14))
                abs = q;
        if (abs && !w->arxiv_id)
            w->arxiv_id = abs + 14;
        else if (!w->doi && (!strncasecmp(v, "doi:", 4) ||
                             strstr(v, "doi.org/10.") ||
                             !strncmp(v, "10.", 3)))
            w->doi = v; /* normalised by record_finish */
    }
    return 0;
}

/* The finished record into w; -1 (why set) when it cannot be one. */
static int build(xmlrec *x, arena *a, pdx_work *w, strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    w->versioned = 1;
    if (x->skip_why) {
        sb_puts(why, x->skip_why);
        return -1;
    }
    if (x->format == PDX_FORMAT_PUBMED) {
        w->pmid = field(a, x, F_PMID, 0);
        if (!w->pmid || !record_pmid_valid(w->pmid)) {
            sb_printf(why, "a PubmedArticle without a valid PMID%s%s",
                      w->pmid ? ": " : "", w->pmid ? w->pmid : "");
            return -1;
        }
        w->title = field(a, x, F_TITLE, 0);
        w->abstract = field(a, x, F_ABSTRACT, 0);
        w->venue = field(a, x, F_VENUE, 0);
        w->doi = field(a, x, F_DOI, 0);
        if (!w->doi)
            w->doi = field(a, x, F_ELOC_DOI, 0);
        w->pmcid = field(a, x, F_PMCID, 0);
        char date[16];
        pubmed_date(x, date);
        if (*date)
            w->date = arena_strdup(a, date);
        w->authors = record_list_out(a, &x->authors, 0, &w->n_authors);
        w->subjects = record_list_out(a, &x->subjects, 0, &w->n_subjects);
        /* A title in brackets is a translation ("[Title in English]."):
         * kept as written. */
        return 0;
    }
    /* OAI-PMH: the arXiv id from the header when the metadata is gone */
    if (!x->deleted && x->meta[0] && !is(x->meta, "arXiv") &&
        !is(x->meta, "arXivRaw") && !is(x->meta, "dc")) {
        sb_printf(why, "the OAI-PMH metadata format <%s> is not read "
                       "(paperdex reads arXiv, arXivRaw and oai_dc: harvest "
                       "with metadataPrefix=arXiv, arXivRaw or oai_dc)",
                  x->meta);
        return -1;
    }
    const char *ident = field(a, x, F_OAI_ID, 0);
    w->arxiv_id = field(a, x, F_ARXIV, 0);
    if (!w->arxiv_id && ident) {
        const char *p = strstr(ident, "arXiv.org:");
        w->arxiv_id = p ? p + 10 : NULL;
    }
    if (is(x->meta, "dc") && dc_identifiers(x, a, w)) {
        sb_puts(why, "out of memory");
        return -1;
    }
    if (w->arxiv_id && *w->arxiv_id) {
        w->id = w->arxiv_id;
    } else if (ident && (is(x->meta, "dc") || (x->deleted && !x->meta[0] &&
                                                !strstr(ident, "arXiv")))) {
        /* Another repository's record: known by its OAI identifier
         * ("oai:repository.example.org:1234"), merged by its DOI. */
        w->arxiv_id = NULL;
        w->id = ident;
    } else {
        sb_puts(why, "an OAI-PMH record without an arXiv id");
        return -1;
    }
    if (x->deleted) {
        w->withdrawn = 1;
        return 0;
    }
    if (is(x->meta, "dc")) {
        w->title = field(a, x, F_TITLE, 1);
        w->abstract = field(a, x, F_ABSTRACT, 1);
        w->venue = field(a, x, F_VENUE, 1);
        w->authors = record_list_out(a, &x->authors, 1, &w->n_authors);
        /* dc:creator is "Family, Given" by convention: written as the
         * other readers write names, "Given Family" */
        for (size_t i = 0; i < w->n_authors; i++) {
            const char *n = w->authors[i], *c = strchr(n, ',');
            if (c && !strchr(c + 1, ',') && c[1]) {
                const char *given = c + 1 + strspn(c + 1, " ");
                char *t = arena_alloc(a, strlen(n) + 2);
                if (!t) {
                    sb_puts(why, "out of memory");
                    return -1;
                }
                snprintf(t, strlen(n) + 2, "%s %.*s", given, (int)(c - n), n);
                ((const char **)w->authors)[i] = t;
            }
        }
        w->subjects = record_list_out(a, &x->subjects, 1, &w->n_subjects);
        const char *date = field(a, x, F_DATE, 0);
        /* dc:date is W3CDTF: "2007", "2007-04", "2007-04-02" or with a
         * time after it */
        if (date && strlen(date) >= 10 && date[4] == '-' && date[7] == '-')
            date = arena_strndup(a, date, 10);
        if (date && record_date_valid(date))
            w->date = date;
        return 0;
    }
    w->title = field(a, x, F_TITLE, 1);
    w->abstract = field(a, x, F_ABSTRACT, 1);
    w->venue = field(a, x, F_VENUE, 1);
    w->comments = field(a, x, F_COMMENTS, 1);
    w->doi = field(a, x, F_DOI, 0);
    const char *cats = field(a, x, F_CATEGORIES, 0);
    const char *date = field(a, x, F_DATE, 0);
    const char *raw = field(a, x, F_RAW_AUTHORS, 1);
    cJSON *o = cJSON_CreateObject();
    if (!o || (cats && !cJSON_AddStringToObject(o, "categories", cats)) ||
        (raw && !cJSON_AddStringToObject(o, "authors", raw)) ||
        rec_list(a, o, "categories", 0, REC_AS_IS, &w->categories,
                 &w->n_categories, why) ||
        (raw && rec_list(a, o, "authors", 1, REC_AS_IS, &w->authors,
                         &w->n_authors, why))) {
        cJSON_Delete(o);
        if (!why->len)
            sb_puts(why, "out of memory");
        return -1;
    }
    cJSON_Delete(o);
    if (!raw)
        w->authors = record_list_out(a, &x->authors, 1, &w->n_authors);
    if (date) {
        char d[32];
        if (record_date_valid(date))
            w->date = date;
        else if (arxiv_version_date(date, d) == 0)
            w->date = arena_strdup(a, d);
        else {
            sb_printf(why, "the date \"%.40s\" is neither YYYY-MM-DD nor "
                           "an RFC 822 date", date);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ the API */

xmlrec *xmlrec_new(const char *name, pdx_format format, int utf8)
{
    xmlrec *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->name = name;
    x->format = format;
    x->p = XML_ParserCreate(utf8 ? "UTF-8" : NULL);
    if (!x->p) {
        free(x);
        return NULL;
    }
    x->text = (strbuf)STRBUF_INIT;
    for (int i = 0; i < F__COUNT; i++)
        x->f[i] = (strbuf)STRBUF_INIT;
    x->authors.b = x->subjects.b = x->deletions.b = x->idents.b =
        (strbuf)STRBUF_INIT;
    XML_SetUserData(x->p, x);
    XML_SetElementHandler(x->p, on_start, on_end);
    XML_SetCharacterDataHandler(x->p, on_text);
    return x;
}

void xmlrec_free(xmlrec *x)
{
    if (!x)
        return;
    XML_ParserFree(x->p);
    sb_release(&x->text);
    for (int i = 0; i < F__COUNT; i++)
        sb_release(&x->f[i]);
    sb_release(&x->authors.b);
    sb_release(&x->subjects.b);
    sb_release(&x->idents.b);
    sb_release(&x->deletions.b);
    free(x);
}

int xmlrec_looks_like(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
        i++;
    if (i >= n || s[i] != '<')
        return 0;
    /* Only the roots paperdex reads: a saved HTML page stays a page. */
    const char *roots[] = {"PubmedArticleSet", "MedlineCitationSet",
                           "OAI-PMH"};
    for (int r = 0; r < 3; r++)
        for (size_t k = i; k + strlen(roots[r]) + 1 <= n && k < i + 4096; k++)
            if (s[k] == '<' && !memcmp(s + k + 1, roots[r], strlen(roots[r])))
                return 1;
    return 0;
}

/* The message of an OAI-PMH <error> answer (its text, white space
 * collapsed, cut at 199 bytes on a character boundary) into x->err. */
static void oai_error_message(xmlrec *x, arena *a)
{
    char *msg = (char *)field(a, x, F_COMMENTS, 0); /* the arena's copy */
    if (msg)
        text_truncate_utf8(msg, 199);
    snprintf(x->err, sizeof x->err,
             "%s:%lu: an OAI-PMH error answer, not records: %s%s%s", x->name,
             (unsigned long)x->rec_line, x->oai_error, msg ? ": " : "",
             msg ? msg : "");
}

static int feed_error(xmlrec *x, strbuf *why)
{
    if (!x->err[0])
        snprintf(x->err, sizeof x->err, "%s:%lu:%lu: XML error: %s", x->name,
                 (unsigned long)XML_GetCurrentLineNumber(x->p),
                 (unsigned long)XML_GetCurrentColumnNumber(x->p) + 1,
                 XML_ErrorString(XML_GetErrorCode(x->p)));
    x->fatal = 1;
    sb_puts(why, x->err);
    return -2;
}

int xmlrec_next(xmlrec *x, arena *a, pdx_work *w, uint64_t *line,
                strbuf *why, record_read_fn rd, void *ctx)
{
    const pdx_work init = PDX_WORK_INIT;
    for (;;) {
        if (x->ready == 2) { /* a DeleteCitation: one PMID a call */
            const char *p = x->deletions.b.s + x->deletion_pos;
            size_t len = strlen(p);
            x->deletion_pos += len + 1;
            if (++x->next_deletion >= x->deletions.n)
                x->ready = 0;
            *w = init;
            w->withdrawn = 1;
            w->versioned = 1;
            *line = x->deletion_line;
            char *s = arena_strndup(a, p, len);
            char *pm = s ? text_collapse(a, s) : NULL;
            if (!pm || !record_pmid_valid(pm)) {
                sb_printf(why, "DeleteCitation lists \"%.30s\", not a PMID",
                          pm ? pm : "");
                return -1;
            }
            w->pmid = pm;
            return 1;
        }
        if (x->ready == 1) {
            x->ready = 0;
            x->in_record = 0;
            *line = x->rec_line;
            return build(x, a, w, why) == 0 ? 1 : -1;
        }
        if (x->fatal) {
            sb_puts(why, x->err[0] ? x->err : "the XML stream broke");
            return -2;
        }
        enum XML_Status st;
        if (x->suspended) {
            x->suspended = 0;
            st = XML_ResumeParser(x->p);
        } else if (x->ended) {
            return 0;
        } else {
            /* Expat (before 2.6's reparse deferral; Debian 12 has 2.5)
             * scans a token that a buffer leaves unfinished again from
             * its start with every buffer after it: a 50 MB attribute
             * or comment fed 64 KB at a time is scanned 800 times.  A
             * buffer that gave no event at all doubles the next one
             * (up to FEED_MAX), so a long token costs a few scans; any
             * event brings the size back down. */
            size_t want = x->feed ? x->feed : FEED_MIN;
            char *b = XML_GetBuffer(x->p, (int)want);
            if (!b) {
                sb_puts(why, "out of memory");
                x->fatal = 1;
                return -2;
            }
            size_t n = 0;
            for (int k; n < want; n += (size_t)k)
                if ((k = rd(ctx, b + n, (int)(want - n))) <= 0) {
                    if (k < 0) {
                        x->fatal = 1;
                        return -3;
                    }
                    break;
                }
            x->ended = n == 0;
            unsigned long before = x->events;
            st = XML_ParseBuffer(x->p, (int)n, n == 0);
            x->feed = x->events != before ? FEED_MIN
                      : want < FEED_MAX  ? 2 * want
                                         : want;
        }
        if (st == XML_STATUS_ERROR) {
            if (x->oai_error[0] && !x->err[0])
                oai_error_message(x, a);
            return feed_error(x, why);
        }
        if (st == XML_STATUS_SUSPENDED)
            x->suspended = 1;
    }
}

pdx_format xmlrec_format(const xmlrec *x)
{
    return x ? x->format : PDX_FORMAT_AUTO;
}
