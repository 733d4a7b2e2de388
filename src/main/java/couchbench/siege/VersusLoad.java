package couchbench.siege;

import static couchbench.memcache.MemcacheDsl.memcache;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.data.Md5Keys;
import couchbench.scaleout.Injector;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * CouchVsMemcache's load: a write phase, then a read phase, each a sequence of steps that run one
 * after the other, so each system has the machine to itself while it is measured:
 * <ol>
 *   <li>a warm-up, its requests named "warm-up ..." and left out of the summary; then the servers'
 *       figures are taken;
 *   <li>writes: memcache set, couchdb set, then (F > 0) memcache record write, couchdb record write;
 *   <li>between the phases: the key files are written and read back, the servers' figures taken;
 *   <li>reads: memcache get, couchdb get, then memcache record read (F gets), memcache record
 *       multi-get read, couchdb record read, each from the key files of this run's writes.
 * </ol>
 * Every step is seed 000's siege shape: the plan's users, each sending back to back for the
 * plan's duration.
 */
public final class VersusLoad {


  // The moments the servers' figures are taken at.
  static final String BEFORE_WRITES = "before the write phase";
  static final String AFTER_WRITES = "after the write phase";
  static final String AFTER_READS = "after the read phase";

  private final VersusPlan plan;
  private final CouchTarget couchdb;
  private final KeyHandoff memcacheKeys;
  private final KeyHandoff couchdbKeys;
  private final KeyHandoff memcacheRecords;
  private final KeyHandoff couchdbRecords;
  private final StoredFields memcacheFields;
  private final ServerFigures figures;

  /**
   * @param plan users, duration per step, value size, fields, key folder, database
   * @param memcache the memcache servers
   * @param couchdb the CouchDB server
   */
  public VersusLoad(VersusPlan plan, MemcacheTarget memcache, CouchTarget couchdb) {
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

  /** @return every step, one after the other, for setUp */
  public PopulationBuilder population() {
    SiegePlan siege = plan.siege();
    List<PopulationBuilder> steps = new ArrayList<>();
    if (!siege.warmup().isZero()) {
      steps.add(siege.users("warm-up", warmUp()));
    }
    steps.add(boundary("before the write phase: server figures", () -> figures.take(BEFORE_WRITES)));
    steps.add(siege.memcacheUsers(MemcacheWorkloads.SET,
        siege.backToBack(MemcacheWorkloads.set(siege, memcacheKeys.written()))));
    steps.add(siege.users(CouchWorkloads.SET, CouchWorkloads.set(siege, couchdb, couchdbKeys.written())));
    if (plan.records()) {
      steps.add(siege.memcacheUsers(MemcacheWorkloads.RECORD_WRITE,
          MemcacheWorkloads.recordWrite(siege, memcacheFields)));
      steps.add(siege.users(CouchWorkloads.RECORD_WRITE,
          CouchWorkloads.recordWrite(siege, plan.fields(), couchdb, couchdbRecords.written())));
    }
    steps.add(boundary("between the phases: key files, server figures", this::betweenPhases));
    steps.add(memcacheReadStep(MemcacheWorkloads.GET, memcacheKeys,
        siege.backToBack(MemcacheWorkloads.get(memcacheKeys::keys))));
    steps.add(readStep(CouchWorkloads.GET, couchdbKeys, CouchWorkloads.get(siege, couchdb, couchdbKeys::keys)));
    if (plan.records()) {
      steps.add(memcacheReadStep(MemcacheWorkloads.RECORD_READ, memcacheRecords,
          MemcacheWorkloads.recordRead(siege, plan.fields(), memcacheRecords::keys)));
      steps.add(memcacheReadStep(MemcacheWorkloads.RECORD_MULTI_READ, memcacheRecords,
          MemcacheWorkloads.recordMultiRead(siege, plan.fields(), memcacheRecords::keys)));
      steps.add(readStep(CouchWorkloads.RECORD_READ, couchdbRecords,
          CouchWorkloads.recordRead(siege, plan.fields(), couchdb, couchdbRecords::keys)));
    }
    PopulationBuilder sequence = steps.get(steps.size() - 1);
    for (int i = steps.size() - 2; i >= 0; i--) {
      sequence = steps.get(i).andThen(sequence);
    }
    return sequence;
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

  /** After the load: the servers' figures, and the key files of a run stopped before its read phase. */
  public void finish() {
    figures.take(AFTER_READS);
    for (KeyHandoff handoff : handoffs()) {
      handoff.writeIfNotHandedOver();
    }
  }

  /** @return the plan */
  public VersusPlan plan() {
    return plan;
  }

  /** @return what each read step drew its keys from, e.g. "memcache set: all 1,200 keys of ..." */
  List<String> keysRead() {
    return handoffs().stream().flatMap(handoff -> handoff.describeRead().stream()).toList();
  }

  /** @return the servers' figures at the three moments */
  ServerFigures figures() {
    return figures;
  }

  /** @return what the client saw acknowledged: the four key files' sizes and the memcache fields stored */
  Acknowledged acknowledged() {
    return new Acknowledged(memcacheKeys.written().size(), couchdbKeys.written().size(),
        memcacheRecords.written().size(), couchdbRecords.written().size(), memcacheFields.storedCount());
  }

  /**
   * What the servers acknowledged, as the client counted it.
   *
   * @param memcacheSets keys of the memcache set step
   * @param couchdbSets documents of the couchdb set step
   * @param memcacheRecords records whose F fields were all stored
   * @param couchdbRecords record documents stored
   * @param memcacheFields fields stored, in whole records or not
   */
  record Acknowledged(long memcacheSets, long couchdbSets, long memcacheRecords, long couchdbRecords,
      long memcacheFields) {

    /** @return the items memcache should have gained in the write phase */
    long memcacheItems() {
      return memcacheSets + memcacheFields;
    }

    /** @return the documents CouchDB should have gained in the write phase */
    long couchdbDocuments() {
      return couchdbSets + couchdbRecords;
    }
  }

  private void betweenPhases() {
    for (KeyHandoff handoff : handoffs()) {
      handoff.handOver();
    }
    figures.take(AFTER_WRITES);
  }

  private List<KeyHandoff> handoffs() {
    return plan.records()
        ? List.of(memcacheKeys, couchdbKeys, memcacheRecords, couchdbRecords)
        : List.of(memcacheKeys, couchdbKeys);
  }

  /**
   * Every request path the steps use, for the warm-up's duration: memcache set, get and multi-get,
   * CouchDB PUT and GET, each under a name of its own.
   */
  private ChainBuilder warmUp() {
    String doc = "/" + plan.siege().database() + "/#{key}";
    return during(plan.siege().warmup()).on(
        exec(session -> session.set(KeyFile.HEADER, "warm-up-" + Md5Keys.random())),
        exec(memcache(SiegePlan.WARMUP + "memcache set").set("#{key}", "warm")),
        exec(memcache(SiegePlan.WARMUP + "memcache get").get("#{key}", "#{key}")),
        CouchHttp.stopOnRefusal(couchdb,
            http(SiegePlan.WARMUP + "couchdb put").put(doc).body(StringBody("{}")).check(status().in(201, 202))),
        CouchHttp.stopOnRefusal(couchdb, http(SiegePlan.WARMUP + "couchdb get").get(doc).check(status().is(200))));
  }

  // One user doing something between two steps, while no load runs.
  private static PopulationBuilder boundary(String name, Runnable action) {
    return scenario(name)
        .exec(session -> {
          action.run();
          return session;
        })
        .injectOpen(atOnceUsers(1));
  }

  // A read step whose key file came out empty has nothing to read: its users end at once.
  private PopulationBuilder readStep(String name, KeyHandoff keys, ChainBuilder chain) {
    return plan.siege().users(name, doIf(session -> keys.ready()).then(chain));
  }

  private PopulationBuilder memcacheReadStep(String name, KeyHandoff keys, ChainBuilder chain) {
    return plan.siege().memcacheUsers(name, doIf(session -> keys.ready()).then(chain));
  }
}
