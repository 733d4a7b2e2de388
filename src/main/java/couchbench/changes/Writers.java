package couchbench.changes;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchHttp;
import couchbench.gatling.Pacing;
import couchbench.ledger.WriteLedger;
import couchbench.results.Histograms;
import couchbench.results.LiveRoute;
import couchbench.results.Progress;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The writers: each a virtual user writing its documents, one request after the other, each request at its intended
 * time (the run's rate spread evenly over the writers), timed from it and from when it was sent. They start once every
 * listener's feed is open. Each document says who wrote it and when; its acknowledgement goes into the ledger the
 * moment the reply is checked, a row of _bulk_docs at a time.
 */
final class Writers {

  private static final String STATE = "changes.writer";
  private static final Duration LISTENERS_WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChangesPlan plan;
  private final CouchTarget target;
  private final WriteLedger ledger;
  private final BooleanSupplier listenersReady;
  private final Visibility visibility;
  private final List<String> databases;
  private final AtomicInteger writerNumbers = new AtomicInteger();
  private final AtomicLong scheduleStart = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong lastAck = new AtomicLong(Long.MIN_VALUE);
  private final Histogram intendedMicros = new ConcurrentHistogram(3);
  private final Histogram actualMicros = new ConcurrentHistogram(3);
  private final LongAdder late = new LongAdder();
  private final LongAdder requestsEnded = new LongAdder();
  private final LongAdder requestsFailed = new LongAdder();
  private final long intervalNanos;

  /** One writer's state, on its virtual user's thread. */
  private static final class Writer {
    final int number;
    final int node;
    final long created = System.nanoTime();
    int next;
    int first;
    int count;
    long intendedStart;
    long actualStart;

    Writer(int number, int node) {
      this.number = number;
      this.node = node;
    }
  }

  /**
   * @param plan the run's plan
   * @param target the CouchDB server
   * @param ledger where acknowledgements go
   * @param listenersReady whether every listener's feed is open
   * @param visibility where each acknowledgement and failure goes with -Dvisibility=nodes; null without
   */
  Writers(ChangesPlan plan, CouchTarget target, WriteLedger ledger, BooleanSupplier listenersReady,
      Visibility visibility) {
    this.plan = plan;
    this.target = target;
    this.ledger = ledger;
    this.listenersReady = listenersReady;
    this.visibility = visibility;
    this.databases = plan.databaseNames();
    this.intervalNanos = (long) (1e9 * plan.batch() * plan.writers() / plan.rate());
  }

  /**
   * @param node the node its requests go to, from 0: its scenario's protocol's (with -Dvisibility=nodes); 0 when
   *     Gatling spreads the writers over the nodes
   * @return a writer's whole life: wait for the listeners, write its documents at its pace, say it is done
   */
  ChainBuilder write(int node) {
    return exec(session -> session.set(STATE, new Writer(writerNumbers.getAndIncrement(), node)))
        .asLongAs(session -> !listenersReady.getAsBoolean()
            && System.nanoTime() - writer(session).created < LISTENERS_WAIT.toNanos()).on(pause(Duration.ofMillis(50)))
        .exec(session -> {
          if (scheduleStart.compareAndSet(Long.MIN_VALUE, System.nanoTime()) && !listenersReady.getAsBoolean()) {
            Console.say("changes: not every listener's feed opened in " + LISTENERS_WAIT.toSeconds() + " s: the"
                + " writers start anyway");
          }
          return session;
        })
        .asLongAs(session -> writer(session).next < plan.documents()).on(exec(this::claim)
            .exec(Pacing.untilIntendedStart(session -> writer(session).intendedStart))
            .exec(this::sent)
            .exec(CouchHttp.stopOnRefusal(target, request()))
            .exec(this::ended))
        .exec(session -> {
          ledger.writerDone();
          return session;
        });
  }

  private Session claim(Session session) {
    Writer writer = writer(session);
    writer.first = writer.next;
    writer.count = Math.min(plan.batch(), plan.documents() - writer.first);
    writer.next += writer.count;
    long request = writer.first / plan.batch();
    writer.intendedStart = scheduleStart.get() + intervalNanos * writer.number / plan.writers()
        + intervalNanos * request;
    return session;
  }

  private Session sent(Session session) {
    Writer writer = writer(session);
    writer.actualStart = System.nanoTime();
    for (int seq = writer.first; seq < writer.first + writer.count; seq++) {
      ledger.sent(writer.number, seq, writer.actualStart);
    }
    return session;
  }

  private String requestName() {
    return plan.batch() == 1 ? "write" : "write _bulk_docs";
  }

  private HttpRequestActionBuilder request() {
    if (plan.batch() == 1) {
      return http(requestName()).put(session -> path(writer(session)) + "/" + ChangesPlan.id(writer(session).number,
              writer(session).first))
          .body(StringBody(session -> document(writer(session).number, writer(session).first, false)))
          .check(status().transformWithSession((status, session) -> {
            if (status == 201 || status == 202) {
              ledger.acknowledged(writer(session).number, writer(session).first, System.nanoTime());
            }
            return status;
          }).in(201, 202), bodyBytes().transformWithSession(this::revisionWritten).is("read")
              .name("revision written"));
    }
    return http(requestName()).post(session -> path(writer(session)) + "/_bulk_docs")
        .body(StringBody(session -> {
          Writer writer = writer(session);
          StringBuilder docs = new StringBuilder("{\"docs\":[");
          for (int seq = writer.first; seq < writer.first + writer.count; seq++) {
            docs.append(seq == writer.first ? "" : ",").append(document(writer.number, seq, true));
          }
          return docs.append("]}").toString();
        }))
        .check(status().in(201, 202), bodyBytes().transformWithSession(this::bulkRowsRefused).is(0)
            .name("_bulk_docs rows refused"));
  }

  // The revision a PUT created, for the readers of -Dvisibility=nodes.
  private String revisionWritten(byte[] body, Session session) {
    Writer writer = writer(session);
    if (visibility != null && ledger.isAcknowledged(writer.number, writer.first)) {
      try {
        visibility.acknowledged(writer.number, writer.first, JSON.readTree(body).path("rev").asText(""),
            writer.node, ledger.acknowledgedAt(writer.number, writer.first));
      } catch (IOException e) {
        return "not JSON";
      }
    }
    return "read";
  }

  private String path(Writer writer) {
    return "/" + databases.get(plan.databaseOf(writer.first));
  }

  // Who wrote it and when, and its kind for the _selector filter; the time is the wall clock's, for a reader of the
  // database: the run's figures use the ledger.
  private String document(int writer, int seq, boolean withId) {
    return (withId ? "{\"_id\":\"" + ChangesPlan.id(writer, seq) + "\"," : "{") + "\"writer\":" + writer
        + ",\"seq\":" + seq + ",\"kind\":\"" + (plan.even(seq) ? "even" : "odd") + "\",\"sentMillis\":"
        + System.currentTimeMillis() + "}";
  }

  // Each row with its rev is acknowledged now; the count of the others is checked to be 0.
  private int bulkRowsRefused(byte[] body, Session session) {
    long now = System.nanoTime();
    Writer writer = writer(session);
    int refused = writer.count;
    try {
      for (JsonNode row : JSON.readTree(body)) {
        Listener.DocumentId id = Listener.DocumentId.parse(row.path("id").asText(""));
        if (row.hasNonNull("rev") && !row.has("error") && id != null && id.writer() == writer.number
            && id.seq() >= writer.first && id.seq() < writer.first + writer.count) {
          ledger.acknowledged(id.writer(), id.seq(), now);
          if (visibility != null) {
            visibility.acknowledged(id.writer(), id.seq(), row.path("rev").asText(), writer.node, now);
          }
          refused--;
        }
      }
    } catch (IOException e) {
      return refused;
    }
    return refused;
  }

  private Session ended(Session session) {
    long end = System.nanoTime();
    Writer writer = writer(session);
    boolean allAcknowledged = true;
    for (int seq = writer.first; seq < writer.first + writer.count; seq++) {
      if (!ledger.isAcknowledged(writer.number, seq)) {
        ledger.failed(writer.number, seq);
        allAcknowledged = false;
      }
    }
    if (allAcknowledged) {
      intendedMicros.recordValue(Math.max(0, end - writer.intendedStart) / 1000);
      actualMicros.recordValue((end - writer.actualStart) / 1000);
      lastAck.accumulateAndGet(end, Math::max);
    }
    // Live metrics time each write from its intended start too, under its request's name, as the page does.
    LiveRoute.current().intendedTime(requestName(), allAcknowledged,
        Math.max(0, end - writer.intendedStart));
    requestsEnded.increment();
    if (!allAcknowledged) {
      requestsFailed.increment();
      if (visibility != null) {
        visibility.failed(writer.node);
      }
    }
    if (writer.actualStart - writer.intendedStart > Pacing.LATE_NANOS) {
      late.increment();
    }
    return session.markAsSucceeded();
  }

  private static Writer writer(Session session) {
    return session.get(STATE);
  }

  /** @return the writers' figures, once they are done */
  ChangesFigures.WriteFigures figures() {
    long start = scheduleStart.get();
    double seconds = start == Long.MIN_VALUE || lastAck.get() == Long.MIN_VALUE ? 0 : (lastAck.get() - start) / 1e9;
    return new ChangesFigures.WriteFigures(plan.totalDocuments(), ledger.acknowledgedCount(), ledger.failedCount(),
        seconds, late.sum(), Histograms.encode(intendedMicros), Histograms.encode(actualMicros));
  }

  /** @return the write requests ended so far, and those not wholly acknowledged */
  Progress.Counts counts() {
    return new Progress.Counts(requestsEnded.sum(), requestsFailed.sum());
  }
}
