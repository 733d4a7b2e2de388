package couchbench.memcache.codec;

import java.util.List;
import java.util.Optional;

/**
 * A request of memcached's meta protocol (doc/protocol.txt, memcached 1.6), as {@link MetaEncoder} writes it:
 * {@code <command> <key> [<datalen>] [b] [<flags>] [q] [O<opaque>]}, then for ms the data block. Keys are checked
 * by {@link MemcacheKeys#metaProblem} before a request is built into bytes.
 *
 * @param command which command
 * @param key the key as the user gives it, sent as it is, or base64-encoded with {@code b}; null for mn
 * @param base64Key true to send the key's UTF-8 bytes base64-encoded with the {@code b} flag: a key with spaces or
 *     control characters
 * @param flags the other flag tokens, single spaces apart, e.g. {@code "v c t"} or {@code "T0 F0"}; {@code ""} for
 *     none; never b, q or O, which are the fields of their own
 * @param value the data block of ms, else null
 * @param quiet true for {@code q}: the server leaves out the reply that means success ({@link Command#suppressed})
 * @param opaque the number sent as {@code O<opaque>} and echoed in the reply, -1 for none (mn takes none)
 */
public record MetaRequest(
    Command command, String key, boolean base64Key, String flags, byte[] value, boolean quiet, int opaque)
    implements MemcacheRequest {

  /** The meta commands, by their two letters. */
  public enum Command {
    GET("mg"), SET("ms"), DELETE("md"), ARITHMETIC("ma"), DEBUG("me"), NOOP("mn");

    private final String letters;

    Command(String letters) {
      this.letters = letters;
    }

    /** @return the two letters on the wire, e.g. "mg" */
    public String letters() {
      return letters;
    }

    /** @return whether it takes an opaque token and quiet mode: all but me and mn, which echo no {@code O} */
    public boolean tagged() {
      return this != DEBUG && this != NOOP;
    }

    /** @return the reply that {@code q} leaves out: EN (a miss) for mg, HD (done) for the others */
    public MetaReply.Code suppressed() {
      return this == GET ? MetaReply.Code.EN : MetaReply.Code.HD;
    }
  }

  /**
   * A request without opaque tag, not quiet.
   *
   * @param command which command
   * @param key the key, null for mn
   * @param flags the flag tokens, "" for none
   * @param value the data block of ms, else null
   * @return the request
   */
  public static MetaRequest of(Command command, String key, String flags, byte[] value) {
    return new MetaRequest(command, key, false, flags, value, false, -1);
  }

  /** @return {@code mn}, which closes a quiet batch: its MN comes after every reply before it */
  public static MetaRequest noop() {
    return of(Command.NOOP, null, "", null);
  }

  /**
   * @param tag the opaque number, at least 0
   * @return this request tagged with it
   */
  public MetaRequest withOpaque(int tag) {
    return new MetaRequest(command, key, base64Key, flags, value, quiet, tag);
  }

  /**
   * Says what is wrong with the flag tokens, in a phrase that names none of them.
   *
   * @return empty when they may be written, else e.g. "meta flags: b, q and O are set by their own options"
   */
  public Optional<String> flagsProblem() {
    if (flags == null) {
      return Optional.of("meta flags: none given (\"\" for none)");
    }
    boolean tokenStart = true;
    for (int i = 0; i < flags.length(); i++) {
      char c = flags.charAt(i);
      if (c == ' ' && !tokenStart && i + 1 < flags.length()) {
        tokenStart = true;
      } else if (c <= ' ' || c > '~' || (tokenStart && !Character.isLetter(c))) {
        return Optional.of("meta flags: tokens of printable ASCII starting with a letter, single spaces apart");
      } else if (tokenStart && (c == 'b' || c == 'q' || c == 'O')) {
        return Optional.of("meta flags: b, q and O are set by their own options");
      } else {
        tokenStart = false;
      }
    }
    return Optional.empty();
  }

  @Override
  public List<String> keys() {
    return key == null ? List.of() : List.of(key);
  }

  /** @return false: a quiet request is not a noreply one, since it may still be answered */
  @Override
  public boolean noreply() {
    return false;
  }
}
