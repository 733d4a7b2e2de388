package couchbench.workloads;

import couchbench.startup.OneLineException;

/** A Workload setting that cannot be run: said in one line, before any load. */
public final class WorkloadException extends OneLineException {

  /** @param message the setting, what is wrong and what to give instead */
  public WorkloadException(String message) {
    super(message);
  }
}
