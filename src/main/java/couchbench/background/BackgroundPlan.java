package couchbench.background;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * -Dbackground=compact,viewbuild,replicate,nodesync,restart-cache: the background work a run starts itself while its
 * load runs steady (CouchDB's, or the memcache cache emptied), each task in turn: the first -DbackgroundAt seconds into
 * the steady load, each next one -DbackgroundGap seconds after the last ended, none left running longer than
 * -DbackgroundTimeout; with -DbackgroundAfter, the load ends that many seconds after the last task ended, before
 * -Dduration is up if sooner (a run's duration then need only be an upper bound, however long the work takes).
 *
 * @param tasks the tasks, in the order they run
 * @param firstAt how far into the load the first starts
 * @param gap the steady load between one task's end and the next one's start
 * @param timeout the longest a task is followed; one still running then is said and left to the server
 * @param node -DbackgroundNode: the cluster node nodesync restarts; empty to let the run pick one the load does not use
 * @param loadAfter -DbackgroundAfter: the load left once the last task ended; empty to run the load its -Dduration
 */
public record BackgroundPlan(List<Kind> tasks, Duration firstAt, Duration gap, Duration timeout,
    Optional<String> node, Optional<Duration> loadAfter) {

  /** What a task is. */
  public enum Kind {
    /** POST /db/_compact: the database's file compacted. */
    COMPACT("compact"),
    /** A new design document's view built over every document: PUT /db/_design/..., then a query of it. */
    VIEWBUILD("viewbuild"),
    /** A one-shot replication of the database to a new one on the same server: POST /_replicate. */
    REPLICATE("replicate"),
    /** A cluster node restarted (POST /_node/{node}/_restart), then followed until its copies caught up again. */
    NODESYNC("nodesync"),
    /** The memcache cache emptied: the local memcached the run started restarted, or flush_all to another server. */
    RESTART_CACHE("restart-cache");

    private final String value;

    Kind(String value) {
      this.value = value;
    }

    /** @return its name in -Dbackground */
    public String value() {
      return value;
    }
  }

  /**
   * @param settings background, backgroundAt, backgroundGap, backgroundTimeout, backgroundNode, backgroundAfter
   * @return the plan; empty without -Dbackground
   * @throws SettingsException naming a task that is not one, and the ones there are
   */
  public static Optional<BackgroundPlan> from(Settings settings) {
    Optional<String> given = settings.value("background");
    if (given.isEmpty()) {
      return Optional.empty();
    }
    List<Kind> tasks = new ArrayList<>();
    for (String name : settings.get("background", "").split(",")) {
      tasks.add(List.of(Kind.values()).stream()
          .filter(kind -> kind.value.equals(name.trim().toLowerCase(Locale.ROOT))).findFirst()
          .orElseThrow(() -> new SettingsException("-Dbackground=" + given.get() + ": '" + name.trim() + "' is not a"
              + " background task here; give compact, viewbuild, replicate, nodesync or restart-cache, or several in"
              + " turn: -Dbackground=compact,viewbuild")));
    }
    return Optional.of(new BackgroundPlan(tasks, Duration.ofSeconds(settings.intValue("backgroundAt", 10, 0)),
        Duration.ofSeconds(settings.intValue("backgroundGap", 10, 0)),
        Duration.ofSeconds(settings.intValue("backgroundTimeout", 300, 1)),
        Optional.of(settings.get("backgroundNode", "")).filter(name -> !name.isBlank()).map(String::strip),
        settings.value("backgroundAfter").map(after -> Duration.ofSeconds(settings.intValue("backgroundAfter", 0, 0)))));
  }

  /** @return whether a task works on CouchDB (all but restart-cache), which needs a run of CouchDB alone */
  public boolean worksOnCouchDb() {
    return tasks.stream().anyMatch(kind -> kind != Kind.RESTART_CACHE);
  }

  /** @return whether a task empties the memcache cache, which needs a run that loads memcache */
  public boolean emptiesTheCache() {
    return tasks.contains(Kind.RESTART_CACHE);
  }

  /** @return whether a task restarts a cluster node, which needs one the load does not send to */
  public boolean restartsANode() {
    return tasks.contains(Kind.NODESYNC);
  }

  /**
   * @return e.g. "compact, then viewbuild; the first 10 s into the steady load, each next 10 s after the last ended"
   */
  public String describe() {
    return String.join(", then ", tasks.stream().map(Kind::value).toList()) + "; the first " + firstAt.toSeconds()
        + " s into the steady load" + (tasks.size() > 1 ? ", each next " + gap.toSeconds() + " s after the last ended" : "")
        + "; each followed for at most " + timeout.toSeconds() + " s" + loadAfter.map(after -> "; the load ends "
            + after.toSeconds() + " s after the last ended").orElse("");
  }
}
