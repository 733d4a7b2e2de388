package couchbench.siege;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.rounds.Rounds;
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
 * What passes between CouchVsMemcache's steps: each round's four key files, which its write steps fill and its read
 * steps draw from, and its memcache fields stored; and the servers' figures taken at the boundaries of each round's
 * phases. A boundary is a step of its own, one user while no load runs; its work (HTTP, files) runs on a thread of its
 * own, never on Gatling's event loop, and the user waits for it without blocking, so the next step starts only after
 * it. With -Drounds=R, the rounds run one after the other, each its own write phase, then its own read phase of what
 * that write phase acknowledged.
 */
public final class VersusPhases {

  // The moments the servers' figures are taken at, in each round (named for it).
  static final String BEFORE_WRITES = "before the write phase";
  static final String AFTER_WRITES = "after the write phase";
  static final String AFTER_READS = "after the read phase";

  private static final String WORK = "boundary work";
  private static final Duration POLL = Duration.ofMillis(5);

  private final VersusPlan plan;
  private final Rounds rounds;
  private final CouchTarget couchdb;
  private final List<Round> eachRound;
  private final ServerFigures figures;
  private final ExecutorService boundaryWork = Executors.newSingleThreadExecutor(task -> {
    Thread thread = new Thread(task, "couchbench phase boundary");
    thread.setDaemon(true);
    return thread;
  });

  /** What one round's steps pass between them: its key files and its memcache fields stored. */
  public static final class Round {

    private final KeyHandoff memcacheKeys;
    private final KeyHandoff couchdbKeys;
    private final KeyHandoff memcacheRecords;
    private final KeyHandoff couchdbRecords;
    private final StoredFields memcacheFields;
    private final boolean records;

    private Round(VersusPlan plan, int round) {
      memcacheKeys = new KeyHandoff(MemcacheWorkloads.SET, KeyFile.at(plan.memcacheKeys(round)),
          MemcacheWorkloads::readKeys);
      couchdbKeys = new KeyHandoff(CouchWorkloads.SET, KeyFile.at(plan.couchdbKeys(round)), CouchWorkloads::readKeys);
      memcacheRecords = new KeyHandoff(MemcacheWorkloads.RECORD_WRITE, KeyFile.at(plan.memcacheRecordKeys(round)),
          MemcacheWorkloads::readKeys);
      couchdbRecords = new KeyHandoff(CouchWorkloads.RECORD_WRITE, KeyFile.at(plan.couchdbRecordKeys(round)),
          CouchWorkloads::readKeys);
      memcacheFields = new StoredFields(plan.fields(), memcacheRecords.written());
      records = plan.records();
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

    private List<KeyHandoff> handoffs() {
      return records
          ? List.of(memcacheKeys, couchdbKeys, memcacheRecords, couchdbRecords)
          : List.of(memcacheKeys, couchdbKeys);
    }

    private VersusSummary.Acknowledged acknowledged() {
      return new VersusSummary.Acknowledged(memcacheKeys.written().size(), couchdbKeys.written().size(),
          memcacheRecords.written().size(), couchdbRecords.written().size(), memcacheFields.storedCount());
    }
  }

  /**
   * @param plan fields, key folder, database, rounds
   * @param memcache the memcache servers
   * @param couchdb the CouchDB server
   */
  public VersusPhases(VersusPlan plan, MemcacheTarget memcache, CouchTarget couchdb) {
    this.plan = plan;
    this.rounds = plan.siege().rounds();
    this.couchdb = couchdb;
    eachRound = rounds.numbers().stream().map(round -> new Round(plan, round)).toList();
    figures = new ServerFigures(memcache, couchdb, plan.siege().database());
  }

  /**
   * @param round the round, 1 to R
   * @return what that round's steps pass between them
   */
  public Round round(int round) {
    return eachRound.get(round - 1);
  }

  /**
   * @param round the round, 1 to R
   * @return the step before the round's write phase: the servers' figures are taken, also as those after the
   *     previous round's read phase
   */
  public PopulationBuilder beforeWrites(int round) {
    return boundary(rounds.name("before the write phase: server figures", round), () -> {
      if (round > 1) {
        figures.take(rounds.name(AFTER_READS, round - 1));
      }
      figures.take(rounds.name(BEFORE_WRITES, round));
    });
  }

  /**
   * @param round the round, 1 to R
   * @return the step between the round's phases: its key files are written and read back, the servers' figures taken
   */
  public PopulationBuilder betweenPhases(int round) {
    return boundary(rounds.name("between the phases: key files, server figures", round), () -> {
      round(round).handoffs().forEach(KeyHandoff::handOver);
      figures.take(rounds.name(AFTER_WRITES, round));
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
   * After the load: the servers' figures, and the key files of a run stopped before a round's read phase.
   *
   * @return what the summary reports of the phases: the run's figures, for results.json
   */
  public VersusSummary.Phases finish() {
    boundaryWork.shutdown();
    figures.take(rounds.name(AFTER_READS, rounds.count()));
    eachRound.forEach(round -> round.handoffs().forEach(KeyHandoff::writeIfNotHandedOver));
    List<VersusSummary.Round> ended = rounds.numbers().stream().map(number -> {
      VersusSummary.Reading afterWrites = figures.at(rounds.name(AFTER_WRITES, number));
      return new VersusSummary.Round(
          round(number).handoffs().stream().flatMap(handoff -> handoff.describeRead().stream()).toList(),
          round(number).acknowledged(),
          new VersusSummary.Phase(figures.at(rounds.name(BEFORE_WRITES, number)), afterWrites),
          new VersusSummary.Phase(afterWrites, figures.at(rounds.name(AFTER_READS, number))));
    }).toList();
    return new VersusSummary.Phases(ended, figures.failures(), CouchHttp.loginWasRefused());
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
