package couchbench.background;

import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import couchbench.targets.MemcacheTarget;
import java.util.List;

/**
 * restart-cache: the cache emptied in the middle of the load, a cold cache for the load to warm again. The local
 * memcached the run started is restarted on its port (the load's connections drop until it answers again); servers the
 * run did not start are sent flush_all ({@link MemcacheTarget#emptyCache}). The task ends when the server answers
 * again, empty; its detail says which of the two it was.
 *
 * @param memcache the memcache servers loaded
 */
record RestartCacheRunner(MemcacheTarget memcache) implements TaskRunner {

  @Override
  public BackgroundTask run() {
    String what = memcache.startedLocally() ? "restart of the local memcached at " + memcache.servers().get(0)
        : "flush_all to memcache at " + String.join(", ", memcache.servers());
    long start = RunClock.millis();
    try {
      String done = memcache.emptyCache();
      long end = RunClock.millis();
      // One read, at its end: a task with a read is one that ran, shaded on the seconds charts from start to end.
      return new BackgroundTask(BackgroundPlan.Kind.RESTART_CACHE, what, start, end,
          List.of(new BackgroundTask.Progress(end, 100)), -1, -1, null, -1, done);
    } catch (OneLineException e) {
      return new BackgroundTask(BackgroundPlan.Kind.RESTART_CACHE, what, start, -1, List.of(), -1, -1,
          "failed: " + e.getMessage(), -1, null);
    }
  }
}
