package couchbench.results;

import couchbench.gatling.ResponseTap;
import org.HdrHistogram.Histogram;

/**
 * Where a run's requests go as they are recorded, for live metrics ({@link RunOutput#serveLive}): Gatling's records as
 * its stats engine takes them (whole milliseconds, as simulation.log has them), except the requests couchbench's own
 * client times, which come each second in nanoseconds, as the run's seconds and the page take them.
 */
public interface LiveFigures extends ResponseTap.Records {

  /**
   * One second of a request name's times, taken by couchbench's client.
   *
   * @param name the request's name
   * @param ok whether these are its OK requests' times or its failed ones'
   * @param nanos the times, in nanoseconds; read it before returning, it is the run's own
   */
  void clientSecond(String name, boolean ok, Histogram nanos);

  /**
   * One paced operation's time from its intended start (its schedule's) to its end: what a user of the system waited,
   * the delays of the load generator included, as the page's "from the intended start" figures take it.
   *
   * @param operation what the schedule paced, e.g. a staircase's system ("MemSet")
   * @param ok whether it succeeded
   * @param nanos its time, in nanoseconds
   */
  void intendedTime(String operation, boolean ok, long nanos);

  /**
   * A staircase's step began.
   *
   * @param system the system it loads, e.g. "MemSet"
   * @param step the step's number, from 1
   * @param rate the rate it asks, operations a second
   */
  void stepBegins(String system, int step, double rate);
}
