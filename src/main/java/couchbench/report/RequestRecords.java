package couchbench.report;

import io.gatling.charts.stats.LogFileParser;
import io.gatling.core.stats.writer.RecordHeader;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads every request record of a simulation.log into a tally per request name, and every group
 * record into a tally per group name. Gatling's own
 * reader (LogFileReader) keeps only aggregates, with the mean rounded to whole milliseconds and
 * times bucketed: too coarse for siege's sums and spans of sub-millisecond memcache requests. This
 * parser walks the same records with Gatling's own decoding primitives (string cache, sanitizing),
 * following the layout of Gatling 3.15's LogFileDataWriter; requests in groups count under their
 * own name. A group's time is its duration, from entering it to leaving it, as in couchbench's
 * Gatling report (gatling.conf sets useGroupDurationMetric: the cumulated response time counts
 * every request as at least 1 ms); a group passed when none of its requests failed.
 */
final class RequestRecords extends LogFileParser<RunTallies> {

  private static final byte REQUEST = RecordHeader.Request$.MODULE$.value();
  private static final byte USER = RecordHeader.User$.MODULE$.value();
  private static final byte GROUP = RecordHeader.Group$.MODULE$.value();
  private static final byte ERROR = RecordHeader.Error$.MODULE$.value();

  RequestRecords(File log) {
    super(log);
  }

  @Override
  public RunTallies parse() {
    skipRunRecord();
    Map<String, RequestTally> tallies = new LinkedHashMap<>();
    Map<String, RequestTally> groups = new LinkedHashMap<>();
    for (int header = read(); header != -1; header = read()) {
      if (header == REQUEST) {
        readGroups(); // the request's groups: it counts under its own name
        String name = readCachedSanitizedString();
        long start = readInt();
        long end = readInt();
        boolean ok = readBoolean();
        readCachedSanitizedString(); // the failure message, read (not skipped) so that its string is cached
        tallies.put(name, tallies.getOrDefault(name, RequestTally.EMPTY).with(start, end, ok));
      } else if (header == USER) {
        skipInt(); // scenario
        skipByte(); // start or end
        skipInt(); // timestamp
      } else if (header == GROUP) {
        String name = readGroups(); // the group's hierarchy, ending with its own name
        long start = readInt();
        long end = readInt();
        skipInt(); // cumulated response time
        boolean ok = readBoolean();
        groups.put(name, groups.getOrDefault(name, RequestTally.EMPTY).with(start, end, ok));
      } else if (header == ERROR) {
        readCachedSanitizedString();
        skipInt();
      } else {
        throw new IllegalStateException("simulation.log: unknown record type " + header);
      }
    }
    return new RunTallies(tallies, groups);
  }

  // Gatling version, simulation class, start, description, scenario names, serialized assertions.
  private void skipRunRecord() {
    skipByte();
    skipString();
    skipString();
    skipLong();
    skipString();
    for (int scenarios = readInt(); scenarios > 0; scenarios--) {
      skipString();
    }
    for (int assertions = readInt(); assertions > 0; assertions--) {
      skip(readInt());
    }
  }

  /**
   * Reads a group hierarchy; returns its innermost name, or "" for none. A string is written once
   * and referred to by index afterwards, maybe as a request name: read, not skipped.
   */
  private String readGroups() {
    String innermost = "";
    for (int groups = readInt(); groups > 0; groups--) {
      innermost = readCachedSanitizedString();
    }
    return innermost;
  }
}
