package couchbench.memcache;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.internal.MemcacheCheckType;
import couchbench.memcache.internal.MemcacheChecks;
import couchbench.memcache.internal.ReplyForGatling;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The memcache text protocol in Gatling's Java DSL:
 * <pre>
 * setUp(...).protocols(memcache.servers("127.0.0.1:21201"));
 * exec(memcache("set").set("#{key}", "#{value}"));
 * exec(memcache("get").get("#{key}").check(bodyString().is("#{value}")));
 * </pre>
 */
public final class MemcacheDsl {

  private MemcacheDsl() {}

  /** Starts the protocol: {@code memcache.servers("host:port", ...)}. */
  public static final MemcacheProtocolBuilder.Base memcache = MemcacheProtocolBuilder.Base.INSTANCE;

  /**
   * Starts a memcache request.
   *
   * @param requestName its name in the report, a Gatling EL string
   * @return the next DSL step: the command
   */
  public static Memcache memcache(String requestName) {
    return new Memcache(El.string(requestName));
  }

  /**
   * Starts a memcache request.
   *
   * @param requestName its name in the report, a function of the session
   * @return the next DSL step: the command
   */
  public static Memcache memcache(Function<Session, String> requestName) {
    return new Memcache(requestName);
  }

  /**
   * The reply's word: STORED, NOT_STORED, EXISTS, NOT_FOUND, DELETED, TOUCHED, VALUE (found), END
   * (nothing found), NUMBER, STATS, ERROR, CLIENT_ERROR, SERVER_ERROR or NOREPLY. A request with
   * this check is judged by it instead of by the default expectation.
   *
   * @return a check builder
   */
  public static CheckBuilder.Find<String> memcacheStatus() {
    return MemcacheChecks.find(MemcacheCheckType.STATUS, "memcacheStatus", String.class,
        ReplyForGatling::responseCode);
  }

  /**
   * How many values a get or gets found.
   *
   * @return a check builder
   */
  public static CheckBuilder.Find<Integer> valueCount() {
    return MemcacheChecks.find(MemcacheCheckType.REPLY, "valueCount", Integer.class,
        reply -> reply instanceof MemcacheReply.Values values ? values.values().size() : null);
  }

  /**
   * The values a get or gets found, key to data as UTF-8 text, in the order of the reply; for
   * checking every value of a multi-key get (the body checks see the first value only).
   *
   * @return a check builder
   */
  @SuppressWarnings("unchecked")
  public static CheckBuilder.Find<Map<String, String>> memcacheValues() {
    return MemcacheChecks.find(MemcacheCheckType.REPLY, "memcacheValues", (Class<Map<String, String>>) (Class<?>) Map.class,
        reply -> {
          if (!(reply instanceof MemcacheReply.Values values)) {
            return null;
          }
          Map<String, String> byKey = new LinkedHashMap<>();
          values.values().forEach(value -> byKey.put(value.key(), new String(value.data(), StandardCharsets.UTF_8)));
          return byKey;
        });
  }

  /**
   * The cas unique of the first value of a gets, to send back with cas.
   *
   * @return a check builder
   */
  public static CheckBuilder.Find<Long> casUnique() {
    return MemcacheChecks.find(MemcacheCheckType.REPLY, "casUnique", Long.class,
        reply -> reply instanceof MemcacheReply.Values values && !values.values().isEmpty()
            && values.values().get(0).casUnique() >= 0
            ? values.values().get(0).casUnique()
            : null);
  }

  /**
   * One statistic of a stats reply, e.g. {@code stat("curr_items")}.
   *
   * @param name the statistic's name
   * @return a check builder
   */
  public static CheckBuilder.Find<String> stat(String name) {
    return MemcacheChecks.find(MemcacheCheckType.REPLY, "stat(" + name + ")", String.class,
        reply -> reply instanceof MemcacheReply.StatsLines stats ? stats.stats().get(name) : null);
  }
}
