package couchbench.changes;

import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.DocWriteReply;
import couchbench.feed.Change;
import couchbench.feed.ChangesPage;
import couchbench.results.Histograms;
import couchbench.results.Progress;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * -Dcatchup: what a new replica or a client back online does. A database is filled first (unmeasured), then each
 * reader reads its _changes from 0 in pages of -DpageSize (with include_docs and seq_interval as asked), each page
 * from the last one's last_seq, until a page comes back short; every document is counted once, or as missed or
 * duplicated.
 */
final class CatchUp {

  private static final String STATE = "changes.catchUp";
  private static final int FILL_BATCH = 1000;
  private static final int FAILURES_IN_A_ROW = 10;

  private final ChangesPlan plan;
  private final CouchTarget target;
  private final String database;
  private final AtomicInteger readerNumbers = new AtomicInteger();
  private final ConcurrentLinkedQueue<ChangesFigures.ReaderFigures> readers = new ConcurrentLinkedQueue<>();
  private final Histogram pageMicros = new ConcurrentHistogram(3);
  private final LongAdder pagesEnded = new LongAdder();
  private final LongAdder pagesFailed = new LongAdder();
  private double fillSeconds;

  /** One reader's state, on its virtual user's thread. */
  private static final class Reader {
    final int number;
    final BitSet seen = new BitSet();
    final long started = System.nanoTime();
    String since = "0";
    boolean done;
    int failuresInARow;
    long pages;
    long rows;
    long duplicated;
    long foreign;
    long pageSent;

    Reader(int number) {
      this.number = number;
    }
  }

  CatchUp(ChangesPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
    this.database = plan.databaseNames().get(0);
  }

  /** Fills the database, empty, with the documents to catch up on, saying how far it got as it goes. */
  void fill(CouchDbClient client) {
    long start = System.nanoTime();
    long said = start;
    for (int first = 0; first < plan.catchup(); first += FILL_BATCH) {
      int count = Math.min(FILL_BATCH, plan.catchup() - first);
      StringBuilder docs = new StringBuilder("{\"docs\":[");
      for (int seq = first; seq < first + count; seq++) {
        docs.append(seq == first ? "" : ",").append("{\"_id\":\"").append(ChangesPlan.id(0, seq))
            .append("\",\"seq\":").append(seq).append(",\"kind\":\"").append(plan.even(seq) ? "even" : "odd")
            .append("\"}");
      }
      DocWriteReply reply = client.insertDocuments(database, docs.append("]}").toString()
          .getBytes(StandardCharsets.UTF_8), count);
      if (reply.stored() != count) {
        throw new ChangesException("CouchDB at " + target.baseUrl() + " stored " + reply.stored() + " of " + count
            + " documents filling " + database + " for the catch-up: " + reply.verdict());
      }
      if (System.nanoTime() - said > 10_000_000_000L) {
        said = System.nanoTime();
        Console.say(String.format(Locale.ROOT, "catch-up: %,d of %,d documents written", first + count,
            plan.catchup()));
      }
    }
    fillSeconds = (System.nanoTime() - start) / 1e9;
    Console.say(String.format(Locale.ROOT, "catch-up: %,d documents written in %.1f s; now %d reader%s read them"
        + " from 0", plan.catchup(), fillSeconds, plan.readers(), plan.readers() == 1 ? "" : "s"));
  }

  /** @return a reader's whole life: page after page from 0 to the end */
  ChainBuilder read() {
    return exec(session -> session.set(STATE, new Reader(readerNumbers.getAndIncrement())))
        .asLongAs(session -> !reader(session).done).on(exec(session -> {
          reader(session).pageSent = System.nanoTime();
          return session;
        }).exec(CouchHttp.stopOnRefusal(target, http("catch-up page").get(this::path)
            .check(status().is(200), bodyBytes().transformWithSession(this::page).is("read")
                .name("page")))).exec(this::pageEnded))
        .exec(session -> {
          ended(reader(session));
          return session;
        });
  }

  private String path(Session session) {
    return "/" + database + "/_changes?since=" + URLEncoder.encode(reader(session).since, StandardCharsets.UTF_8)
        + "&limit=" + plan.pageSize() + (plan.includeDocs() ? "&include_docs=true" : "")
        + (plan.seqInterval() > 1 ? "&seq_interval=" + plan.seqInterval() : "");
  }

  private String page(byte[] body, Session session) {
    Reader reader = reader(session);
    ChangesPage page;
    try {
      page = ChangesPage.parse(body);
    } catch (IOException e) {
      return "not a page of _changes: " + e.getMessage();
    }
    for (Change change : page.rows()) {
      Listener.DocumentId id = Listener.DocumentId.parse(change.id());
      if (id == null || id.writer() != 0 || id.seq() < 0 || id.seq() >= plan.catchup()) {
        reader.foreign++;
      } else if (reader.seen.get(id.seq())) {
        reader.duplicated++;
      } else {
        reader.seen.set(id.seq());
      }
    }
    reader.rows += page.rows().size();
    reader.pages++;
    reader.since = page.lastSeq();
    reader.done = page.rows().size() < plan.pageSize();
    return "read";
  }

  private Session pageEnded(Session session) {
    Reader reader = reader(session);
    pagesEnded.increment();
    if (session.isFailed()) {
      pagesFailed.increment();
      // The same page is asked again; a server that keeps refusing ends the reader, its documents missed.
      reader.done = ++reader.failuresInARow >= FAILURES_IN_A_ROW;
      return session.markAsSucceeded();
    }
    reader.failuresInARow = 0;
    pageMicros.recordValue((System.nanoTime() - reader.pageSent) / 1000);
    return session;
  }

  private void ended(Reader reader) {
    double seconds = (System.nanoTime() - reader.started) / 1e9;
    readers.add(new ChangesFigures.ReaderFigures(reader.number, reader.pages, reader.rows,
        plan.catchup() - reader.seen.cardinality(), reader.duplicated, reader.foreign, seconds));
  }

  /** @return the pages ended so far and the failed ones, for the console's progress line */
  Progress.Counts counts() {
    return new Progress.Counts(pagesEnded.sum(), pagesFailed.sum());
  }

  private static Reader reader(Session session) {
    return session.get(STATE);
  }

  /** @return the catch-up's figures, once its readers are done */
  ChangesFigures.CatchUpFigures figures() {
    List<ChangesFigures.ReaderFigures> byNumber = new ArrayList<>(readers);
    byNumber.sort((a, b) -> Integer.compare(a.reader(), b.reader()));
    return new ChangesFigures.CatchUpFigures(plan.catchup(), plan.pageSize(), fillSeconds, byNumber,
        Histograms.encode(pageMicros));
  }
}
