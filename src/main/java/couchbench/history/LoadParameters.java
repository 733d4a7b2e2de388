package couchbench.history;

import couchbench.results.Compare;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parameters of a run that shape its load: every parameter its results.json lists but those in {@link
 * #NOT_THE_LOAD}, which say where its files go, how it is judged, or which injector of several ran it. Runs of one
 * simulation with the same load parameters are one load: the gate compares them, and History draws them as one
 * parameter set.
 */
final class LoadParameters {

  /**
   * The parameters that are not the load's, each with why. A run that reads one of these still ran the same load with
   * any other value of it.
   */
  static final Map<String, String> NOT_THE_LOAD = notTheLoad(
      "baseline", "the gate's baseline: what the run is judged against",
      "regression", "the gate's thresholds",
      "trend", "-Dtrend's series and thresholds: how the run's seconds are judged",
      "injector", "which injector of several ran this share (-Dinjector=I/N); a merged run has none",
      "client", "httperf's name for -Dinjector",
      "startAt", "when the injectors of one run agreed to start",
      "keyFile", "where MemSet and CouchSet write their key file, and MemGet and CouchGet read theirs: a path (the keys"
          + " a read run drew from are in its figures)",
      "keyDir", "the folder of CouchVsMemcache's key files: a path",
      "dataDir", "where AttachmentUpload generates its attachments and reuses them: a path",
      "keep", "whether BulkInsert and AttachmentUpload leave their databases, and Tenants its users and theirs, in"
          + " place after the run");

  private LoadParameters() {}

  /**
   * @param parameters a run's parameters
   * @return those that shape its load, sorted by name
   */
  static Map<String, String> of(Map<String, String> parameters) {
    Map<String, String> load = new TreeMap<>(parameters);
    load.keySet().removeAll(NOT_THE_LOAD.keySet());
    return load;
  }

  /**
   * @param a a run's parameters
   * @param b another's
   * @return how their loads differ, one phrase per parameter, e.g. "-Dusers 4 against 8"; empty for one load
   */
  static List<String> differences(Map<String, String> a, Map<String, String> b) {
    return Compare.parameterDifferences(of(a), of(b));
  }

  private static Map<String, String> notTheLoad(String... nameThenWhy) {
    Map<String, String> why = new LinkedHashMap<>();
    for (int i = 0; i < nameThenWhy.length; i += 2) {
      why.put(nameThenWhy[i], nameThenWhy[i + 1]);
    }
    return Collections.unmodifiableMap(why);
  }
}
