package couchbench.versus;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.requests.CouchRequests;
import couchbench.requests.MemcacheRequests;
import couchbench.resources.CouchResources;
import couchbench.resources.MemcacheResources;
import couchbench.resources.ResourceSnapshot;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.rounds.Rounds;
import couchbench.scaleout.InjectorShare;
import couchbench.siege.ShortSteps;
import couchbench.siege.SiegeFigures;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeRounds;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * After a CouchVsMemcache run: seed 000's siege table for the four operations, the same for whole
 * records, the servers' resource figures over each phase, and the servers' own counts against the
 * client's: a page built from the run's results and its phases' figures alone, written beside Gatling's report; for
 * the merged run of several injectors, the same page of their added-up results and merged phases.
 */
public final class VersusSummary implements Summary<VersusSummary.Phases> {

  private static final List<String> OPERATIONS =
      List.of(MemcacheRequests.SET, CouchRequests.SET, MemcacheRequests.GET, CouchRequests.GET);

  private static final List<String> RECORD_OPERATIONS = List.of(MemcacheRequests.RECORD_WRITE,
      CouchRequests.RECORD_WRITE, MemcacheRequests.RECORD_READ, MemcacheRequests.RECORD_MULTI_READ,
      CouchRequests.RECORD_READ);

  private final String simulation;
  private final VersusPlan plan;

  /**
   * What CouchVsMemcache's phases left for its summary, besides the entries: its figures in results.json.
   *
   * @param rounds what each round's phases left, round 1 first
   * @param figureFailures why figures are missing, one line per moment that failed
   * @param loginRefused whether CouchDB refused the login during the run
   */
  public record Phases(List<Round> rounds, List<String> figureFailures, boolean loginRefused) {}

  /**
   * What one round's phases left.
   *
   * @param keysRead what each read step drew its keys from, e.g. "memcache set: all 1,200 keys of ..."
   * @param acknowledged what the client saw the servers acknowledge
   * @param writes the servers' figures around the write phase
   * @param reads the servers' figures around the read phase (its before is the write phase's after, in one run)
   */
  public record Round(List<String> keysRead, Acknowledged acknowledged, Phase writes, Phase reads) {}

  /**
   * The servers' figures around one phase.
   *
   * @param before taken before it; null when they could not be read
   * @param after taken after it; null when they could not be read
   */
  public record Phase(Reading before, Reading after) {}

  /**
   * The servers' figures at one moment ({@link ResourceSnapshot}), as results.json holds them.
   *
   * @param epochMillis when they were taken, by this machine's wall clock
   * @param figures value by figure name, in the order they are shown; null where the server does not offer it
   */
  public record Reading(long epochMillis, Map<String, BigDecimal> figures) {

    /**
     * @param snapshot the figures
     * @param epochMillis when they were taken
     * @return them as results.json holds them
     */
    static Reading of(ResourceSnapshot snapshot, long epochMillis) {
      Map<String, BigDecimal> figures = new LinkedHashMap<>();
      snapshot.figures().forEach((name, value) -> figures.put(name, value.orElse(null)));
      return new Reading(epochMillis, figures);
    }

    /** @return the figures as a snapshot */
    ResourceSnapshot snapshot() {
      Map<String, Optional<BigDecimal>> values = new LinkedHashMap<>();
      figures.forEach((name, value) -> values.put(name, Optional.ofNullable(value)));
      return new ResourceSnapshot(values);
    }

    /**
     * Its {@link ResourceSnapshot#CLOCK}, a JVM's own, set to the wall clock instead, to the millisecond: a merged
     * phase may begin with one injector's reading and end with another's.
     */
    private Reading onWallClock() {
      Map<String, BigDecimal> onWall = new LinkedHashMap<>(figures);
      onWall.computeIfPresent(ResourceSnapshot.CLOCK, (name, clock) -> BigDecimal.valueOf(epochMillis, 3));
      return new Reading(epochMillis, onWall);
    }
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

    private Acknowledged plus(Acknowledged other) {
      return new Acknowledged(memcacheSets + other.memcacheSets, couchdbSets + other.couchdbSets,
          memcacheRecords + other.memcacheRecords, couchdbRecords + other.couchdbRecords,
          memcacheFields + other.memcacheFields);
    }
  }

  private VersusSummary(String simulation, VersusPlan plan) {
    this.simulation = simulation;
    this.plan = plan;
  }

  /**
   * @param simulation the simulation's name, for the title: {@link couchbench.results.RunOutput#simulation}
   * @param plan the run's parameters: the live plan of a run, the whole run's for a merged one
   * @return the summary; give it to {@link couchbench.results.RunOutput#finish}
   */
  public static VersusSummary of(String simulation, VersusPlan plan) {
    return new VersusSummary(simulation, plan);
  }

  @Override
  public Class<Phases> figuresType() {
    return Phases.class;
  }

  /**
   * Counts acknowledged add up; the servers' figures, of the same servers, are taken once per phase: the earliest
   * injector's reading before it and the latest injector's after it, on the wall clock; the keys read and the figures'
   * failures are every injector's, each line prefixed by its injector.
   */
  @Override
  public Phases merge(List<Phases> injectors) {
    List<Round> rounds = new ArrayList<>();
    for (int r = 0; r < injectors.get(0).rounds().size(); r++) {
      int round = r;
      List<Round> each = injectors.stream().map(phases -> phases.rounds().get(round)).toList();
      rounds.add(new Round(InjectorShare.prefixed(each.stream().map(Round::keysRead).toList()),
          each.stream().map(Round::acknowledged).reduce(Acknowledged::plus).orElseThrow(),
          merged(each.stream().map(Round::writes).toList()), merged(each.stream().map(Round::reads).toList())));
    }
    return new Phases(rounds, InjectorShare.prefixed(injectors.stream().map(Phases::figureFailures).toList()),
        injectors.stream().anyMatch(Phases::loginRefused));
  }

  /** A phase of all injectors: from the earliest reading before it to the latest after it. */
  private static Phase merged(List<Phase> injectors) {
    Comparator<Reading> taken = Comparator.comparingLong(Reading::epochMillis);
    return new Phase(
        injectors.stream().map(Phase::before).filter(Objects::nonNull).min(taken).map(Reading::onWallClock)
            .orElse(null),
        injectors.stream().map(Phase::after).filter(Objects::nonNull).max(taken).map(Reading::onWallClock)
            .orElse(null));
  }

  @Override
  public SummaryPage page(Results results, Phases phases) {
    Rounds rounds = plan.siege().rounds();
    SiegeRounds requests = SiegeRounds.of(rounds, OPERATIONS, SiegeFigures.of(results, "request"));
    SiegeRounds records = SiegeRounds.of(rounds, RECORD_OPERATIONS, SiegeFigures.of(results, "group"));

    SummaryPage page = SummaryPage.titled(simulation + ": seed 000's siege runs, both systems in one run")
        .line("Targets: " + String.join("; ", results.run().targets()) + ", database " + plan.siege().database() + ".")
        .line("Each step: " + plan.siege().describeLoad() + ", values of " + plan.siege().valueSizes().describe()
            + " of random text. The steps run one after the other, so each system has the machine to"
            + " itself: " + String.join(", ", steps(plan)) + ".");
    List<String> keysRead = new ArrayList<>();
    for (int round : rounds.numbers()) {
      phases.rounds().get(round - 1).keysRead().stream().map(keys -> rounds.repeated() ? "round " + round + ", " + keys
          : keys).forEach(keysRead::add);
    }
    if (!keysRead.isEmpty()) {
      page = page.line("Keys read: each read step picks its keys at random from what the write steps"
          + (rounds.repeated() ? " of its round" : "") + " acknowledged: " + String.join("; ", keysRead) + ".");
    }
    if (rounds.repeated()) {
      page = page.line("Figures: " + rounds.describe() + "; each round's requests and groups are named \"... round"
          + " N\" in Gatling's report.");
    }
    for (String line : Stream.of(SiegeFigures.timing(results), SiegeFigures.merged(results).map(siege -> siege
        + " The client's counts are the injectors' sums, each injector's key files holding its own; the servers'"
        + " figures over a phase run from the earliest injector's reading before it to the latest injector's after"
        + " it, the phase's length by the machines' wall clocks, so the servers' counts are against every"
        + " injector's writes.")).flatMap(Optional::stream).toList()) {
      page = page.line(line);
    }
    for (String warning : tooShort(requests, records)) {
      page = page.warning(warning);
    }
    page = page.chart("transactions per second, per operation", VersusCharts.rates(requests, records));
    if (plan.records()) {
      page = page.chart("time to read a whole record", VersusCharts.recordReads(records, plan.fields()));
    }
    page = figures(page, rounds, "per operation", "request", requests);
    if (plan.records()) {
      page = figures(page.line("A record is " + plan.fields() + " fields of " + plan.siege().valueSizes().describe()
              + ": one CouchDB document, or " + plan.fields() + " memcache keys. Each record operation is a"
              + " Gatling group, and a transaction is a whole record; its response time is the group's duration,"
              + " from entering the group to leaving it, as in Gatling's report: the time a user waits for a"
              + " whole record."), rounds, "per whole record", "record operation", records);
    }
    for (String failure : phases.figureFailures()) {
      page = page.warning(failure);
    }
    for (int round : rounds.numbers()) {
      page = resources(page, rounds, round, phases.rounds().get(round - 1));
    }
    page = counts(page, rounds, phases.rounds());
    if (phases.loginRefused()) {
      page = page.warning("CouchDB refused the login during the run, which stopped there.");
    }
    long failed = requests.everyRound().values().stream().mapToLong(SiegeFigures::failed).sum()
        + records.everyRound().values().stream().mapToLong(SiegeFigures::failed).sum();
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
    steps.addAll(List.of(MemcacheRequests.SET, CouchRequests.SET));
    if (plan.records()) {
      steps.addAll(List.of(MemcacheRequests.RECORD_WRITE, CouchRequests.RECORD_WRITE));
    }
    steps.add("(key files written and read back)");
    steps.addAll(List.of(MemcacheRequests.GET, CouchRequests.GET));
    if (plan.records()) {
      steps.addAll(List.of(MemcacheRequests.RECORD_READ, MemcacheRequests.RECORD_MULTI_READ,
          CouchRequests.RECORD_READ));
    }
    return steps;
  }

  /** Siege's table as it is with one round; with several, its figures over the rounds, then every round's. */
  private static SummaryPage figures(SummaryPage page, Rounds rounds, String caption, String nameColumn,
      SiegeRounds figures) {
    return rounds.repeated()
        ? page.table("siege's figures " + caption + ", over the rounds", figures.spreadTable(nameColumn))
            .table("siege's figures " + caption + ", round by round", SiegeFigures.table(nameColumn,
                figures.everyRound()))
        : page.table("siege's figures, " + caption, SiegeFigures.table(nameColumn, figures.everyRound()));
  }

  /** The step-length rule's warnings: the steps, and each round's step whose users sent too few requests. */
  private List<String> tooShort(SiegeRounds requests, SiegeRounds records) {
    List<String> warnings = new ArrayList<>();
    ShortSteps.ofPlan(plan.siege()).ifPresent(warnings::add);
    for (SiegeRounds operations : List.of(requests, records)) {
      operations.byRequest().forEach((operation, ofRounds) -> ofRounds.forEach((step, figures) ->
          ShortSteps.ofStep(step, figures, plan.siege().users()).ifPresent(warnings::add)));
    }
    return warnings;
  }

  private static SummaryPage resources(SummaryPage page, Rounds rounds, int number, Round round) {
    page = resources(page, rounds.name("server figures over the write phase", number), round.writes());
    return resources(page, rounds.name("server figures over the read phase", number), round.reads());
  }

  /** The table of a phase whose figures were read before and after it. */
  private static SummaryPage resources(SummaryPage page, String caption, Phase phase) {
    return phase.before() == null || phase.after() == null ? page
        : page.table(caption, ResourceSnapshot.table(phase.before().snapshot(), phase.after().snapshot()));
  }

  /**
   * The servers' counts against the client's, round by round: what a write phase acknowledged must be what the
   * servers gained over it, as long as nothing else wrote and memcache evicted nothing.
   */
  private static SummaryPage counts(SummaryPage page, Rounds rounds, List<Round> ended) {
    Table table = Table.of("count", "client (acknowledged)", "server (gained in the write phase)", "agree");
    List<String> disagreements = new ArrayList<>();
    List<String> keyFiles = new ArrayList<>();
    Optional<MemcacheResources.ItemsGained> anyItems = Optional.empty();
    for (int number : rounds.numbers()) {
      Round round = ended.get(number - 1);
      Phase phase = round.writes();
      Optional<ResourceSnapshot> writes = phase.before() == null || phase.after() == null ? Optional.empty()
          : Optional.of(phase.after().snapshot().minus(phase.before().snapshot()));
      Optional<MemcacheResources.ItemsGained> items = writes.flatMap(MemcacheResources::itemsGained);
      anyItems = anyItems.or(() -> items);
      Acknowledged acknowledged = round.acknowledged();
      Map<String, Long> client = new LinkedHashMap<>();
      client.put(rounds.name("CouchDB documents written", number), acknowledged.couchdbDocuments());
      client.put(rounds.name("memcache items written", number), acknowledged.memcacheItems());
      Map<String, Optional<BigDecimal>> server = new LinkedHashMap<>();
      server.put(rounds.name("CouchDB documents written", number),
          writes.flatMap(delta -> delta.value(CouchResources.DOC_COUNT)));
      server.put(rounds.name("memcache items written", number), items.map(MemcacheResources.ItemsGained::value));
      for (String name : client.keySet()) {
        Optional<BigDecimal> counted = server.get(name);
        String agree = counted.map(value -> value.compareTo(BigDecimal.valueOf(client.get(name))) == 0 ? "yes"
            : "NO").orElse("n/a");
        table = table.row(name, client.get(name), counted.<Object>map(value -> value).orElse("n/a"), agree);
        if (agree.equals("NO")) {
          disagreements.add(name + ": the client saw " + client.get(name) + " acknowledged, the server gained "
              + counted.get() + ". Did something else write, or memcache evict (see evictions)?");
        }
      }
      keyFiles.add((rounds.repeated() ? "round " + number + ": " : "") + acknowledged.memcacheSets() + " + "
          + acknowledged.couchdbSets() + " + " + acknowledged.memcacheRecords() + " + "
          + acknowledged.couchdbRecords());
    }
    String memcacheCounter = anyItems.map(gained -> gained.counter().equals(MemcacheResources.CURR_ITEMS)
        ? "memcache's curr_items"
        : "memcache's cmd_set (its stats have no curr_items, as MemcacheDB 1.2's have not: cmd_set counts every set"
            + " received, so it agrees as long as each stored a new key)").orElse("memcache's curr_items (not offered)");
    return page.line("The client counts a memcache item per STORED reply (a set, or a field of a record, whole or"
            + " not) and a CouchDB document per 201/202 reply with ok; the server's counts are " + memcacheCounter
            + " and the database's doc_count. The key files hold exactly the acknowledged keys: "
            + String.join("; ", keyFiles) + " (memcache, couchdb, memcache records, couchdb records).")
        .table("the servers' counts against the client's", table)
        .warningsFirst(disagreements);
  }
}
