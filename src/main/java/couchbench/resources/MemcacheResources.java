package couchbench.resources;

import couchbench.data.ValueSizes;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.startup.Console;
import couchbench.targets.LocalServer;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.TargetException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Memcache's own figures ({@code stats}), summed over a target's servers, and the local memcached's process. */
public final class MemcacheResources {

  /** Items stored now. */
  public static final String CURR_ITEMS = "memcache curr_items";

  /** Set commands received, stored or not: MemcacheDB 1.2's stats have no curr_items, but count these. */
  public static final String CMD_SET = "memcache cmd_set";

  /** Items dropped to make room: a count of items written is only exact while this does not grow. */
  public static final String EVICTIONS = "memcache evictions";

  /** Gets that found their key; a multi-key get counts once per key found. */
  public static final String GET_HITS = "memcache get_hits";

  /** An item's bytes beside its value in memcached: its header, cas, key (couchbench's are 32-64 bytes), line ends. */
  static final int ITEM_OVERHEAD = 128;

  /**
   * The stats read, in the order shown; the rusage ones are CPU seconds as memcache counts them.
   * A stat a server does not report shows as n/a.
   */
  static final List<String> STATS = List.of("curr_items", "bytes", "cmd_get", "cmd_set", "get_hits", "get_misses",
      "evictions", "rusage_user", "rusage_system");

  /**
   * A count of items the servers gained, and the stat it came from.
   *
   * @param counter the figure used, {@link #CURR_ITEMS} or {@link #CMD_SET}
   * @param value its change
   */
  public record ItemsGained(String counter, BigDecimal value) {}

  /**
   * The items the servers gained between two snapshots: curr_items where they report it, else cmd_set. cmd_set also
   * counts a set that was not stored, or one that replaced an item: it equals the STORED replies only as long as
   * every set stored a new key, as a run's random keys do.
   *
   * @param delta the change between two snapshots, {@link ResourceSnapshot#minus}
   * @return the count and its stat; empty when the servers report neither
   */
  public static Optional<ItemsGained> itemsGained(ResourceSnapshot delta) {
    return delta.value(CURR_ITEMS).map(value -> new ItemsGained(CURR_ITEMS, value))
        .or(() -> delta.value(CMD_SET).map(value -> new ItemsGained(CMD_SET, value)));
  }

  private static final Duration WAIT = Duration.ofSeconds(10);

  private static final String EXPIRY_PROBE = "couchbench:expiry-probe";

  private MemcacheResources() {}

  /**
   * Reads the figures now, with the process figures of each server on this machine ({@link ServerProcess}).
   *
   * @param target the memcache servers
   * @return "memcache NAME" for each stat of {@link #STATS}, then for each local server process e.g. "memcached cpu
   *     time (s)", "memcached data directory (bytes)" (n/a: memcached keeps no data on disk) and "memcached resident
   *     memory (bytes)"; the stats are n/a, with one line saying why, when a server does not answer stats
   */
  public static ResourceSnapshot snapshot(MemcacheTarget target) {
    return snapshot(target, ServerProcess.of(target));
  }

  /**
   * Same, with the local server processes given, e.g. one a test started.
   *
   * @param target the memcache servers
   * @param local the processes serving them on this machine, none for servers elsewhere
   * @return the figures
   */
  public static ResourceSnapshot snapshot(MemcacheTarget target, List<LocalServer> local) {
    Optional<List<Map<String, String>>> perServer = statsOrNone(target);
    Map<String, Optional<BigDecimal>> figures = new LinkedHashMap<>();
    for (String name : STATS) {
      figures.put("memcache " + name, perServer.flatMap(all -> sum(all, name)));
    }
    local.forEach(server -> LocalProcess.addFigures(server, figures));
    figures.put(ResourceSnapshot.CLOCK, Optional.of(ResourceSnapshot.clockNow()));
    return new ResourceSnapshot(figures);
  }

  /**
   * One counter, summed over the servers, read now.
   *
   * @param target the memcache servers
   * @param stat e.g. "cmd_set"
   * @return its sum
   * @throws TargetException when a server does not answer stats, or lacks the counter or reports it as no number; the
   *     message names the servers and what they lack, as a count that is n/a gives its reason
   */
  public static long count(MemcacheTarget target, String stat) {
    List<Map<String, String>> perServer = stats(target);
    return sum(perServer, stat).map(BigDecimal::longValueExact)
        .orElseThrow(() -> new TargetException(lacking(target.servers(), perServer, stat)));
  }

  /**
   * One counter, summed over the servers, where every server reports it: MemcacheDB 1.2, for one, has no evictions or
   * limit_maxbytes, having no memory limit to evict at.
   *
   * @param target the memcache servers
   * @param stat e.g. "evictions"
   * @return its sum; empty when a server lacks it
   * @throws TargetException when a server does not answer stats
   */
  public static OptionalLong countIfReported(MemcacheTarget target, String stat) {
    return sum(stats(target), stat).map(sum -> OptionalLong.of(sum.longValueExact())).orElse(OptionalLong.empty());
  }

  /**
   * Which servers lack a stat, and which report it as no number.
   *
   * @param servers "host:port" of each server
   * @param perServer each server's stats, in the same order
   * @param stat e.g. "cmd_set"
   * @return e.g. "memcache server 127.0.0.1:4000 reports no cmd_set"
   */
  static String lacking(List<String> servers, List<Map<String, String>> perServer, String stat) {
    List<String> without = new ArrayList<>();
    List<String> notNumbers = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      String value = perServer.get(i).get(stat);
      if (value == null) {
        without.add(servers.get(i));
      } else if (sum(List.of(perServer.get(i)), stat).isEmpty()) {
        notNumbers.add(servers.get(i));
        values.add("\"" + Console.quote(value) + "\"");
      }
    }
    List<String> parts = new ArrayList<>();
    if (!without.isEmpty()) {
      parts.add(servers(without) + (without.size() == 1 ? " reports" : " report") + " no " + stat);
    }
    if (!notNumbers.isEmpty()) {
      parts.add(servers(notNumbers) + (notNumbers.size() == 1 ? " reports " : " report ") + stat + " as no number ("
          + String.join(", ", values) + ")");
    }
    return String.join("; ", parts);
  }

  private static String servers(List<String> servers) {
    return (servers.size() == 1 ? "memcache server " : "memcache servers ") + String.join(", ", servers);
  }

  /** The servers' stats; none, with one line saying why, when a server does not answer stats (a proxy may not). */
  private static Optional<List<Map<String, String>>> statsOrNone(MemcacheTarget target) {
    try {
      return Optional.of(stats(target));
    } catch (TargetException e) {
      Console.say(e.getMessage() + ": the memcache stats are n/a");
      return Optional.empty();
    }
  }

  /** One stat summed over servers; n/a when a server lacks it or it is not a number. */
  static Optional<BigDecimal> sum(List<Map<String, String>> perServer, String name) {
    BigDecimal total = BigDecimal.ZERO;
    for (Map<String, String> stats : perServer) {
      String value = stats.get(name);
      if (value == null) {
        return Optional.empty();
      }
      try {
        total = total.add(new BigDecimal(value)); // rusage_user is "0.012345": exact, unlike a double
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.of(total);
  }

  /**
   * The servers that have no {@code gets} (and so no {@code cas}): those that answer it ERROR, as MemcacheDB 1.2 does.
   *
   * @param target the memcache servers
   * @return their "host:port", in the target's order; empty when all have gets
   * @throws TargetException when a server does not answer
   */
  public static List<String> withoutGets(MemcacheTarget target) {
    List<MemcacheReply> replies = ask(target, new MemcacheRequest.Retrieve(true,
        List.of("couchbench:gets-probe")), "gets");
    List<String> without = new ArrayList<>();
    for (int i = 0; i < replies.size(); i++) {
      if (replies.get(i) instanceof MemcacheReply.Error) {
        without.add(target.servers().get(i));
      }
    }
    return without;
  }

  /**
   * Before a load that writes values up to -DvalueSize's largest: each server's item size ({@code stats settings}'
   * item_size_max, memcached's -I) must hold it with the item's own bytes (its header, key and line ends, at most
   * {@link #ITEM_OVERHEAD}), so that a value the server would refuse is said before the load. A server that does not
   * say its item size (MemcacheDB) is not checked: its refusals are the load's failed sets.
   *
   * @param target the memcache servers
   * @param sizes -DvalueSize
   * @throws TargetException naming the server, its item size and the fix
   */
  public static void checkLargestValue(MemcacheTarget target, ValueSizes sizes) {
    List<MemcacheReply> replies = ask(target, new MemcacheRequest.Stats("settings"), "stats settings");
    for (int i = 0; i < replies.size(); i++) {
      if (replies.get(i) instanceof MemcacheReply.StatsLines lines && lines.stats().containsKey("item_size_max")) {
        long itemSize = Long.parseLong(lines.stats().get("item_size_max"));
        if (sizes.largest() + ITEM_OVERHEAD > itemSize) {
          throw new TargetException("memcache server " + target.servers().get(i) + " stores items of at most "
              + itemSize + " bytes (its item_size_max, memcached's -I), and -DvalueSize=" + sizes + " reaches "
              + sizes.largest() + " bytes, with about " + ITEM_OVERHEAD + " of the item's own: give sizes up to "
              + (itemSize - ITEM_OVERHEAD) + ", or start memcached with a larger -I");
        }
      }
    }
  }

  /**
   * Before a load whose values expire (-Dexpiry): each server must expire a value when its exptime says. A probe key is
   * set with an exptime a minute past, read, and deleted; a server that still finds it ignores exptime, as MemcacheDB
   * 1.2 does, and every read of an expired key would fail there.
   *
   * @param target the memcache servers
   * @throws TargetException naming the server that kept the value, and the fix
   */
  public static void checkExpiryHonoured(MemcacheTarget target) {
    MemcacheRequest.Store expired = new MemcacheRequest.Store(MemcacheRequest.StoreCommand.SET, EXPIRY_PROBE, 0,
        System.currentTimeMillis() / 1000 - 60, new byte[] {'x'}, 0, false);
    try (MemcacheEnquiries enquiries = new MemcacheEnquiries(target)) {
      enquiries.ask(expired, "a set", WAIT);
      List<MemcacheReply> replies = enquiries.ask(new MemcacheRequest.Retrieve(false, List.of(EXPIRY_PROBE)), "get",
          WAIT);
      enquiries.ask(new MemcacheRequest.Delete(EXPIRY_PROBE, false), "delete", WAIT);
      for (int i = 0; i < replies.size(); i++) {
        if (replies.get(i) instanceof MemcacheReply.Values found && !found.values().isEmpty()) {
          throw new TargetException("memcache server " + target.servers().get(i) + " kept a value whose exptime had"
              + " passed (key " + EXPIRY_PROBE + "): it does not expire values, as MemcacheDB does not, and every"
              + " read of an expired key would fail; leave -Dexpiry out for this server");
        }
      }
    }
  }

  private static List<Map<String, String>> stats(MemcacheTarget target) {
    try (MemcacheEnquiries enquiries = new MemcacheEnquiries(target)) {
      return stats(target, enquiries, WAIT);
    }
  }

  /**
   * @param target the servers asked
   * @param enquiries a connection to each
   * @param wait how long a server may take
   * @return each server's stats, in order
   * @throws TargetException when a server does not answer in time, or answers stats with something else
   */
  static List<Map<String, String>> stats(MemcacheTarget target, MemcacheEnquiries enquiries, Duration wait) {
    List<Map<String, String>> perServer = new ArrayList<>();
    List<MemcacheReply> replies = enquiries.ask(new MemcacheRequest.Stats(""), "stats", wait);
    for (int i = 0; i < replies.size(); i++) {
      if (!(replies.get(i) instanceof MemcacheReply.StatsLines lines)) {
        throw new TargetException("memcache server " + target.servers().get(i) + " answered stats with "
            + replies.get(i));
      }
      perServer.add(lines.stats());
    }
    return perServer;
  }

  private static List<MemcacheReply> ask(MemcacheTarget target, MemcacheRequest request, String what) {
    try (MemcacheEnquiries enquiries = new MemcacheEnquiries(target)) {
      return enquiries.ask(request, what, WAIT);
    }
  }

}
