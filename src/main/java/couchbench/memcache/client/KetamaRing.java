package couchbench.memcache.client;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

/**
 * Ketama consistent hashing, placing keys on servers as libmemcached does with
 * {@code MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED} (all weights equal) and as spymemcached's {@code KETAMA_HASH}
 * locator does with its {@code LIBMEMCACHED} key format, so that a key lands on the same server as with those
 * clients.
 *
 * <p>Each server gets 160 points: for i in 0..39 the md5 of {@code "host:port-i"} ({@code "host-i"} when the
 * port is memcached's default 11211, as libmemcached writes it), read as four little-endian 32-bit numbers. A
 * key goes to the server of the first point at or after the little-endian first 4 bytes of its own md5,
 * wrapping round to the first point. "host" is the address's host string as configured (a name or a literal
 * IP, never looked up); spymemcached's default SPYMEMCACHED format ("host/ip:port-i") is not followed. When two
 * points are equal the later server in the list keeps it, as in spymemcached's TreeMap; libmemcached leaves
 * that case to qsort. One server bypasses the ring.
 */
public final class KetamaRing {

  static final int POINTS_PER_SERVER = 160;
  private static final int DEFAULT_PORT = 11211;

  private final List<InetSocketAddress> servers;
  /** Point values, unsigned 32-bit in longs, ascending. */
  private final long[] points;
  /** owners[i] is the index in servers of the server at points[i]. */
  private final int[] owners;

  /**
   * Builds the ring.
   *
   * @param servers the servers, at least one
   */
  public KetamaRing(List<InetSocketAddress> servers) {
    this.servers = List.copyOf(servers);
    if (this.servers.isEmpty()) {
      throw new IllegalArgumentException("no server");
    }
    long[] packed = new long[this.servers.size() * POINTS_PER_SERVER];
    int n = 0;
    for (int s = 0; s < this.servers.size(); s++) {
      for (int i = 0; i < POINTS_PER_SERVER / 4; i++) {
        byte[] digest = md5(pointName(this.servers.get(s), i));
        for (int h = 0; h < 4; h++) {
          // The point in the high 32 bits, then the insertion order, so that sorting keeps equal points in order.
          packed[n] = (littleEndian(digest, h * 4) << 31) | n;
          n++;
        }
      }
    }
    Arrays.sort(packed);
    long[] values = new long[packed.length];
    int[] who = new int[packed.length];
    int kept = 0;
    for (long p : packed) {
      long value = p >>> 31;
      int owner = (int) (p & 0x7FFF_FFFFL) / POINTS_PER_SERVER;
      if (kept > 0 && values[kept - 1] == value) {
        who[kept - 1] = owner; // a later server overwrites an equal point, as a TreeMap put does
      } else {
        values[kept] = value;
        who[kept] = owner;
        kept++;
      }
    }
    this.points = Arrays.copyOf(values, kept);
    this.owners = Arrays.copyOf(who, kept);
  }

  /**
   * Finds the server for a key.
   *
   * @param key the key (hashed as UTF-8)
   * @return one of the servers
   */
  public InetSocketAddress serverFor(String key) {
    if (servers.size() == 1) {
      return servers.get(0);
    }
    return servers.get(owners[pointIndex(keyHash(key))]);
  }

  /** @return the servers, in the order given */
  public List<InetSocketAddress> servers() {
    return servers;
  }

  /** The index of the first point at or after hash, wrapping round. */
  private int pointIndex(long hash) {
    int found = Arrays.binarySearch(points, hash);
    int index = found >= 0 ? found : -found - 1;
    return index == points.length ? 0 : index;
  }

  /** The string hashed for a server's i-th group of 4 points: libmemcached's "host:port-i" or "host-i". */
  static String pointName(InetSocketAddress server, int i) {
    String host = server.getHostString();
    return server.getPort() == DEFAULT_PORT ? host + "-" + i : host + ":" + server.getPort() + "-" + i;
  }

  /** The key's position on the ring: the first 4 bytes of its md5, little-endian. */
  static long keyHash(String key) {
    return littleEndian(md5(key), 0);
  }

  private static long littleEndian(byte[] digest, int offset) {
    return ((long) (digest[offset + 3] & 0xFF) << 24)
        | ((long) (digest[offset + 2] & 0xFF) << 16)
        | ((long) (digest[offset + 1] & 0xFF) << 8)
        | (digest[offset] & 0xFF);
  }

  private static byte[] md5(String text) {
    try {
      return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has MD5", e);
    }
  }
}
