package couchbench.memcache.internal;

import io.gatling.commons.stats.Status;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import scala.Option;

/**
 * The memcache responses of one event loop, handed to Gatling's stats engine together every
 * {@link #HAND_OVER_MICROS} microseconds, rather than one at a time. Each response handed over is
 * a message to each of Gatling's data-writer actors, and a message to an idle actor wakes a thread
 * of Gatling's actor pool: one wake-up per memcache request cost more than the request. Handed over
 * every millisecond, the pool still woke about once per six requests, and the wake-ups (the event
 * loop's signal and the pool thread's sleep) cost 3-4 us of a MemGet request's 28-32; every 20 ms,
 * under 1 us (bench/memcache-cpu-by-thread.sh, docs/memcache-speed.md). Every response carries its
 * own start and end times, so when it is handed over changes no figure; Gatling's console and live
 * figures lag by at most this interval.
 *
 * <p>Nothing is lost at the end of a run: a virtual user's responses are logged on its own event
 * loop, and the loop's responses are handed over when any user of that loop exits (the protocol's
 * onExit), before Gatling hears that the user ended.
 */
final class ResponseLog {

  private static final FastThreadLocal<ResponseLog> OF_THIS_THREAD = new FastThreadLocal<>() {
    @Override
    protected ResponseLog initialValue() {
      return new ResponseLog();
    }
  };

  /** How long a response may wait to be handed over: fifty wake-ups a second per loop at most. */
  static final long HAND_OVER_MICROS = 20_000;

  private final List<Response> pending = new ArrayList<>();
  private StatsEngine stats;
  private boolean handOverScheduled;

  private record Response(String scenario, scala.collection.immutable.List<String> groups, String request,
      long start, long end, Status status, Option<String> code, Option<String> message) {}

  /**
   * Logs a response: at once when called off the user's event loop (a shared pool's connection
   * answers on its own loop), else with the loop's other responses of this round.
   */
  static void log(StatsEngine stats, Session session, String request, long start, long end, Status status,
      Option<String> code, Option<String> message) {
    EventLoop loop = session.eventLoop();
    if (!loop.inEventLoop()) {
      stats.logResponse(session.scenario(), session.groups(), request, start, end, status, code, message);
      return;
    }
    ResponseLog log = OF_THIS_THREAD.get();
    log.stats = stats;
    log.pending.add(new Response(session.scenario(), session.groups(), request, start, end, status, code, message));
    if (!log.handOverScheduled) {
      log.handOverScheduled = true;
      loop.schedule(log::handOver, HAND_OVER_MICROS, TimeUnit.MICROSECONDS);
    }
  }

  /** Hands over what this thread's event loop has logged; a user's exit calls it on the user's loop. */
  static void handOverHere() {
    if (OF_THIS_THREAD.isSet()) {
      OF_THIS_THREAD.get().handOver();
    }
  }

  private void handOver() {
    handOverScheduled = false;
    for (Response r : pending) {
      stats.logResponse(r.scenario(), r.groups(), r.request(), r.start(), r.end(), r.status(), r.code(), r.message());
    }
    pending.clear();
  }
}
