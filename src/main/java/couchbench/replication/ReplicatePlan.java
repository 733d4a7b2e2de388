package couchbench.replication;

import couchbench.couchdb.DatabaseNames;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A Replicate run's parameters: how many replications at once, one-shot or continuous, the documents each source
 * holds before it starts, and the documents written into the sources while they run.
 *
 * @param jobs replications at once, each from a source database of its own to a target database of its own
 * @param continuous whether they are continuous (a _replicator document each) rather than one-shot (POST /_replicate)
 * @param docs documents in each source before its replication starts
 * @param writes documents written into each source while the replications run
 * @param rate those writes a second, over all sources
 * @param quiet how long the replications may take, after the last write, to bring every target level with its source
 * @param prefix the databases' names: prefix_source_0, prefix_target_0, ...
 * @param target the server of the targets, from -Dcouchdb.target; empty for the source's own server
 */
public record ReplicatePlan(int jobs, boolean continuous, int docs, int writes, double rate, Duration quiet,
    String prefix, Optional<URI> target) {

  /**
   * Reads the plan.
   *
   * @param settings jobs, mode, docs, writes, rate, quiet, database, couchdb.target
   * @return the plan
   * @throws ReplicationException naming the setting and what to give, before any load
   */
  public static ReplicatePlan from(Settings settings) {
    if (!InjectorShare.from(settings).alone()) {
      throw new ReplicationException("-Dinjector: Replicate runs on one injector (it checks every target against its"
          + " source); leave -Dinjector out");
    }
    String mode = settings.get("mode", "oneshot").trim().toLowerCase(Locale.ROOT);
    if (!mode.equals("oneshot") && !mode.equals("continuous")) {
      throw new ReplicationException("-Dmode=" + mode + ": give oneshot (POST /_replicate, once) or continuous (a"
          + " _replicator document, following its source)");
    }
    boolean continuous = mode.equals("continuous");
    if (!continuous && settings.value("writes").isPresent()) {
      throw new ReplicationException("-Dwrites with -Dmode=oneshot: a one-shot replication copies what its source"
          + " holds as it starts; give -Dmode=continuous to write while replications follow their sources");
    }
    double rate = settings.doubleValue("rate", 100);
    if (!(rate > 0)) {
      throw new ReplicationException("-Drate=" + rate + ": give the writes a second over all sources, above 0");
    }
    return new ReplicatePlan(settings.intValue("jobs", 1, 1), continuous, settings.intValue("docs", 10_000, 0),
        settings.intValue("writes", continuous ? 1000 : 0, 0), rate,
        Duration.ofSeconds(settings.intValue("quiet", 60, 1)),
        DatabaseNames.fromSettings(settings, "couchbench_replicate"),
        settings.value("couchdb.target").map(ReplicatePlan::server));
  }

  private static URI server(String url) {
    // A URL with a login is not quoted back: its password would be printed.
    boolean login = url.contains("@");
    try {
      URI server = new URI(url.trim().replaceAll("/+$", ""));
      if ((server.getScheme().equals("http") || server.getScheme().equals("https")) && server.getHost() != null
          && !login && (server.getPath() == null || server.getPath().isEmpty())) {
        return server;
      }
    } catch (URISyntaxException | NullPointerException e) {
      // said below
    }
    throw new ReplicationException("-Dcouchdb.target" + (login ? " carries a login" : "=" + url) + ": give the target"
        + " server's URL, http(s)://host:port, without a login (-Dcouchdb.user's is sent) or a database");
  }

  /**
   * @param job a replication, from 0
   * @return its source database's name
   */
  public String source(int job) {
    return prefix + "_source_" + job;
  }

  /**
   * @param job a replication, from 0
   * @return its target database's name
   */
  public String target(int job) {
    return prefix + "_target_" + job;
  }

  /** @return the run's load, in a line */
  public String describe() {
    return String.format(Locale.ROOT, "%d %s replication%s of %,d documents each%s, to %s", jobs,
        continuous ? "continuous" : "one-shot", jobs == 1 ? "" : "s", docs,
        writes == 0 ? "" : String.format(Locale.ROOT, ", %,d more written into each source at %,.0f/s over all while"
            + " they run", writes, rate), target.map(server -> server.toString()).orElse("the same server"));
  }
}
