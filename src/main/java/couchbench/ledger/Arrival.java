package couchbench.ledger;

/**
 * A write seen by a reader (a listener of _changes, a replication's target), as {@link WriteLedger#arrived} times it.
 *
 * @param fromSentNanos from when its request was sent to when the reader saw it
 * @param fromAckNanos from its acknowledgement; 0 when it came before it
 * @param beforeAck whether the reader saw it before its writer had the acknowledgement, or without one
 * @param timedFrom where its time in Gatling's report starts, on System.nanoTime's clock: the acknowledgement, or the
 *     sighting itself when it came first
 */
public record Arrival(long fromSentNanos, long fromAckNanos, boolean beforeAck, long timedFrom) {}
