package couchbench.attachment;

import static io.gatling.javaapi.core.CoreDsl.RawFileBody;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.http.HttpDsl.RawFileBodyPart;
import static io.gatling.javaapi.http.HttpDsl.StringBodyPart;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.attachment.AttachmentData.SizeFiles;
import couchbench.attachment.AttachmentPlan.Upload;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchHttp;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The named chains of AttachmentUpload's one virtual user, which sends the plan's uploads one after
 * the other (a timing experiment, not a concurrency one). Every body is streamed from the
 * generated files by Gatling's HTTP client, its length known in advance. Each upload is timed
 * alone, then read back under its own request name ({@code verify raw 10^6}) and counted only if
 * CouchDB reports the source file's length and digest. A failed upload (a refusal such as 413, a
 * closed connection) is reported once, and the rest of that method's uploads at that size in that round are
 * skipped; the run goes on. The uploads past {@code repeat} run only while their figure rests on less than the
 * step-length rule.
 */
public final class AttachmentChains {

  private static final String STATUS = "attachmentStatus";
  private static final String VERDICT = "attachmentVerdict";
  private static final String READ_BACK = "attachmentReadBack";
  private static final String REV = "attachmentRev";
  private static final String IDS = "attachmentIds";
  private static final String STARTED = "attachmentStarted";
  private static final String SECONDS = "attachmentSeconds";

  private static final String NO_REPLY =
      "no reply (Gatling's error says why: the connection closed, reset or refused, or a timeout)";

  private final AttachmentPlan plan;
  private final CouchTarget target;
  private final Map<Integer, SizeFiles> files;
  private final UploadTally tally;

  /**
   * The chains of a plan's uploads against a target.
   *
   * @param plan the uploads
   * @param target the CouchDB server
   * @param files the prepared files of every size of the plan
   */
  public AttachmentChains(AttachmentPlan plan, CouchTarget target, List<SizeFiles> files) {
    this.plan = plan;
    this.target = target;
    this.files = files.stream().collect(Collectors.toMap(SizeFiles::exponent, Function.identity()));
    this.tally = new UploadTally(plan);
  }

  /**
   * Says which size starts, and what runs at it.
   *
   * @param exponent the size is 10^exponent bytes
   * @param round the round, 1 to rounds
   * @return the chain
   */
  public ChainBuilder sizeStarts(int exponent, int round) {
    String announcement = (plan.rounds().repeated() ? "round " + round + ", " : "")
        + "size " + AttachmentPlan.sizeName(exponent) + " bytes: "
        + plan.methods(exponent).stream().map(AttachmentMethod::label).collect(Collectors.joining(", "))
        + ", " + plan.repeat() + (plan.mostUploads() > plan.repeat() ? " to " + plan.mostUploads() : "")
        + " time(s) each";
    return exec(session -> {
      Console.say(announcement);
      return session;
    });
  }

  /**
   * Creates the run's database, fresh; a refused login stops here, after one request.
   *
   * @param client the setup client
   */
  public void createDatabase(CouchDbClient client) {
    client.createDatabase(plan.database());
  }

  /**
   * Deletes the run's database unless the plan keeps it; a failure here is reported, not thrown,
   * so that the run's results are still written.
   *
   * @param client the setup client
   */
  public void dropDatabase(CouchDbClient client) {
    if (plan.keep()) {
      Console.say("the database " + plan.database() + " was left in place");
      return;
    }
    try {
      client.deleteDatabase(plan.database());
    } catch (CouchDbException e) {
      Console.say("could not delete the database " + plan.database() + ": " + e.getMessage());
    }
  }

  /** @return what the uploads did */
  public UploadTally tally() {
    return tally;
  }

  /**
   * One upload: (raw only: its document, not timed) the upload, timed, then its read-back (not timed), which
   * counts it if the attachment is intact; skipped once an upload of the same method and size failed in this round,
   * and, past repeat, once the figure rests on enough by the step-length rule.
   *
   * @param upload the upload
   * @return the chain
   */
  public ChainBuilder upload(Upload upload) {
    UploadTally.Key key = UploadTally.Key.of(upload);
    SizeFiles size = files.get(upload.exponent());
    String name = plan.requestName(upload);
    ChainBuilder timed =
        exec(session -> {
              Session fresh = session.markAsSucceeded().remove(IDS).remove(VERDICT).remove(READ_BACK);
              return fresh.set(STARTED, System.nanoTime());
            })
            .exec(CouchHttp.stopOnRefusal(target, request(upload, size, name)))
            .exec(session -> session.set(SECONDS, (System.nanoTime() - session.getLong(STARTED)) / 1e9));
    ChainBuilder verified =
        exec(CouchHttp.stopOnRefusal(target, verify(upload, size)))
            .exec(session -> {
              if (!session.isFailed()) {
                tally.verified(key, session.getDouble(SECONDS));
              } else if (session.contains(READ_BACK) && !UploadReplies.INTACT.equals(session.getString(READ_BACK))) {
                report(upload, "read back: " + session.getString(READ_BACK));
              } else {
                report(upload, "read back: no reply, or a status other than 200 (see Gatling's report)");
              }
              return session;
            });
    ChainBuilder counted =
        timed.exec(session -> {
              if (session.isFailed()) {
                report(upload, session.contains(VERDICT) ? session.getString(VERDICT) : NO_REPLY);
              }
              return session;
            })
            .doIf(session -> !session.isFailed())
            .then(verified);
    if (upload.method() == AttachmentMethod.RAW) {
      counted = createDoc(upload, name)
          .doIfOrElse(session -> !session.isFailed())
          .then(counted)
          .orElse(exec(session -> {
            report(upload, "creating its document failed (see Gatling's report)");
            return session;
          }));
    }
    return doIf(session -> !tally.failed(key) && !CouchHttp.loginWasRefused()
        && !(upload.whileShort() && tally.figures(key).restsOnEnough())).then(counted);
  }

  /** Counts a failure of the upload and says so. */
  private void report(Upload upload, String message) {
    tally.fail(UploadTally.Key.of(upload), message);
    Console.say(plan.requestName(upload) + " failed: " + message
        + (upload.repetition() < plan.mostUploads() ? "; its other uploads at this size are skipped" : ""));
  }

  /** The raw method's document, created before the timed attachment upload. */
  private ChainBuilder createDoc(Upload upload, String name) {
    return exec(session -> session.markAsSucceeded())
        .exec(CouchHttp.stopOnRefusal(target,
            http("create doc " + name)
                .put(docPath(upload))
                .body(StringBody("{}"))
                .check(status().in(201, 202), jsonPath("$.rev").saveAs(REV))));
  }

  private HttpRequestActionBuilder request(Upload upload, SizeFiles size, String name) {
    AttachmentFile attachment = size.attachment();
    HttpRequestActionBuilder request =
        switch (upload.method()) {
          case RAW -> http(name)
              .put(docPath(upload) + "/" + AttachmentBodies.NAME + "?rev=#{" + REV + "}")
              .header("Content-Type", AttachmentBodies.CONTENT_TYPE)
              .body(RawFileBody(attachment.path().toAbsolutePath().toString()));
          case BASE64 -> http(name)
              .put(docPath(upload))
              .body(RawFileBody(size.inlineBody().path().toAbsolutePath().toString()));
          case MULTIPART -> http(name)
              .put(docPath(upload))
              .header("Content-Type", AttachmentBodies.MULTIPART_TYPE)
              .bodyPart(StringBodyPart("doc", AttachmentBodies.multipartJson(upload.docId(), attachment.length()))
                  .contentType("application/json"))
              .bodyPart(RawFileBodyPart(AttachmentBodies.NAME, attachment.path().toAbsolutePath().toString())
                  .contentType(AttachmentBodies.CONTENT_TYPE)
                  .dispositionType("attachment")
                  .fileName(AttachmentBodies.NAME));
          case BULK -> http(name)
              .post("/" + plan.database() + "/_bulk_docs")
              .body(RawFileBody(size.bulkBody().orElseThrow().path().toAbsolutePath().toString()));
        };
    boolean bulk = upload.method() == AttachmentMethod.BULK;
    int docs = bulk ? plan.bulkDocs() : 1;
    request = request
        .requestTimeout(plan.timeout())
        .check(status().saveAs(STATUS),
            verdict(VERDICT, (bytes, session) -> UploadReplies.upload(session.getInt(STATUS), bytes, docs)),
            is(VERDICT, UploadReplies.STORED, "upload reply"));
    // After the reply's verdict, so that a refused request fails with the verdict, not "ids not found".
    return bulk ? request.check(jsonPath("$[*].id").findAll().saveAs(IDS)) : request;
  }

  /** The verdict on the reply, saved by a check of its own (Gatling saves a value only when its check passes). */
  private static CheckBuilder verdict(String key, BiFunction<byte[], Session, String> verdict) {
    return bodyBytes().transformWithSession(verdict).saveAs(key);
  }

  /** Judges the verdict the check before saved: later checks see what earlier ones saved. */
  private static CheckBuilder is(String key, String expected, String checkName) {
    return bodyBytes()
        .transformWithSession((bytes, session) -> session.getString(key))
        .is(expected)
        // Gatling leaves a body check's actual value out of its message; this one is a short verdict.
        .logActualValueInError(true)
        .name(checkName);
  }

  private HttpRequestActionBuilder verify(Upload upload, SizeFiles size) {
    String name = plan.verifyName(upload);
    AttachmentFile source = size.attachment();
    if (upload.method() == AttachmentMethod.BULK) {
      return http(name)
          .post("/" + plan.database() + "/_all_docs?include_docs=true")
          .body(StringBody(session -> UploadReplies.keys(session.getList(IDS))))
          .check(status().is(200),
              verdict(READ_BACK, (bytes, session) -> UploadReplies.documents(bytes, source, plan.bulkDocs())),
              is(READ_BACK, UploadReplies.INTACT, "stored attachments"));
    }
    return http(name)
        .get(docPath(upload))
        .check(status().is(200),
            verdict(READ_BACK, (bytes, session) -> UploadReplies.document(bytes, source)),
            is(READ_BACK, UploadReplies.INTACT, "stored attachment"));
  }

  private String docPath(Upload upload) {
    return "/" + plan.database() + "/" + upload.docId();
  }
}
