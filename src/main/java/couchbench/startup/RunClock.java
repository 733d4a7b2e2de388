package couchbench.startup;

/**
 * The one clock of a run: milliseconds that count like the epoch's but never step, System.nanoTime's elapsed time
 * from one reading of the wall clock taken when this class loads (at the start of the run, {@code RunStart}). Every
 * series a run draws on its time axis is stamped with it: the servers' samples, the memcache client's seconds,
 * background tasks, the load's start and end. A step of the machine's wall clock during the run (a virtual machine's
 * host setting its guest's time) moves none of them apart.
 *
 * <p>Gatling's own clock is made the same way, from its own reading of the wall clock when its JVM started; a step
 * between the two readings puts them apart by a constant, which {@link #alignGatling} measures once so that
 * {@link #fromGatling} can place simulation.log's times on this clock.
 */
public final class RunClock {

  private static final long WALL_MILLIS_AT_START = System.currentTimeMillis();
  private static final long NANOS_AT_START = System.nanoTime();
  private static volatile long gatlingAhead;

  private RunClock() {}

  /** @return now on the run's clock, in milliseconds that read as the epoch's at the run's start */
  public static long millis() {
    return WALL_MILLIS_AT_START + (System.nanoTime() - NANOS_AT_START) / 1_000_000;
  }

  /**
   * @param nanos a moment on System.nanoTime's clock
   * @return the same moment on the run's clock
   */
  public static long millisAt(long nanos) {
    return WALL_MILLIS_AT_START + Math.floorDiv(nanos - NANOS_AT_START, 1_000_000);
  }

  /**
   * Measures how far Gatling's clock is ahead of this one; call once, with Gatling's clock read now.
   *
   * @param gatlingNowMillis Gatling's clock (its CoreComponents' clock().nowMillis()), read just before
   */
  public static void alignGatling(long gatlingNowMillis) {
    gatlingAhead = gatlingNowMillis - millis();
  }

  /**
   * @param gatlingMillis a moment on Gatling's clock, e.g. a request's end in simulation.log
   * @return the same moment on the run's clock
   */
  public static long fromGatling(long gatlingMillis) {
    return gatlingMillis - gatlingAhead;
  }
}
