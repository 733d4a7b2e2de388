package couchbench.resources;

import couchbench.run.RunContext;
import couchbench.run.RunExtension;
import couchbench.startup.Settings;
import java.util.Optional;

/** The run extension that reads every server's own figures once a second during the load ({@link ServerSampler}). */
public final class ServerSampling implements RunExtension {

  /** How `exec:java@extensions` lists it. */
  public static final Spec SPEC = new Spec("servers", "on; -DsampleServers=false turns it off",
      "reads each server's own figures once a second during the load (CouchDB's _stats and _system per node, memcache"
          + " stats, the CPU and memory of a local server and of any other local server the load uses, e.g. Search's"
          + " Nouveau) for the run's seconds charts",
      "one thread of the load generator; a second's reads are one GET _node/_local/_stats/couchdb and one GET"
          + " _node/_local/_system per CouchDB node and one stats per memcache server, which the servers' own request"
          + " counters count");

  private ServerSampler sampler;
  private final ServerSampler.Cadence cadence;

  private ServerSampling(ServerSampler.Cadence cadence) {
    this.cadence = cadence;
  }

  /**
   * @param settings the run's settings
   * @return the extension, unless -DsampleServers=false
   */
  public static Optional<RunExtension> from(Settings settings) {
    if (!settings.booleanValue("sampleServers", true)) {
      return Optional.empty();
    }
    // Seconds between a read and the next, 0 for never: to weigh one read's cost on the server against the others.
    ServerSampler.Cadence every = ServerSampler.Cadence.EVERY_SECOND;
    return Optional.of(new ServerSampling(new ServerSampler.Cadence(
        settings.intValue("sampleServers.statsEvery", every.stats(), 0),
        settings.intValue("sampleServers.systemEvery", every.system(), 0),
        settings.intValue("sampleServers.processEvery", every.process(), 0))));
  }

  // Started before the load's start (and -DstartAt's wait), so that its setup does not delay the load.
  @Override
  public void loadStarts(RunContext run) {
    sampler = ServerSampler.start(run.couchdb(), run.memcache(), run.otherLocalServers(), cadence);
    run.output().serverReadingsFrom(sampler::latest);
  }

  @Override
  public void loadEnds(RunContext run) {
    run.output().serverSeries(sampler.stop());
  }
}
