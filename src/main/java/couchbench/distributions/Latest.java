package couchbench.distributions;

/**
 * The newest keys most popular: YCSB's {@code SkewedLatestGenerator} (0.17.0). Each draw counts a {@link Zipfian}
 * draw over the last acknowledged key number back from that key number, whose zeta grows with the inserts. As in YCSB
 * the draw is over lastAcknowledged items (not lastAcknowledged + 1), so key 0 is never drawn once a key after it
 * exists. One instance per user: not thread-safe.
 */
final class Latest implements KeyChooser {

  private final InsertSequence inserts;
  private final Zipfian zipfian;

  /** @param zipfian made over the records - 1 items YCSB makes it over (its basis's lastValue at the start) */
  Latest(InsertSequence inserts, Zipfian zipfian) {
    this.inserts = inserts;
    this.zipfian = zipfian;
  }

  @Override
  public long next() {
    long last = inserts.lastAcknowledged();
    return last - zipfian.next(last);
  }
}
