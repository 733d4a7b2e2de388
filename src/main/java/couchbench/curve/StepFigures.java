package couchbench.curve;

/**
 * One step of a staircase, for results.json and the page: the rate asked, the rate achieved, and the latencies of
 * the operations that ended in its measured part, on both clocks.
 *
 * @param target operations per second asked
 * @param achieved operations per second that ended in its measured part, OK or not
 * @param ok operations that ended OK in it (a write refused for a conflict ends neither OK nor failed)
 * @param failed operations that failed in it
 * @param late operations that ended in it and started more than 2 ms after their intended start: where the server
 *     kept up, the load generator's own lag, which the intended latencies include
 * @param intendedMicros the OK operations' latency from their intended start, microseconds (HdrHistogram, base64)
 * @param actualMicros the same from their actual start
 * @param atGoalMicros the intended latency at the goal's percentile; null without a goal, or when no operation ended
 *     OK in the step
 * @param met whether the step met the goal (when there is one) at 90% of its target rate or more
 */
public record StepFigures(double target, double achieved, long ok, long failed, long late, String intendedMicros,
    String actualMicros, Double atGoalMicros, boolean met) {}
