package couchbench.background;

/**
 * One kind of background task, -Dbackground's compact, viewbuild, replicate or nodesync: started, followed by a
 * {@link TaskFollower} until it ends or the timeout, and what it leaves behind removed.
 */
interface TaskRunner {

  /**
   * Runs the task to its end, the timeout, or the load's end.
   *
   * @return the task as it ran
   * @throws couchbench.startup.OneLineException when a request of its fails beyond what the task expects (the server
   *     gone, a reply unread): that task alone ends
   */
  BackgroundTask run();
}
