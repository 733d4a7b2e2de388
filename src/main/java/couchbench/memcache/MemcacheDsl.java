package couchbench.memcache;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MetaReply;
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
 * The memcache text protocol, and memcached 1.6's meta protocol, in Gatling's Java DSL:
 * <pre>
 * setUp(...).protocols(memcache.servers("127.0.0.1:21201"));
 * exec(memcache("set").set("#{key}", "#{value}"));
 * exec(memcache("get").get("#{key}").check(bodyString().is("#{value}")));
 * exec(memcache("mg").metaGet("#{key}").metaFlags("v", "t").check(bodyString().is("#{value}"), metaFlag('t').is("-1")));
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
   * (nothing found), NUMBER, STATS, ERROR, CLIENT_ERROR, SERVER_ERROR or NOREPLY; a meta reply's code:
   * VA, HD, EN, NS, EX, NF, MN or ME. A request with this check is judged by it instead of by the
   * default expectation.
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
   * The cas unique of the first value of a gets, or of a meta reply's {@code c} flag, to send back with cas or
   * compareCas.
   *
   * @return a check builder
   */
  public static CheckBuilder.Find<Long> casUnique() {
    return MemcacheChecks.find(MemcacheCheckType.REPLY, "casUnique", Long.class, reply -> {
      if (reply instanceof MetaReply meta) {
        return meta.flag('c').map(Long::parseUnsignedLong).orElse(null);
      }
      return reply instanceof MemcacheReply.Values values && !values.values().isEmpty()
          && values.values().get(0).casUnique() >= 0 ? values.values().get(0).casUnique() : null;
    });
  }

  /**
   * A flag a meta reply returned, its token without the letter: {@code metaFlag('t')} the TTL left (-1: none),
   * {@code metaFlag('h')} whether it was hit before (0 or 1), {@code metaFlag('W')} "" when this client won the
   * recache; not found when the reply has no such flag.
   *
   * @param letter the flag's letter, e.g. 'c', 't', 'f', 's', 'l', 'h', 'k', 'W', 'X', 'Z'
   * @return a check builder
   */
  public static CheckBuilder.Find<String> metaFlag(char letter) {
    return MemcacheChecks.find(MemcacheCheckType.REPLY, "metaFlag(" + letter + ")", String.class,
        reply -> reply instanceof MetaReply meta ? meta.flag(letter).orElse(null) : null);
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
