package couchbench.report;

import io.gatling.charts.stats.LogFileParser;
import io.gatling.core.stats.writer.RecordHeader;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads every request record of a simulation.log into a tally per request name. Gatling's own
 * reader (LogFileReader) keeps only aggregates, with the mean rounded to whole milliseconds and
 * times bucketed: too coarse for siege's sums and spans of sub-millisecond memcache requests. This
 * parser walks the same records with Gatling's own decoding primitives (string cache, sanitizing),
 * following the layout of Gatling 3.15's LogFileDataWriter; requests in groups count under their
 * own name.
 */
final class RequestRecords extends LogFileParser<Map<String, RequestTally>> {

  private static final byte REQUEST = RecordHeader.Request$.MODULE$.value();
  private static final byte USER = RecordHeader.User$.MODULE$.value();
  private static final byte GROUP = RecordHeader.Group$.MODULE$.value();
  private static final byte ERROR = RecordHeader.Error$.MODULE$.value();

  RequestRecords(File log) {
    super(log);
  }

  @Override
  public Map<String, RequestTally> parse() {
    skipRunRecord();
    Map<String, RequestTally> tallies = new LinkedHashMap<>();
    for (int header = read(); header != -1; header = read()) {
      if (header == REQUEST) {
        skipGroups();
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
        skipGroups();
        skip(3 * Integer.BYTES); // start, end, cumulated response time
        skipByte(); // status
      } else if (header == ERROR) {
        readCachedSanitizedString();
        skipInt();
      } else {
        throw new IllegalStateException("simulation.log: unknown record type " + header);
      }
    }
    return tallies;
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

  // A string is written once and referred to by index afterwards, maybe as a request name: read, not skipped.
  private void skipGroups() {
    for (int groups = readInt(); groups > 0; groups--) {
      readCachedSanitizedString();
    }
  }
}
