package couchbench.report;

import java.util.Map;

/**
 * What a finished run's simulation.log says, read once: a tally per request name and per group.
 *
 * @param requests by request name, in order of first appearance
 * @param groups by group name (the innermost name of nested groups), in order of first appearance;
 *     a group's time is its duration, as in couchbench's Gatling report
 */
public record RunTallies(Map<String, RequestTally> requests, Map<String, RequestTally> groups) {}
