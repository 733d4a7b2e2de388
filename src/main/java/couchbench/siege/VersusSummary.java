package couchbench.siege;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.resources.CouchResources;
import couchbench.resources.MemcacheResources;
import couchbench.resources.ResourceSnapshot;
import couchbench.results.RunLog;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After a CouchVsMemcache run: seed 000's siege table for the four operations, the same for whole
 * records, the servers' resource figures over each phase, and the servers' own counts against the
 * client's: a page built from the run's figures alone, written beside Gatling's report.
 */
public final class VersusSummary {

  private static final List<String> OPERATIONS =
      List.of(MemcacheWorkloads.SET, CouchWorkloads.SET, MemcacheWorkloads.GET, CouchWorkloads.GET);

  private static final List<String> RECORD_OPERATIONS = List.of(MemcacheWorkloads.RECORD_WRITE,
      CouchWorkloads.RECORD_WRITE, MemcacheWorkloads.RECORD_READ, MemcacheWorkloads.RECORD_MULTI_READ,
      CouchWorkloads.RECORD_READ);

  private VersusSummary() {}

  /**
   * What CouchVsMemcache's phases left for its summary, besides simulation.log.
   *
   * @param keysRead what each read step drew its keys from, e.g. "memcache set: all 1,200 keys of ..."
   * @param acknowledged what the client saw the servers acknowledge
   * @param beforeWrites the servers' figures before the write phase, if they could be read
   * @param afterWrites the same, between the phases
   * @param afterReads the same, after the read phase
   * @param figureFailures why figures are missing, one line per moment that failed
   * @param loginRefused whether CouchDB refused the login during the run
   */
  public record Phases(List<String> keysRead, Acknowledged acknowledged, Optional<ResourceSnapshot> beforeWrites,
      Optional<ResourceSnapshot> afterWrites, Optional<ResourceSnapshot> afterReads, List<String> figureFailures,
      boolean loginRefused) {}

  /**
   * What the servers acknowledged, as the client counted it.
   *
   * @param memcacheSets keys of the memcache set step
   * @param couchdbSets documents of the couchdb set step
   * @param memcacheRecords records whose F fields were all stored
   * @param couchdbRecords record documents stored
   * @param memcacheFields fields stored, in whole records or not
   */
  public record Acknowledged(long memcacheSets, long couchdbSets, long memcacheRecords, long couchdbRecords,
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

  /**
   * The summary page of a run, from its figures; give it to {@link couchbench.results.RunOutput#finish}.
   *
   * @param simulation the simulation's name, for the title: {@link couchbench.results.RunOutput#simulation}
   * @param plan the run's parameters
   * @param memcache the memcache servers
   * @param couchdb the CouchDB server
   * @param phases what the phases left, from {@link VersusPhases#finish}
   * @param log what the run's simulation.log says; empty when it could not be read
   * @return the page
   */
  public static SummaryPage page(String simulation, VersusPlan plan, MemcacheTarget memcache, CouchTarget couchdb,
      Phases phases, Optional<RunLog> log) {
    Map<String, SiegeFigures> requests = pick(log.map(run -> SiegeFigures.of(run.requests())), OPERATIONS);
    Map<String, SiegeFigures> records = pick(log.map(run -> SiegeFigures.of(run.groups())), RECORD_OPERATIONS);

    SummaryPage page = SummaryPage.titled(simulation + ": seed 000's siege runs, both systems in one run")
        .line("Targets: " + memcache.describe() + "; " + couchdb.describe()
            + ", database " + plan.siege().database() + ".")
        .line("Each step: " + plan.siege().describeLoad() + ", values of " + plan.siege().valueSize()
            + " bytes of random text. The steps run one after the other, so each system has the machine to"
            + " itself: " + String.join(", ", steps(plan)) + ".");
    if (!phases.keysRead().isEmpty()) {
      page = page.line("Keys read: each read step picks its keys at random from what the write steps acknowledged: "
          + String.join("; ", phases.keysRead()) + ".");
    }
    page = page.chart("transactions per second, per operation", VersusCharts.rates(requests, records));
    if (plan.records()) {
      page = page.chart("time to read a whole record", VersusCharts.recordReads(records, plan.fields()));
    }
    page = page.table("siege's figures, per operation", SiegeFigures.table(requests));
    if (plan.records()) {
      page = page.line("A record is " + plan.fields() + " fields of " + plan.siege().valueSize()
              + " bytes: one CouchDB document, or " + plan.fields() + " memcache keys. Each record operation is a"
              + " Gatling group, and a transaction is a whole record; its response time is the group's duration,"
              + " from entering the group to leaving it, as in Gatling's report: the time a user waits for a"
              + " whole record.")
          .table("siege's figures, per whole record", SiegeFigures.table("record operation", records));
    }
    page = resources(page, phases);
    page = counts(page, phases);
    if (phases.loginRefused()) {
      page = page.warning("CouchDB refused the login during the run, which stopped there.");
    }
    long failed = requests.values().stream().mapToLong(SiegeFigures::failed).sum()
        + records.values().stream().mapToLong(SiegeFigures::failed).sum();
    if (failed > 0) {
      page = page.warning(failed + " operations failed: see Gatling's report for the messages.");
    }
    return page;
  }

  private static List<String> steps(VersusPlan plan) {
    List<String> steps = new ArrayList<>();
    if (!plan.siege().warmup().isZero()) {
      steps.add("a warm-up of " + plan.siege().warmup().toSeconds() + " s (requests named \"" + SiegePlan.WARMUP
          + "...\", left out of these tables)");
    }
    steps.addAll(List.of(MemcacheWorkloads.SET, CouchWorkloads.SET));
    if (plan.records()) {
      steps.addAll(List.of(MemcacheWorkloads.RECORD_WRITE, CouchWorkloads.RECORD_WRITE));
    }
    steps.add("(key files written and read back)");
    steps.addAll(List.of(MemcacheWorkloads.GET, CouchWorkloads.GET));
    if (plan.records()) {
      steps.addAll(List.of(MemcacheWorkloads.RECORD_READ, MemcacheWorkloads.RECORD_MULTI_READ,
          CouchWorkloads.RECORD_READ));
    }
    return steps;
  }

  private static SummaryPage resources(SummaryPage page, Phases phases) {
    for (String failure : phases.figureFailures()) {
      page = page.warning(failure);
    }
    if (phases.beforeWrites().isPresent() && phases.afterWrites().isPresent()) {
      page = page.table("server figures over the write phase",
          ResourceSnapshot.table(phases.beforeWrites().get(), phases.afterWrites().get()));
    }
    if (phases.afterWrites().isPresent() && phases.afterReads().isPresent()) {
      page = page.table("server figures over the read phase",
          ResourceSnapshot.table(phases.afterWrites().get(), phases.afterReads().get()));
    }
    return page;
  }

  /**
   * The servers' counts against the client's: what the write phase acknowledged must be what the
   * servers gained, as long as nothing else wrote and memcache evicted nothing.
   */
  private static SummaryPage counts(SummaryPage page, Phases phases) {
    Optional<ResourceSnapshot> writes = phases.afterWrites()
        .flatMap(after -> phases.beforeWrites().map(after::minus));
    Optional<MemcacheResources.ItemsGained> items = writes.flatMap(MemcacheResources::itemsGained);
    Acknowledged acknowledged = phases.acknowledged();
    Map<String, Long> client = new LinkedHashMap<>();
    client.put("CouchDB documents written", acknowledged.couchdbDocuments());
    client.put("memcache items written", acknowledged.memcacheItems());
    Map<String, Optional<BigDecimal>> server = new LinkedHashMap<>();
    server.put("CouchDB documents written", writes.flatMap(delta -> delta.value(CouchResources.DOC_COUNT)));
    server.put("memcache items written", items.map(MemcacheResources.ItemsGained::value));
    Table table = Table.of("count", "client (acknowledged)", "server (gained in the write phase)", "agree");
    List<String> disagreements = new ArrayList<>();
    for (String name : client.keySet()) {
      Optional<BigDecimal> counted = server.get(name);
      String agree = counted.map(value -> value.compareTo(BigDecimal.valueOf(client.get(name))) == 0 ? "yes" : "NO")
          .orElse("n/a");
      table = table.row(name, client.get(name), counted.<Object>map(value -> value).orElse("n/a"), agree);
      if (agree.equals("NO")) {
        disagreements.add(name + ": the client saw " + client.get(name) + " acknowledged, the server gained "
            + counted.get() + ". Did something else write, or memcache evict (see evictions)?");
      }
    }
    String memcacheCounter = items.map(gained -> gained.counter().equals(MemcacheResources.CURR_ITEMS)
        ? "memcache's curr_items"
        : "memcache's cmd_set (its stats have no curr_items, as MemcacheDB 1.2's have not: cmd_set counts every set"
            + " received, so it agrees as long as each stored a new key)").orElse("memcache's curr_items (not offered)");
    return page.line("The client counts a memcache item per STORED reply (a set, or a field of a record, whole or"
            + " not) and a CouchDB document per 201/202 reply with ok; the server's counts are " + memcacheCounter
            + " and the database's doc_count. The key files hold exactly the acknowledged keys: "
            + acknowledged.memcacheSets() + " + " + acknowledged.couchdbSets() + " + " + acknowledged.memcacheRecords()
            + " + " + acknowledged.couchdbRecords() + " (memcache, couchdb, memcache records, couchdb records).")
        .table("the servers' counts against the client's", table)
        .warningsFirst(disagreements);
  }

  private static Map<String, SiegeFigures> pick(Optional<Map<String, SiegeFigures>> all, List<String> names) {
    Map<String, SiegeFigures> picked = new LinkedHashMap<>();
    all.ifPresent(figures -> names.stream().filter(figures::containsKey)
        .forEach(name -> picked.put(name, figures.get(name))));
    return picked;
  }
}
