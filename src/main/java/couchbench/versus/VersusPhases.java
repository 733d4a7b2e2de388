package couchbench.versus;

import couchbench.requests.MemcacheRequests;
import couchbench.requests.CouchRequests;
import couchbench.requests.StoredFields;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.startup.Console;
import couchbench.rounds.Rounds;
import couchbench.scaleout.Injector;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * What passes between CouchVsMemcache's steps: each round's four key files, which its write steps fill and its read
 * steps draw from, and its memcache fields stored; and the servers' figures taken at the boundaries of each round's
 * phases. A boundary is a step of its own: one user that does its work (HTTP, files) while no load runs, so the next
 * step starts only after it; a boundary whose work fails (a key file with no key to read) stops the run with one line.
 * With -Drounds=R, the rounds run one after the other, each its own write phase, then its own read phase of what that
 * write phase acknowledged.
 */
public final class VersusPhases {

  // The moments the servers' figures are taken at, in each round (named for it).
  static final String BEFORE_WRITES = "before the write phase";
  static final String AFTER_WRITES = "after the write phase";
  static final String AFTER_READS = "after the read phase";

  private static final String FAILURE = "boundary failure";

  private final VersusPlan plan;
  private final Rounds rounds;
  private final CouchTarget couchdb;
  private final List<Round> eachRound;
  private final ServerFigures figures;

  /** What one round's steps pass between them: its key files and its memcache fields stored. */
  public static final class Round {

    private final KeyHandoff memcacheKeys;
    private final KeyHandoff couchdbKeys;
    private final KeyHandoff memcacheRecords;
    private final KeyHandoff couchdbRecords;
    private final StoredFields memcacheFields;
    private final boolean records;

    private Round(VersusPlan plan, int round) {
      memcacheKeys = new KeyHandoff(MemcacheRequests.SET, KeyFile.at(plan.memcacheKeys(round)),
          MemcacheRequests::readKeys);
      couchdbKeys = new KeyHandoff(CouchRequests.SET, KeyFile.at(plan.couchdbKeys(round)), CouchRequests::readKeys);
      memcacheRecords = new KeyHandoff(MemcacheRequests.RECORD_WRITE, KeyFile.at(plan.memcacheRecordKeys(round)),
          MemcacheRequests::readKeys);
      couchdbRecords = new KeyHandoff(CouchRequests.RECORD_WRITE, KeyFile.at(plan.couchdbRecordKeys(round)),
          CouchRequests::readKeys);
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
      List<String> unusable = new ArrayList<>();
      for (KeyHandoff handoff : round(round).handoffs()) {
        try {
          handoff.handOver();
        } catch (KeyFileException e) {
          unusable.add(e.getMessage());
        }
      }
      figures.take(rounds.name(AFTER_WRITES, round));
      if (!unusable.isEmpty()) {
        throw new KeyFileException(String.join("; ", unusable) + ": the read phase would have nothing to read");
      }
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

  // One user, while no load runs: its work blocks the user's event loop, where nothing else is scheduled then (the
  // steps run one after the other). A failure of the work, e.g. a key file with no key to read, stops the run.
  private PopulationBuilder boundary(String name, Runnable work) {
    return scenario(name)
        .exec(session -> session.set(FAILURE, failureOf(work)))
        .stopLoadGeneratorIf(session -> session.getString(FAILURE), session -> !session.getString(FAILURE).isEmpty())
        .injectOpen(atOnceUsers(1));
  }

  private static String failureOf(Runnable work) {
    try {
      work.run();
      return "";
    } catch (KeyFileException e) {
      Console.say("stopped: " + e.getMessage());
      return e.getMessage();
    }
  }
}
