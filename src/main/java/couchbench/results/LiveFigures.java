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
}
