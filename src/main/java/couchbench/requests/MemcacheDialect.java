package couchbench.requests;

import couchbench.memcache.Memcache;
import couchbench.memcache.MemcacheActionBuilder;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import couchbench.targets.MemcacheTarget;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * Which of memcache's protocols the memcache requests speak, by -Dprotocol: {@code text} (the default: get, set, as
 * MemcacheDB 1.2 and every memcached speak it) or {@code meta} (memcached 1.6's mg, ms, with quiet mode in a
 * pipelined batch). The request names are the same in both, so that Compare pairs a text run with a meta run.
 */
public enum MemcacheDialect {
  TEXT, META;

  /**
   * The protocol the run asks for, read once (and so recorded among the run's parameters).
   *
   * @param settings -Dprotocol
   * @return it
   * @throws SettingsException when it is neither text nor meta
   */
  public static MemcacheDialect asked(Settings settings) {
    String protocol = settings.get("protocol", "text");
    return switch (protocol) {
      case "text" -> TEXT;
      case "meta" -> META;
      default -> throw new SettingsException("-Dprotocol=" + protocol + " is not text or meta");
    };
  }

  /**
   * The protocol the run speaks, said in one line: meta when asked and every server answers the meta protocol's
   * no-op; else text, with one line per server that does not (MemcacheDB 1.2 answers ERROR).
   *
   * @param settings -Dprotocol
   * @param target the memcache servers
   * @return the protocol spoken
   * @throws SettingsException when -Dprotocol is neither text nor meta
   */
  public static MemcacheDialect spokenBy(Settings settings, MemcacheTarget target) {
    return spokenBy(asked(settings), target);
  }

  /**
   * The protocol the run speaks, said in one line, as {@link #spokenBy(Settings, MemcacheTarget)}.
   *
   * @param asked the protocol asked for ({@link #asked})
   * @param target the memcache servers
   * @return the protocol spoken
   */
  public static MemcacheDialect spokenBy(MemcacheDialect asked, MemcacheTarget target) {
    if (asked == TEXT) {
      Console.say("memcache protocol: text (get, set; -Dprotocol=meta for memcached 1.6's meta commands)");
      return TEXT;
    }
    List<String> without = target.withoutMetaProtocol();
    if (!without.isEmpty()) {
      without.forEach(server -> Console.say(server + ": it has no meta protocol; running the text protocol"));
      return TEXT;
    }
    // Not every simulation pipelines: MemSet and MemGet give their -Dpipeline (quiet mg, ms) in their load line.
    Console.say("memcache protocol: meta (memcached 1.6's mg and ms; -Dprotocol=meta)");
    return META;
  }

  /**
   * @param request the request begun, e.g. {@code memcache("memcache set")}
   * @param key its key
   * @param value its value
   * @return a set, or an ms
   */
  public MemcacheActionBuilder store(Memcache request, Function<Session, String> key,
      Function<Session, String> value) {
    return this == META ? request.metaSet(key, value) : request.set(key, value);
  }

  /**
   * @param request the request begun
   * @param key its key
   * @return a get, or an mg with v
   */
  public MemcacheActionBuilder read(Memcache request, Function<Session, String> key) {
    return this == META ? request.metaGet(key).metaFlags("v") : request.get(key);
  }

  /**
   * @param request the request begun
   * @param key its key
   * @return a delete, or an md
   */
  public MemcacheActionBuilder delete(Memcache request, Function<Session, String> key) {
    return this == META ? request.metaDelete(key) : request.delete(key);
  }

  /**
   * @param request the request begun
   * @param key its key
   * @return a gets, or an mg with v and c: the value and its cas unique ({@code casUnique()} reads either)
   */
  public MemcacheActionBuilder readWithCas(Memcache request, Function<Session, String> key) {
    return this == META ? request.metaGet(key).metaFlags("v", "c") : request.gets(key);
  }

  /**
   * @param request the request begun
   * @param key its key
   * @param value its value
   * @param cas the cas unique the value must still have
   * @return a cas, or an ms with C
   */
  public MemcacheActionBuilder storeIfUnchanged(Memcache request, Function<Session, String> key,
      Function<Session, String> value, Function<Session, Long> cas) {
    return this == META ? request.metaSet(key, value).compareCas(cas) : request.cas(key, value, cas);
  }

  /** @return the reply word of a read that found the value: VALUE, or VA */
  public String found() {
    return this == META ? "VA" : "VALUE";
  }

  /** @return the reply word of a read that found nothing: END, or EN */
  public String missing() {
    return this == META ? "EN" : "END";
  }

  /** @return the reply word of a stored value: STORED, or HD */
  public String stored() {
    return this == META ? "HD" : "STORED";
  }

  /** @return the reply word of a store refused because the value's cas unique changed: EXISTS, or EX */
  public String changed() {
    return this == META ? "EX" : "EXISTS";
  }

  /**
   * @param target the memcache servers
   * @return their description, with ", meta protocol" when the run speaks it
   */
  public String describe(MemcacheTarget target) {
    return target.describe() + (this == META ? ", meta protocol" : "");
  }
}
