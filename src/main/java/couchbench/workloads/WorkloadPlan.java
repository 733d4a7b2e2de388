package couchbench.workloads;

import couchbench.couchdb.DatabaseNames;
import couchbench.curve.CurvePlan;
import couchbench.distributions.Distribution;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A Workload run's parameters: a YCSB preset (-Dworkload) with any of its values overridden alone, the systems it runs
 * on, one after the other, and how fast: as fast as {@code threads} users go, or at -Dtarget operations per second.
 *
 * @param preset the YCSB workload the run starts from
 * @param proportions each operation's share of the operations, adding up to 1
 * @param distribution how the keys of reads, updates, scans and read-modify-writes are drawn
 * @param zipfianConstant the zipfian and latest distributions' constant, in (0, 1)
 * @param records records inserted by the load phase, before the operations
 * @param fields fields per record
 * @param fieldLength characters per field
 * @param threads virtual users, each sending one operation after the other
 * @param duration how long the operations run per system, when {@code operations} is 0
 * @param operations operations per system, spread over the threads; 0 to run for {@code duration}
 * @param maxScanLength the longest scan, in records (lengths drawn uniformly from 1)
 * @param target operations per second per system, spread over the threads; 0 for as fast as they go
 * @param systems the systems run, in order: {@link #COUCHDB}, {@link #MEMCACHE}
 * @param keyPerField whether memcache stores a record as one key per field, {@code <key>:<i>} (-DrecordLayout=
 *     keyPerField), rather than one key holding all its fields (record, the default)
 * @param database the CouchDB database the run creates (replacing an earlier run's) and loads; kept after the run
 * @param curve with -Dtargets, a staircase of target rates run in turn per system instead of one rate, or a search for
 *     the highest rate that meets -Dsla
 */
public record WorkloadPlan(WorkloadPreset preset, Map<Operation, Double> proportions, Distribution distribution,
    double zipfianConstant, int records, int fields, int fieldLength, int threads, Duration duration,
    long operations, int maxScanLength, double target, List<String> systems, boolean keyPerField, String database,
    Optional<CurvePlan> curve) {

  /** The system name in request names and -Dsystem. */
  public static final String COUCHDB = "couchdb";

  /** The system name in request names and -Dsystem. */
  public static final String MEMCACHE = "memcache";

  /** Threads by default: YCSB's default is 1; 16 keep a server busy without queueing on 2 cores. */
  public static final int DEFAULT_THREADS = 16;

  /** Seconds of operations per system by default. */
  public static final int DEFAULT_DURATION = 30;

  /** How far proportions may add up away from 1: decimal fractions such as 0.95 + 0.05 are not exact in binary. */
  private static final double SUM_TOLERANCE = 1e-9;

  /**
   * Reads the plan from the run's settings: the preset of -Dworkload (default a), then each value given alone.
   *
   * @param settings workload, read, update, insert, scan, rmw, distribution, zipfianConstant, records, fields,
   *     fieldLength, threads, duration, operations, scanLength, target, system, recordLayout, database, and a staircase's
   *     targets, sla, startRate, maxSteps, settleSeconds, stepSeconds
   * @return the plan
   * @throws WorkloadException naming the property and its allowed values, before any load
   */
  public static WorkloadPlan from(Settings settings) {
    if (!InjectorShare.from(settings).alone()) {
      throw new WorkloadException("-Dinjector: Workload runs on one injector (its key space and versions are one"
          + " process's); leave -Dinjector out");
    }
    if (settings.value("expiry").isPresent()) {
      throw new WorkloadException("-Dexpiry: Workload reads back every record it wrote, on both systems, so its values"
          + " do not expire; give -Dexpiry to MemSet, and MemGet reads its keys as they expire");
    }
    WorkloadPreset preset = WorkloadPreset.parse(settings.get("workload", "a"));
    Map<Operation, Double> proportions = new EnumMap<>(Operation.class);
    preset.proportions().forEach((operation, share) ->
        proportions.put(operation, settings.doubleValue(operation.property(), share)));
    checkProportions(proportions);
    Distribution distribution = distribution(settings.get("distribution", preset.distribution().lowerCase()));
    double zipfianConstant = settings.doubleValue("zipfianConstant", WorkloadPreset.ZIPFIAN_CONSTANT);
    if (!(zipfianConstant > 0 && zipfianConstant < 1)) {
      throw new WorkloadException("-DzipfianConstant=" + zipfianConstant + " is outside (0, 1): give a constant"
          + " between 0 and 1, both excluded (YCSB's is 0.99)");
    }
    long operations = settings.operationsInsteadOfDuration();
    Optional<CurvePlan> curve = CurvePlan.from(settings);
    if (curve.isPresent() && (operations > 0 || settings.value("duration").isPresent()
        || settings.value("target").isPresent())) {
      throw new WorkloadException("-Dtargets runs a staircase of rates, each step -DsettleSeconds then -DstepSeconds"
          + " long: leave out -Dtarget, -Doperations and -Dduration");
    }
    double target = settings.doubleValue("target", 0);
    if (target < 0) {
      throw new WorkloadException("-Dtarget=" + target + " is below 0: give operations per second, or leave it out"
          + " to run as fast as the threads go");
    }
    List<String> systems = systems(settings.get("system", COUCHDB + "," + MEMCACHE),
        proportions.get(Operation.SCAN) > 0);
    if (systems.size() > 1 && settings.value("background").isPresent()) {
      throw new WorkloadException("-Dbackground with -Dsystem=" + String.join(",", systems) + ": the background work"
          + " is CouchDB's, and would run on into memcache's part of the run: give -Dsystem=couchdb");
    }
    return new WorkloadPlan(preset, proportions, distribution, zipfianConstant,
        settings.intValue("records", WorkloadPreset.RECORDS, 1),
        settings.intValue("fields", WorkloadPreset.FIELDS, 1),
        settings.intValue("fieldLength", WorkloadPreset.FIELD_LENGTH, 1),
        settings.intValue("threads", DEFAULT_THREADS, 1),
        Duration.ofSeconds(operations > 0 ? 0 : settings.intValue("duration", DEFAULT_DURATION, 1)), operations,
        settings.intValue("scanLength", WorkloadPreset.MAX_SCAN_LENGTH, 1), target,
        systems, keyPerField(settings.get("recordLayout", "record")),
        DatabaseNames.fromSettings(settings, "couchbench_workload"), curve);
  }

  /**
   * @param systems each system's figures, in the order they ran
   * @return the run's figures
   */
  public WorkloadFigures figures(List<WorkloadFigures.SystemFigures> systems) {
    Map<String, Double> asked = new LinkedHashMap<>();
    operationsRun().forEach(operation -> asked.put(operation.word(), proportions.get(operation)));
    return new WorkloadFigures(describe(), asked, target, systems, curve.map(CurvePlan::describe).orElse(""));
  }

  /** @return the operations with a share above 0, in {@link Operation}'s order */
  public List<Operation> operationsRun() {
    return proportions.entrySet().stream().filter(share -> share.getValue() > 0).map(Map.Entry::getKey).toList();
  }

  /**
   * YCSB's expectednewkeys: the zipfian key space reaches past the loaded records by twice the inserts expected, so
   * that new records are drawn too. Known from -Doperations, or from -Dtarget and -Dduration; else 0.
   *
   * @return the inserts expected per system
   */
  public long expectedInserts() {
    double operationsExpected = operations > 0 ? operations : curve.map(steps -> steps.targets().stream()
        .mapToDouble(rate -> rate * (steps.settle().toSeconds() + steps.measure().toSeconds())).sum())
        .orElse(target * duration.toSeconds());
    return (long) (operationsExpected * proportions.get(Operation.INSERT) * 2);
  }

  /** @return why memcache is left out, when -Dsystem named it by default and the mix scans; else empty */
  public Optional<String> memcacheLeftOut() {
    return proportions.get(Operation.SCAN) > 0 && !systems.contains(MEMCACHE)
        ? Optional.of("memcache left out: scan (" + proportions.get(Operation.SCAN) + " of the operations) has no"
            + " memcache equivalent, so this workload runs on CouchDB only")
        : Optional.empty();
  }

  /**
   * @return the load in words, e.g. "workload a (update heavy): read 0.5, update 0.5, zipfian over 1,000 records of
   *     10 fields of 100 bytes; 16 threads for 30 s per system, as fast as they go"
   */
  public String describe() {
    List<String> mix = new ArrayList<>();
    operationsRun().forEach(operation -> mix.add(operation.word() + " " + proportions.get(operation)));
    String pace = target > 0 ? String.format(Locale.ROOT, "at %,.0f operations/s", target) : "as fast as they go";
    return "workload " + preset.name().toLowerCase(Locale.ROOT) + " (" + preset.title() + "): " + String.join(", ", mix)
        + ", " + distribution.lowerCase() + " over " + String.format(Locale.ROOT, "%,d", records) + " records of "
        + fields + " fields of " + fieldLength + " bytes; " + threads + " threads "
        + curve.map(steps -> "per system, " + steps.describe()).orElse((operations > 0 ? "for "
            + String.format(Locale.ROOT, "%,d", operations) + " operations" : "for " + duration.toSeconds() + " s")
            + " per system, " + pace);
  }

  private static void checkProportions(Map<Operation, Double> proportions) {
    proportions.forEach((operation, share) -> {
      if (share < 0 || share > 1) {
        throw new WorkloadException("-D" + operation.property() + "=" + share + " is not a proportion: give a value"
            + " from 0 to 1");
      }
    });
    double sum = proportions.values().stream().mapToDouble(Double::doubleValue).sum();
    if (Math.abs(sum - 1) > SUM_TOLERANCE) {
      throw new WorkloadException("the proportions add up to " + sum + ", not 1: " + proportions.entrySet().stream()
          .map(share -> share.getKey().property() + "=" + share.getValue()).toList() + "; give "
          + Operation.properties() + " so that they add up to 1");
    }
  }

  private static Distribution distribution(String value) {
    try {
      return Distribution.parse("distribution", value);
    } catch (IllegalArgumentException e) {
      throw new WorkloadException(e.getMessage());
    }
  }

  private static boolean keyPerField(String layout) {
    return switch (layout.strip()) {
      case "record" -> false;
      case "keyPerField" -> true;
      default -> throw new WorkloadException("-DrecordLayout=" + layout + " is not a record layout: give"
          + " -DrecordLayout=record (one memcache key per record) or keyPerField (one key per field)");
    };
  }

  private static List<String> systems(String value, boolean scans) {
    List<String> systems = new ArrayList<>();
    for (String system : value.split(",")) {
      String name = system.strip().toLowerCase(Locale.ROOT);
      if (!name.equals(COUCHDB) && !name.equals(MEMCACHE)) {
        throw new WorkloadException("-Dsystem=" + value + ": " + system.strip() + " is not a system: give -Dsystem="
            + COUCHDB + ", " + MEMCACHE + " or " + COUCHDB + "," + MEMCACHE);
      }
      if (!systems.contains(name)) {
        systems.add(name);
      }
    }
    if (scans && systems.contains(MEMCACHE)) {
      if (systems.size() == 1) {
        throw new WorkloadException("-Dsystem=memcache with scans: memcache has no scan (no key order to range over);"
            + " give -Dsystem=couchdb, or -Dscan=0 with the other proportions adding up to 1");
      }
      systems.remove(MEMCACHE);
    }
    return List.copyOf(systems);
  }
}
