package couchbench.memcache.internal;

import couchbench.memcache.codec.MetaRequest;
import io.gatling.javaapi.core.Session;
import java.util.function.Function;

/**
 * What a meta command adds to a {@link MemcacheCommand}: its flag tokens, known when the scenario is built, and a
 * cas to compare and a TTL, resolved per request.
 *
 * @param tokens the flag tokens, single spaces apart, e.g. {@code "T0 F0 MA"}; {@code ""} for none
 * @param base64Key true to send the key base64-encoded, with {@code b}
 * @param quiet true for quiet mode, {@code q}
 * @param compareCas the cas of a {@code C<cas>} token, or null for none
 * @param ttl the TTL of a {@code T<ttl>} token, in place of the one among the tokens; null for the tokens' own
 */
public record MetaOptions(String tokens, boolean base64Key, boolean quiet, Function<Session, Long> compareCas,
    Function<Session, Long> ttl) {

  /**
   * @param tokens the flag tokens a command starts with
   * @return the options, nothing else set
   */
  public static MetaOptions of(String tokens) {
    return new MetaOptions(tokens, false, false, null, null);
  }

  /**
   * Sets the token of one letter, replacing the one there is: {@code withToken('T', "60")} for a TTL of 60 s.
   *
   * @param letter the flag's letter
   * @param token what follows it
   * @return these options with that token
   */
  public MetaOptions withToken(char letter, String token) {
    return withTokens(replaced(tokens, letter, token));
  }

  private static String replaced(String tokens, char letter, String token) {
    StringBuilder kept = new StringBuilder();
    for (String each : tokens.isEmpty() ? new String[0] : tokens.split(" ")) {
      if (each.charAt(0) != letter) {
        kept.append(each).append(' ');
      }
    }
    return kept.append(letter).append(token).toString();
  }

  /**
   * @param more flag tokens added after the ones there are, each checked as {@link MetaRequest#flagsProblem} does
   * @return these options with them
   * @throws IllegalArgumentException for a token that would break the command line, or b, q or O
   */
  public MetaOptions withMore(String... more) {
    String all = String.join(" ", more);
    return withTokens(tokens.isEmpty() ? all : all.isEmpty() ? tokens : tokens + " " + all);
  }

  private MetaOptions withTokens(String changed) {
    MetaRequest.of(MetaRequest.Command.GET, "k", changed, null).flagsProblem().ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
    return new MetaOptions(changed, base64Key, quiet, compareCas, ttl);
  }

  /** @return these options, the key sent base64-encoded */
  public MetaOptions withBase64Key() {
    return new MetaOptions(tokens, true, quiet, compareCas, ttl);
  }

  /** @return these options in quiet mode */
  public MetaOptions withQuiet() {
    return new MetaOptions(tokens, base64Key, true, compareCas, ttl);
  }

  /**
   * @param cas the cas to compare, per request
   * @return these options with a {@code C<cas>} token
   */
  public MetaOptions withCompareCas(Function<Session, Long> cas) {
    return new MetaOptions(tokens, base64Key, quiet, cas, ttl);
  }

  /**
   * @param seconds the TTL, per request
   * @return these options with a {@code T<ttl>} token in place of the one there is
   */
  public MetaOptions withTtl(Function<Session, Long> seconds) {
    return new MetaOptions(tokens, base64Key, quiet, compareCas, seconds);
  }

  /**
   * The request for one session.
   *
   * @param command which meta command
   * @param key the key, null for mn
   * @param value the data block of ms, else null
   * @param delta ma's delta ({@code D<delta>}), else null
   * @param session the virtual user's session
   * @return the request, without opaque tag: the connection tags it
   */
  MetaRequest resolve(MetaRequest.Command command, String key, byte[] value, Function<Session, Long> delta,
      Session session) {
    String flags = ttl == null ? tokens : replaced(tokens, 'T', Long.toString(ttl.apply(session)));
    if (delta != null) {
      flags = (flags.isEmpty() ? "D" : flags + " D") + Long.toUnsignedString(delta.apply(session));
    }
    if (compareCas != null) {
      flags = (flags.isEmpty() ? "C" : flags + " C") + Long.toUnsignedString(compareCas.apply(session));
    }
    return new MetaRequest(command, key, base64Key, flags, value, quiet, -1);
  }
}
