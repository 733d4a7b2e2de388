package couchbench.workloads;

import couchbench.distributions.Distribution;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * YCSB's core workloads, as its files workloads/workloada..workloadf (YCSB 0.17.0) set them: the operation mix, the
 * request distribution and, for E, the scan lengths. The rest is CoreWorkload's defaults, which every file keeps:
 * 1,000 records of 10 fields of 100 bytes, zipfian constant 0.99, hotspot 0.2 of the data taking 0.8 of the operations.
 */
public enum WorkloadPreset {
  /** workloada, "update heavy": a session store recording recent actions. */
  A("update heavy", Distribution.ZIPFIAN, 0.5, 0.5, 0, 0, 0),
  /** workloadb, "read mostly": photo tagging. */
  B("read mostly", Distribution.ZIPFIAN, 0.95, 0.05, 0, 0, 0),
  /** workloadc, "read only": a user profile cache. */
  C("read only", Distribution.ZIPFIAN, 1.0, 0, 0, 0, 0),
  /** workloadd, "read latest": user status updates, the newest read most. */
  D("read latest", Distribution.LATEST, 0.95, 0, 0.05, 0, 0),
  /** workloade, "short ranges": threaded conversations, scans of up to 100 records. */
  E("short ranges", Distribution.ZIPFIAN, 0, 0, 0.05, 0.95, 0),
  /** workloadf, "read-modify-write": a user database whose records are read and changed. */
  F("read-modify-write", Distribution.ZIPFIAN, 0.5, 0, 0, 0, 0.5);

  /** CoreWorkload's recordcount in every workload file. */
  public static final int RECORDS = 1000;

  /** CoreWorkload's fieldcount. */
  public static final int FIELDS = 10;

  /** CoreWorkload's fieldlength. */
  public static final int FIELD_LENGTH = 100;

  /** YCSB's ZipfianGenerator.ZIPFIAN_CONSTANT. */
  public static final double ZIPFIAN_CONSTANT = 0.99;

  /** workloade's maxscanlength (scan lengths uniform from 1). */
  public static final int MAX_SCAN_LENGTH = 100;

  private final String title;
  private final Distribution distribution;
  private final Map<Operation, Double> proportions = new EnumMap<>(Operation.class);

  WorkloadPreset(String title, Distribution distribution, double read, double update, double insert, double scan,
      double readModifyWrite) {
    this.title = title;
    this.distribution = distribution;
    proportions.put(Operation.READ, read);
    proportions.put(Operation.UPDATE, update);
    proportions.put(Operation.INSERT, insert);
    proportions.put(Operation.SCAN, scan);
    proportions.put(Operation.READ_MODIFY_WRITE, readModifyWrite);
  }

  /**
   * @param value -Dworkload's value: a to f, either case
   * @return the preset
   * @throws WorkloadException naming the property and the allowed values
   */
  public static WorkloadPreset parse(String value) {
    return Arrays.stream(values()).filter(preset -> preset.name().equalsIgnoreCase(value.strip())).findFirst()
        .orElseThrow(() -> new WorkloadException("-Dworkload=" + value + " is not one of YCSB's core workloads:"
            + " give -Dworkload=a, b, c, d, e or f (docs/workloads.md)"));
  }

  /** @return YCSB's name of it, e.g. "update heavy" */
  public String title() {
    return title;
  }

  /** @return its request distribution */
  public Distribution distribution() {
    return distribution;
  }

  /** @return every operation's proportion, in {@link Operation}'s order */
  public Map<Operation, Double> proportions() {
    return new EnumMap<>(proportions);
  }
}
