package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** What CouchDB's replication scheduler says of a job in {@code GET /_scheduler/jobs}, a job known by its target. */
public final class SchedulerJobs {

  private SchedulerJobs() {}

  /**
   * @param job one entry of the reply's {@code jobs}
   * @param database a target database's name
   * @return whether the job replicates to it: _scheduler names a target by its URL, without the login, ".../db/"
   */
  public static boolean replicatesTo(JsonNode job, String database) {
    return job.path("target").asText().replaceAll("/+$", "").endsWith("/" + database);
  }

  /**
   * @param job one entry of the reply's {@code jobs}
   * @return how many times it crashed, by its history (CouchDB keeps the last few events)
   */
  public static long crashes(JsonNode job) {
    long crashed = 0;
    for (JsonNode event : job.path("history")) {
      crashed += event.path("type").asText().equals("crashed") ? 1 : 0;
    }
    return crashed;
  }

  /**
   * @param job one entry of the reply's {@code jobs}
   * @return why it crashed last, by its history (newest first); empty when it has not
   */
  public static Optional<String> lastCrash(JsonNode job) {
    for (JsonNode event : job.path("history")) {
      if (event.path("type").asText().equals("crashed")) {
        return Optional.of(event.path("reason").asText(""));
      }
    }
    return Optional.empty();
  }
}
