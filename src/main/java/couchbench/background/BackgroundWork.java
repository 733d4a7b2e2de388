package couchbench.background;

import couchbench.startup.LoadEnd;
import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The background work of a run, on a thread of its own with a client of its own (none of its requests is one of the
 * load's): each task of the plan started at its time, counted from where the steady load begins, then followed every
 * 100 ms (in _active_tasks, or nodesync's node; restart-cache until memcached answers again) until it ends, by a
 * {@link TaskRunner} of its kind. A task the server
 * refuses, or one that does not end in time, is said in a line and recorded; the load goes on. Its times are on the
 * run's clock ({@link RunClock}), as the load's and the servers' are.
 */
public final class BackgroundWork {

  private final BackgroundPlan plan;
  private final Optional<CouchTarget> target;
  private final Optional<TaskFollower> follower;
  private final List<MemcacheTarget> memcache;
  private final String database;
  private final Consumer<String> say;
  private final Optional<String> restartedNode;
  private final List<BackgroundTask> done = new CopyOnWriteArrayList<>();
  private final Thread thread;
  /** Opened where the steady load begins, from which the tasks' times count. */
  private final CountDownLatch steady = new CountDownLatch(1);
  private volatile long steadyMillis = -1;

  private BackgroundWork(BackgroundPlan plan, Optional<CouchTarget> target, List<MemcacheTarget> memcache,
      String database, Optional<String> restartedNode, Consumer<String> say) {
    this.plan = plan;
    this.restartedNode = restartedNode;
    this.target = target;
    this.follower = target.map(couchdb -> new TaskFollower(couchdb, plan.timeout(), say));
    this.memcache = List.copyOf(memcache);
    this.database = database;
    this.say = say;
    this.thread = new Thread(this::runAll, "couchbench-background");
    thread.setDaemon(true);
  }

  /**
   * @param plan the tasks and their times
   * @param target the CouchDB loaded, which CouchDB's tasks work on; empty in a run of memcache alone
   * @param memcache the memcache servers loaded, whose cache restart-cache empties
   * @param database the database the load uses, which CouchDB's tasks work on
   * @param restartedNode the node nodesync restarts, from {@link #nodeToRestart}
   * @param say where each task's lines go (the console)
   * @return the work, started now: call as the load starts
   */
  public static BackgroundWork start(BackgroundPlan plan, Optional<CouchTarget> target, List<MemcacheTarget> memcache,
      String database, Optional<String> restartedNode, Consumer<String> say) {
    BackgroundWork work = new BackgroundWork(plan, target, memcache, database, restartedNode, say);
    work.thread.start();
    return work;
  }

  /** Marks where the steady load begins (the load's start, or after a phase that fills the database); once. */
  public synchronized void steadyLoadBegins() {
    if (steadyMillis < 0) {
      steadyMillis = RunClock.millis();
      steady.countDown();
    }
  }

  /** @return when the steady load began, on the run's clock (epoch milliseconds); -1 if it never did */
  public long steadyMillis() {
    return steadyMillis;
  }

  /**
   * Before the load: the cluster node nodesync will restart, one the load does not send to.
   *
   * @param plan the tasks
   * @param target the CouchDB loaded
   * @return the node; empty without nodesync
   * @throws couchbench.startup.SettingsException for a single node, or a cluster whose every node the load uses
   */
  public static Optional<String> nodeToRestart(BackgroundPlan plan, CouchTarget target) {
    return plan.restartsANode() ? Optional.of(NodeSync.choose(target, plan.node())) : Optional.empty();
  }

  /** @return the tasks run, once the work is stopped: call after the load; a task still followed is ended there */
  public List<BackgroundTask> stop() {
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (steadyMillis < 0) {
      say.accept("background: no task started: the load ended before its steady part began");
    }
    return List.copyOf(done);
  }

  private void runAll() {
    try {
      steady.await();
      Thread.sleep(plan.firstAt().toMillis());
      for (int i = 0; i < plan.tasks().size(); i++) {
        if (i > 0) {
          Thread.sleep(plan.gap().toMillis());
        }
        BackgroundTask task = run(plan.tasks().get(i), i);
        done.add(task);
        say.accept("background: " + task.what() + (task.problem() == null ? String.format(Locale.ROOT,
            ": ended after %.1f s", (task.endMillis() - task.startMillis()) / 1000.0) : ": " + task.problem()));
      }
    } catch (InterruptedException e) {
      return; // The load ended: what was not started is not.
    } catch (RuntimeException e) {
      say.accept("background: stopped: " + e.getMessage() + "; the load's figures are kept");
    }
    plan.loadAfter().ifPresent(after -> {
      say.accept("background: the load ends " + after.toSeconds() + " s from now (-DbackgroundAfter)");
      LoadEnd.after(after);
    });
  }

  // One task; a request of its that fails beyond what the task expects (the server gone, a reply unread) ends that task
  // alone, with a line, and the next one still starts.
  private BackgroundTask run(BackgroundPlan.Kind kind, int index) {
    long start = RunClock.millis();
    try {
      return runner(kind, index).run();
    } catch (OneLineException e) {
      return new BackgroundTask(kind, kind.value(), start, -1, List.of(), -1, -1, "failed: " + e.getMessage());
    }
  }

  // BackgroundExtension.check has made sure the run loads what each kind works on.
  private TaskRunner runner(BackgroundPlan.Kind kind, int index) {
    return switch (kind) {
      case COMPACT -> new CompactRunner(follower.orElseThrow(), database);
      case VIEWBUILD -> new ViewBuildRunner(follower.orElseThrow(), database, index);
      case REPLICATE -> new ReplicateRunner(follower.orElseThrow(), target.orElseThrow(), database, index);
      case NODESYNC -> new NodeSyncRunner(follower.orElseThrow(), database, restartedNode.orElseThrow());
      case RESTART_CACHE -> new RestartCacheRunner(memcache.get(0));
    };
  }
}
