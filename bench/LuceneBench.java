/*
 * LuceneBench.java -- the Lucene 8 side of bench/compare.py, with Debian's
 * liblucene8-java: EnglishAnalyzer (Porter stemming, English stopwords)
 * and BM25Similarity(1.2, 0.75), the reference configuration.
 *
 *   java LuceneBench index DIR RECORDS.tsv
 *       RECORDS.tsv lines are "id<TAB>title<TAB>abstract<TAB>authors<TAB>
 *       year<TAB>categories" (compare.py converts the JSON lines first;
 *       that conversion is not timed).  Fields title, abstract, authors
 *       are analysed text, stored as paperdex and FTS5 store them; id,
 *       year and each category are exact.
 *       Commits every 1000 documents, as paperdex and the FTS5 bench do,
 *       then forceMerge(1) is the compaction.  Prints one JSON line.
 *
 *   java LuceneBench query DIR QUERIES REPEAT
 *       QUERIES as in fts5_bench.c.  Each word is searched in title (boost
 *       2), abstract and authors, all SHOULD (OR); a phrase kind is a
 *       PhraseQuery in title (boost 2) and abstract; filters are FILTER
 *       clauses on year or category.  Top 10, each hit's stored id read.
 *       One untimed warm-up pass, then REPEAT timed passes; prints the
 *       latencies in microseconds as one JSON line.
 */
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;

public class LuceneBench {
    static long dirBytes(String dir) throws IOException {
        long n = 0;
        for (java.nio.file.Path p : Files.newDirectoryStream(Paths.get(dir)))
            n += Files.size(p);
        return n;
    }

    static void index(String dir, String tsv) throws IOException {
        Analyzer an = new EnglishAnalyzer();
        IndexWriterConfig cfg = new IndexWriterConfig(an);
        cfg.setSimilarity(new BM25Similarity(1.2f, 0.75f));
        cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        IndexWriter w = new IndexWriter(FSDirectory.open(Paths.get(dir)), cfg);
        long t0 = System.nanoTime(), n = 0;
        try (BufferedReader r = Files.newBufferedReader(Paths.get(tsv), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.split("\t", -1);
                if (f.length < 6)
                    continue;
                Document d = new Document();
                d.add(new StringField("id", f[0], Field.Store.YES));
                d.add(new TextField("title", f[1], Field.Store.YES));
                d.add(new TextField("abstract", f[2], Field.Store.YES));
                d.add(new TextField("authors", f[3], Field.Store.YES));
                int year = f[4].isEmpty() ? 0 : Integer.parseInt(f[4]);
                d.add(new IntPoint("year", year));
                d.add(new StoredField("year", year));
                for (String c : f[5].split(" "))
                    if (!c.isEmpty())
                        d.add(new StringField("cat", c, Field.Store.NO));
                w.addDocument(d);
                if (++n % 1000 == 0)
                    w.commit();
            }
        }
        w.commit();
        long t1 = System.nanoTime();
        long before = dirBytes(dir);
        w.forceMerge(1);
        w.commit();
        w.close();
        long t2 = System.nanoTime();
        System.out.printf("{\"records\": %d, \"seconds\": %.3f, \"bytes\": %d, "
                + "\"bytes_optimized\": %d, \"optimize_seconds\": %.3f}%n",
                n, (t1 - t0) / 1e9, before, dirBytes(dir), (t2 - t1) / 1e9);
    }

    static List<String> analyze(Analyzer an, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = an.tokenStream("abstract", new StringReader(text))) {
            CharTermAttribute t = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken())
                out.add(t.toString());
            ts.end();
        }
        return out;
    }

    static Query build(Analyzer an, String kind, String words, String filter) throws IOException {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        List<String> terms = analyze(an, words);
        if (kind.equals("phrase")) {
            String[] fields = {"title", "abstract"};
            float[] boosts = {2f, 1f};
            for (int i = 0; i < 2; i++) {
                PhraseQuery.Builder pb = new PhraseQuery.Builder();
                for (String t : terms)
                    pb.add(new Term(fields[i], t));
                b.add(new BoostQuery(pb.build(), boosts[i]), BooleanClause.Occur.SHOULD);
            }
        } else {
            for (String t : terms) {
                b.add(new BoostQuery(new TermQuery(new Term("title", t)), 2f), BooleanClause.Occur.SHOULD);
                b.add(new TermQuery(new Term("abstract", t)), BooleanClause.Occur.SHOULD);
                b.add(new TermQuery(new Term("authors", t)), BooleanClause.Occur.SHOULD);
            }
        }
        if (filter.startsWith("year="))
            b.add(IntPoint.newExactQuery("year", Integer.parseInt(filter.substring(5))),
                  BooleanClause.Occur.FILTER);
        else if (filter.startsWith("cat="))
            b.add(new TermQuery(new Term("cat", filter.substring(4))), BooleanClause.Occur.FILTER);
        return b.build();
    }

    static void query(String dir, String qfile, int repeat) throws IOException {
        Analyzer an = new EnglishAnalyzer();
        DirectoryReader reader = DirectoryReader.open(FSDirectory.open(Paths.get(dir)));
        IndexSearcher s = new IndexSearcher(reader);
        s.setSimilarity(new BM25Similarity(1.2f, 0.75f));
        List<String> lines = Files.readAllLines(Paths.get(qfile), StandardCharsets.UTF_8);
        StringBuilder lat = new StringBuilder();
        long hits = 0;
        /* One untimed pass first: the JIT compiles in this process (the C
         * programs' warm-up pass runs in a process of its own). */
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            s.search(build(an, f[0], f[1], f.length > 2 ? f[2] : ""), 10);
        }
        /* PDX_QBENCH_IDS=FILE: the first timed pass's hits, one line a
         * query, their ids tab-separated, as pdx_qbench writes them
         * (bench/titles.py). */
        String idsPath = System.getenv("PDX_QBENCH_IDS");
        /* PDX_QBENCH_COUNT=N: count the matches exactly up to N, past it
         * a lower bound (TopScoreDocCollector's totalHitsThreshold, which
         * Elasticsearch's track_total_hits sets, 10,000 by default);
         * unset, IndexSearcher.search's own 1,000. */
        String countEnv = System.getenv("PDX_QBENCH_COUNT");
        int countTo = countEnv != null ? Integer.parseInt(countEnv) : 1000;
        StringBuilder ids = new StringBuilder();
        long t0 = System.nanoTime();
        for (int r = 0; r < repeat; r++)
            for (String line : lines) {
                String[] f = line.split("\t", -1);
                long q0 = System.nanoTime();
                Query q = build(an, f[0], f[1], f.length > 2 ? f[2] : "");
                TopScoreDocCollector c = TopScoreDocCollector.create(10, countTo);
                s.search(q, c);
                TopDocs td = c.topDocs();
                String[] got = new String[td.scoreDocs.length];
                for (int i = 0; i < td.scoreDocs.length; i++)
                    got[i] = s.doc(td.scoreDocs[i].doc).get("id");
                long q1 = System.nanoTime();
                if (idsPath != null && r == 0)
                    ids.append(String.join("\t", got)).append('\n');
                hits += td.scoreDocs.length;
                if (lat.length() > 0)
                    lat.append(", ");
                lat.append(String.format("%.1f", (q1 - q0) / 1e3));
            }
        long t1 = System.nanoTime();
        System.out.printf("{\"latency_us\": [%s], \"seconds\": %.3f, \"hits\": %d}%n",
                lat, (t1 - t0) / 1e9, hits);
        if (idsPath != null)
            Files.write(Paths.get(idsPath), ids.toString().getBytes(StandardCharsets.UTF_8));
        reader.close();
    }

    public static void main(String[] a) throws IOException {
        if (a.length >= 3 && a[0].equals("index"))
            index(a[1], a[2]);
        else if (a.length >= 4 && a[0].equals("query"))
            query(a[1], a[2], Integer.parseInt(a[3]));
        else {
            System.err.println("usage: LuceneBench index DIR TSV | query DIR QUERIES REPEAT");
            System.exit(2);
        }
    }
}
