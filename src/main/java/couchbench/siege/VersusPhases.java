package couchbench.siege;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.scaleout.Injector;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What passes between CouchVsMemcache's steps: the four key files the write steps fill and the read steps draw
 * from, the memcache fields stored, and the servers' figures taken at the boundaries of the phases. A boundary is a
 * step of its own, one user while no load runs; its work (HTTP, files) runs on a thread of its own, never on
 * Gatling's event loop, and the user waits for it without blocking, so the next step starts only after it.
 */
public final class VersusPhases {

  // The moments the servers' figures are taken at.
  static final String BEFORE_WRITES = "before the write phase";
  static final String AFTER_WRITES = "after the write phase";
  static final String AFTER_READS = "after the read phase";

  private static final String WORK = "boundary work";
  private static final Duration POLL = Duration.ofMillis(5);

  private final VersusPlan plan;
  private final CouchTarget couchdb;
  private final KeyHandoff memcacheKeys;
  private final KeyHandoff couchdbKeys;
  private final KeyHandoff memcacheRecords;
  private final KeyHandoff couchdbRecords;
  private final StoredFields memcacheFields;
  private final ServerFigures figures;
  private final ExecutorService boundaryWork = Executors.newSingleThreadExecutor(task -> {
    Thread thread = new Thread(task, "couchbench phase boundary");
    thread.setDaemon(true);
    return thread;
  });

  /**
   * @param plan fields, key folder, database
   * @param memcache the memcache servers
   * @param couchdb the CouchDB server
   */
  public VersusPhases(VersusPlan plan, MemcacheTarget memcache, CouchTarget couchdb) {
    this.plan = plan;
    this.couchdb = couchdb;
    memcacheKeys = new KeyHandoff(MemcacheWorkloads.SET, KeyFile.at(plan.memcacheKeys()), MemcacheWorkloads::readKeys);
    couchdbKeys = new KeyHandoff(CouchWorkloads.SET, KeyFile.at(plan.couchdbKeys()), CouchWorkloads::readKeys);
    memcacheRecords = new KeyHandoff(MemcacheWorkloads.RECORD_WRITE, KeyFile.at(plan.memcacheRecordKeys()),
        MemcacheWorkloads::readKeys);
    couchdbRecords = new KeyHandoff(CouchWorkloads.RECORD_WRITE, KeyFile.at(plan.couchdbRecordKeys()),
        CouchWorkloads::readKeys);
    memcacheFields = new StoredFields(plan.fields(), memcacheRecords.written());
    figures = new ServerFigures(memcache, couchdb, plan.siege().database());
  }

  /** @return the memcache set step's keys: filled by it, read back by the memcache get step */
  public KeyHandoff memcacheKeys() {
    return memcacheKeys;
  }

  /** @return the couchdb set step's ids: filled by it, read back by the couchdb get step */
  public KeyHandoff couchdbKeys() {
    return couchdbKeys;
  }

  /** @return the memcache record write step's records: filled through {@link #memcacheFields}, read back twice */
  public KeyHandoff memcacheRecords() {
    return memcacheRecords;
  }

  /** @return the couchdb record write step's records */
  public KeyHandoff couchdbRecords() {
    return couchdbRecords;
  }

  /** @return where the memcache record write step counts its STORED fields */
  public StoredFields memcacheFields() {
    return memcacheFields;
  }

  /** @return the step before the write phase: the servers' figures are taken */
  public PopulationBuilder beforeWrites() {
    return boundary("before the write phase: server figures", () -> figures.take(BEFORE_WRITES));
  }

  /** @return the step between the phases: the key files are written and read back, the servers' figures taken */
  public PopulationBuilder betweenPhases() {
    return boundary("between the phases: key files, server figures", () -> {
      handoffs().forEach(KeyHandoff::handOver);
      figures.take(AFTER_WRITES);
    });
  }

  /**
   * Before the load: the database exists (created by injector 0 of several, the others wait for it).
   *
   * @param injector this injector
   * @throws couchbench.couchdb.CouchDbException when the database cannot be created
   */
  public void prepare(Injector injector) {
    CouchDbClient client = new CouchDbClient(couchdb);
    String database = plan.siege().database();
    injector.setUpOnce("database " + database, () -> client.ensureDatabase(database),
        () -> client.databaseExists(database));
  }

  /**
   * After the load: the servers' figures, and the key files of a run stopped before its read phase.
   *
   * @return what the summary reports of the phases
   */
  public VersusSummary.Phases finish() {
    boundaryWork.shutdown();
    figures.take(AFTER_READS);
    handoffs().forEach(KeyHandoff::writeIfNotHandedOver);
    return new VersusSummary.Phases(handoffs().stream().flatMap(handoff -> handoff.describeRead().stream()).toList(),
        new VersusSummary.Acknowledged(memcacheKeys.written().size(), couchdbKeys.written().size(),
            memcacheRecords.written().size(), couchdbRecords.written().size(), memcacheFields.storedCount()),
        figures.at(BEFORE_WRITES), figures.at(AFTER_WRITES), figures.at(AFTER_READS), figures.failures(),
        CouchHttp.loginWasRefused());
  }

  private List<KeyHandoff> handoffs() {
    return plan.records()
        ? List.of(memcacheKeys, couchdbKeys, memcacheRecords, couchdbRecords)
        : List.of(memcacheKeys, couchdbKeys);
  }

  // One user, while no load runs: hands the work to the boundary thread, waits without blocking, then rethrows
  // what the work threw (join returns at once: the work is done), as if the user had done it itself.
  private PopulationBuilder boundary(String name, Runnable work) {
    return scenario(name)
        .exec(session -> session.set(WORK, CompletableFuture.runAsync(work, boundaryWork)))
        .asLongAs(session -> !session.<CompletableFuture<?>>get(WORK).isDone()).on(pause(POLL))
        .exec(session -> {
          session.<CompletableFuture<?>>get(WORK).join();
          return session.remove(WORK);
        })
        .injectOpen(atOnceUsers(1));
  }
}
