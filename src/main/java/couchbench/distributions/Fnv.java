package couchbench.distributions;

/**
 * YCSB's {@code Utils.fnvhash64}: the 64-bit FNV-1a hash of a number's eight bytes, low byte first, made non-negative
 * with Math.abs (so Long.MIN_VALUE stays negative, as in YCSB). It scrambles zipfian draws and names YCSB's records.
 */
public final class Fnv {

  private static final long OFFSET_BASIS = 0xCBF29CE484222325L;
  private static final long PRIME = 1099511628211L;

  private Fnv() {}

  /**
   * @param value a number, e.g. a record's
   * @return its hash, as YCSB's Utils.fnvhash64 gives it
   */
  public static long hash64(long value) {
    long hash = OFFSET_BASIS;
    for (int i = 0; i < 8; i++) {
      hash ^= (value >>> (8 * i)) & 0xff;
      hash *= PRIME;
    }
    return Math.abs(hash);
  }
}
