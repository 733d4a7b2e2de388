package couchbench.bulkinsert;

import couchbench.rounds.StepRule;
import couchbench.startup.Settings;

/**
 * How long a step goes on, so that no docs/s figure rests on a few requests of a few tenths of a second (the chart's
 * zigzag at large B was that noise): each user sends at least {@code requests} requests, and goes on sending until
 * the step has run {@code seconds} since its first request. A step's documents grow as needed; the summary shows what
 * they grew to.
 *
 * @param requests requests each user sends at least ({@code -DstepRequests}, at least 1)
 * @param seconds seconds each step runs at least ({@code -DstepSeconds}); 0 for no time rule
 */
public record StepLength(int requests, int seconds) {

  public StepLength {
    if (requests < 1 || seconds < 0) {
      throw new IllegalArgumentException("step length: " + requests + " requests, " + seconds + " s");
    }
  }

  /**
   * @param settings stepRequests, stepSeconds
   * @return the step length they ask for, the rule's by default
   */
  public static StepLength from(Settings settings) {
    return new StepLength(settings.intValue("stepRequests", StepRule.REQUESTS_PER_USER, 1),
        settings.intValue("stepSeconds", StepRule.SECONDS, 0));
  }

  /**
   * The requests each user of a step sends at least: enough for the step's share of the documents asked for, in
   * whole requests, and at least {@link #requests()}.
   *
   * @param docs documents the step creates at least
   * @param batchSize documents per request
   * @param threads the step's users
   * @return requests per user
   */
  public int requestsPerUser(int docs, int batchSize, int threads) {
    long perRequest = (long) batchSize * threads;
    return (int) Math.max(requests, (docs + perRequest - 1) / perRequest);
  }

  /**
   * Whether a user goes on sending.
   *
   * @param sent requests this user has sent in the step
   * @param requestsPerUser requests each user sends at least
   * @param nanosRunning nanoseconds since the step's first request
   * @return true while the user has sent fewer than its requests, or the step has run less than {@link #seconds()}
   */
  public boolean goesOn(int sent, int requestsPerUser, long nanosRunning) {
    return sent < requestsPerUser || nanosRunning < seconds * 1_000_000_000L;
  }

  /** @return the sentence that says the rule on the page */
  public String describe() {
    String time =
        seconds == 0 ? "" : ", and goes on sending until the step has run " + seconds + " s since its first request";
    return "Step length: each user sends at least " + requests + " requests (more when docs asks for more)" + time
        + " (-DstepRequests, -DstepSeconds): a step's documents grow as needed, and docs sent says what they grew to.";
  }
}
