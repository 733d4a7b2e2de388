package couchbench.rounds;

/**
 * The step-length rule every simulation keeps to by default: no figure rests on less than {@link #SECONDS} of load or
 * {@link #REQUESTS_PER_USER} requests per user, or it tells of the moment it ran in (a JIT compilation, a
 * neighbour's burst, the users' start) more than of the server. Where a run's parameters go below it, its page says
 * so. AttachmentUpload is the exception the rule's "about" allows: an upload of 10^9 bytes takes minutes, so there
 * either half of the rule suffices.
 */
public final class StepRule {

  /** The least load, in seconds, a figure should rest on. */
  public static final int SECONDS = 2;

  /** The fewest requests each user should send for a figure. */
  public static final int REQUESTS_PER_USER = 8;

  private StepRule() {}

  /**
   * @param seconds how long the figure's load ran
   * @param requestsPerUser requests (or replies) per user the figure rests on
   * @return true when it rests on less than the rule: under {@link #SECONDS}, or under {@link #REQUESTS_PER_USER}
   */
  public static boolean restsOnLess(double seconds, double requestsPerUser) {
    return seconds < SECONDS || requestsPerUser < REQUESTS_PER_USER;
  }
}
