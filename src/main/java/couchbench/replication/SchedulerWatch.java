package couchbench.replication;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.SchedulerJobs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What CouchDB's replication scheduler says of each job, read once a second while the load runs: {@code GET
 * /_scheduler/jobs} (each job's history: started, crashed) and, for continuous replications, {@code GET
 * /_scheduler/docs/_replicator} (each document's state, errors, and the source seq it checkpointed). A job is known by
 * its target database, which both name in their URLs.
 */
final class SchedulerWatch implements Runnable {

  private static final long EVERY_MILLIS = 1000;

  private final ReplicatePlan plan;
  private final CouchDbClient client;
  private final long start;
  private final List<Job> jobs = new ArrayList<>();
  private volatile boolean offered = true;
  private int samples;

  /** One job's account, written by the watching thread only, read after it stopped. */
  private static final class Job {
    final Map<String, Integer> states = new LinkedHashMap<>();
    final List<String> notRunning = new ArrayList<>();
    final Set<String> checkpoints = new LinkedHashSet<>();
    String state = "";
    double since;
    long errors;
    long crashes;
    String firstError = "";
  }

  /**
   * @param plan the run's plan
   * @param client the server that runs the replications
   * @param start the load's start, on System.nanoTime's clock
   */
  SchedulerWatch(ReplicatePlan plan, CouchDbClient client, long start) {
    this.plan = plan;
    this.client = client;
    this.start = start;
    for (int job = 0; job < plan.jobs(); job++) {
      jobs.add(new Job());
    }
  }

  @Override
  public void run() {
    while (!Thread.currentThread().isInterrupted() && offered) {
      try {
        sample();
        Thread.sleep(EVERY_MILLIS);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        // A sample lost (the server restarting) is a second without figures; the next one goes on.
      }
    }
  }

  private void sample() {
    CouchReply scheduled = client.get("/_scheduler/jobs");
    if (scheduled.status() == 404 || scheduled.status() == 400) {
      offered = false;
      return;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    synchronized (this) {
      samples++;
      for (JsonNode job : ReplyJson.of(scheduled.body()).path("jobs")) {
        int number = jobOf(job);
        if (number >= 0) {
          Job seen = jobs.get(number);
          seen.crashes = Math.max(seen.crashes, SchedulerJobs.crashes(job));
          if (job.path("info").has("checkpointed_source_seq")) {
            seen.checkpoints.add(job.path("info").path("checkpointed_source_seq").asText());
          }
          if (!plan.continuous()) {
            // A one-shot replication has no document, so no state: listed here, it runs.
            seen.states.merge("running", 1, Integer::sum);
          }
        }
      }
      if (plan.continuous()) {
        for (JsonNode doc : ReplyJson.of(client.get("/_scheduler/docs/_replicator").body()).path("docs")) {
          int number = jobOf(doc);
          if (number >= 0) {
            seen(jobs.get(number), doc, seconds);
          }
        }
      }
    }
  }

  private static void seen(Job job, JsonNode doc, double seconds) {
    String state = doc.path("state").asText("unknown");
    job.states.merge(state, 1, Integer::sum);
    if (!state.equals(job.state)) {
      if (!job.state.isEmpty() && !job.state.equals("running")) {
        job.notRunning.add(String.format(Locale.ROOT, "%s from %.0f s to %.0f s", job.state, job.since, seconds));
      }
      job.state = state;
      job.since = seconds;
    }
    job.errors = Math.max(job.errors, doc.path("error_count").asLong());
    JsonNode info = doc.path("info");
    if (info.has("checkpointed_source_seq")) {
      job.checkpoints.add(info.path("checkpointed_source_seq").asText());
    }
    if (job.firstError.isEmpty() && info.has("error")) {
      job.firstError = info.path("error").asText();
    }
  }

  // A job or a _replicator document, by the target database its URL names.
  private int jobOf(JsonNode listed) {
    for (int job = 0; job < plan.jobs(); job++) {
      if (SchedulerJobs.replicatesTo(listed, plan.target(job))) {
        return job;
      }
    }
    return -1;
  }

  /**
   * @param seconds when the load ended, in seconds from its start
   * @return each job's figures; empty when the server has no _scheduler (pouchdb-server)
   */
  synchronized List<ReplicateFigures.Scheduler> figures(double seconds) {
    List<ReplicateFigures.Scheduler> all = new ArrayList<>();
    if (samples == 0) {
      return all;
    }
    for (int number = 0; number < jobs.size(); number++) {
      Job job = jobs.get(number);
      List<String> notRunning = new ArrayList<>(job.notRunning);
      if (!job.state.isEmpty() && !job.state.equals("running")) {
        notRunning.add(String.format(Locale.ROOT, "%s from %.0f s to the end (%.0f s)", job.state, job.since,
            seconds));
      }
      all.add(new ReplicateFigures.Scheduler(number, samples, Map.copyOf(job.states), notRunning, job.errors,
          job.crashes, job.checkpoints.size(), job.firstError));
    }
    return all;
  }
}
