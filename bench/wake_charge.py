#!/usr/bin/env python3
"""What the kernel charges a thread that only sleeps (a benchmark of the machine, not of couchbench).

A thread that sleeps S and wakes, over and over, does almost nothing, yet on some virtual machines the
kernel counts CPU time for each wake that grows with S. On this one it follows the process: the first of its
threads to run after the process was off the core pays, the more the longer it was off. This is why a load generator's housekeeping threads (timers that wake a few times a second) weigh on its CPU per
request where requests are few (docs/cpu-per-request.md). Prints, for each sleep length, the CPU time per
wake from the thread's own schedstat (nanoseconds), over at least 10 s or 20 wakes.

  bench/wake_charge.py                   # 1, 10, 250 and 1000 ms
  taskset -c 0 bench/wake_charge.py 250  # pinned, one length
"""
import os, sys, time


def cpu_ns():
    with open(f"/proc/self/task/{os.getpid()}/schedstat") as stat:
        return int(stat.read().split()[0])


for millis in [float(arg) for arg in sys.argv[1:]] or [1, 10, 250, 1000]:
    wakes = max(20, int(10_000 / millis))
    before = cpu_ns()
    for _ in range(wakes):
        time.sleep(millis / 1000)
    print(f"sleep {millis:g} ms, {wakes} wakes: {(cpu_ns() - before) / wakes / 1000:.1f} us of CPU per wake",
          flush=True)
