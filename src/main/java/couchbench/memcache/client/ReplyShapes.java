package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheReply.ErrorKind;
import couchbench.memcache.codec.MemcacheReply.StatusWord;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaReply;
import couchbench.memcache.codec.MetaReply.Code;
import couchbench.memcache.codec.MetaRequest;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which replies each request may get. A reply of another shape means the replies no longer line up with the
 * requests (or the server is not a memcache server), so the connection cannot be trusted any more.
 */
final class ReplyShapes {

  private static final Set<StatusWord> STORE = EnumSet.of(StatusWord.STORED, StatusWord.NOT_STORED);
  private static final Set<StatusWord> CAS = EnumSet.of(StatusWord.STORED, StatusWord.EXISTS, StatusWord.NOT_FOUND);
  private static final Set<StatusWord> DELETE = EnumSet.of(StatusWord.DELETED, StatusWord.NOT_FOUND);
  private static final Set<StatusWord> ARITHMETIC = EnumSet.of(StatusWord.NOT_FOUND);
  private static final Set<StatusWord> TOUCH = EnumSet.of(StatusWord.TOUCHED, StatusWord.NOT_FOUND);

  private static final Map<MetaRequest.Command, Set<Code>> META = new EnumMap<>(Map.of(
      MetaRequest.Command.GET, EnumSet.of(Code.VA, Code.HD, Code.EN),
      MetaRequest.Command.SET, EnumSet.of(Code.HD, Code.NS, Code.EX, Code.NF),
      MetaRequest.Command.DELETE, EnumSet.of(Code.HD, Code.NF, Code.EX),
      MetaRequest.Command.ARITHMETIC, EnumSet.of(Code.VA, Code.HD, Code.NF, Code.NS, Code.EX),
      MetaRequest.Command.DEBUG, EnumSet.of(Code.ME, Code.EN),
      MetaRequest.Command.NOOP, EnumSet.of(Code.MN)));

  private ReplyShapes() {}

  /**
   * Matches a reply to the request it answers.
   *
   * @return the reply to give the request (a bare END to a stats request becomes empty stats)
   * @throws MemcacheFailure when the reply does not fit: the connection must be dropped
   */
  static MemcacheReply fit(MemcacheRequest request, MemcacheReply reply) {
    if (request instanceof MemcacheRequest.Store store) {
      return fitStore(store, reply);
    }
    if (request instanceof MetaRequest meta) {
      return fitMeta(meta, reply);
    }
    if (reply instanceof MemcacheReply.Error) {
      return reply; // the server refused this one request and read no more than its line
    }
    if (request instanceof MemcacheRequest.Retrieve retrieve && reply instanceof MemcacheReply.Values values
        && fitsRetrieve(retrieve, values)) {
      return reply;
    }
    if (request instanceof MemcacheRequest.Stats) {
      if (reply instanceof MemcacheReply.StatsLines) {
        return reply;
      }
      if (reply instanceof MemcacheReply.Values values && values.values().isEmpty()) {
        return new MemcacheReply.StatsLines(Map.of()); // "END" alone: a stats group with nothing in it
      }
    }
    if (request instanceof MemcacheRequest.Arithmetic && reply instanceof MemcacheReply.Number) {
      return reply;
    }
    Set<StatusWord> words = request instanceof MemcacheRequest.Delete ? DELETE
        : request instanceof MemcacheRequest.Arithmetic ? ARITHMETIC
        : request instanceof MemcacheRequest.Touch ? TOUCH
        : Set.of();
    if (reply instanceof MemcacheReply.Status status && words.contains(status.word())) {
      return reply;
    }
    throw MemcacheFailure.outOfStep();
  }

  private static MemcacheReply fitStore(MemcacheRequest.Store store, MemcacheReply reply) {
    Set<StatusWord> words = store.command() == MemcacheRequest.StoreCommand.CAS ? CAS : STORE;
    if (reply instanceof MemcacheReply.Status status && words.contains(status.word())) {
      return reply;
    }
    if (reply instanceof MemcacheReply.Error error) {
      if (error.kind() == ErrorKind.SERVER_ERROR) {
        return reply; // memcached reads and drops the data block before it says so ("object too large")
      }
      // ERROR or CLIENT_ERROR: the server gave up on the line and may now read the data block as a command.
      throw MemcacheFailure.storageRejected(errorLine(error));
    }
    throw MemcacheFailure.outOfStep();
  }

  /** A meta reply of the request's codes with its opaque tag, or an error line; ms is rejected as a storage command is. */
  private static MemcacheReply fitMeta(MetaRequest request, MemcacheReply reply) {
    if (reply instanceof MetaReply meta && META.get(request.command()).contains(meta.code())
        && meta.opaque() == request.opaque()) {
      return reply;
    }
    if (reply instanceof MemcacheReply.Error error) {
      if (request.command() == MetaRequest.Command.SET && error.kind() != ErrorKind.SERVER_ERROR) {
        // memcached 1.6 reads the data block as a command of its own after "CLIENT_ERROR bad command line format".
        throw MemcacheFailure.storageRejected(errorLine(error));
      }
      return reply;
    }
    throw MemcacheFailure.outOfStep();
  }

  /**
   * A get reply lists found keys in the order asked, each at most as often as asked, with a cas unique exactly
   * when asked with gets: a reply meant for another request rarely passes that.
   */
  private static boolean fitsRetrieve(MemcacheRequest.Retrieve retrieve, MemcacheReply.Values values) {
    List<String> keys = retrieve.keys();
    int next = 0;
    for (MemcacheReply.Value value : values.values()) {
      if ((value.casUnique() != -1) != retrieve.withCas()) {
        return false;
      }
      while (next < keys.size() && !keys.get(next).equals(value.key())) {
        next++;
      }
      if (next == keys.size()) {
        return false;
      }
      next++;
    }
    return true;
  }

  /** The error as the server sent it, cut short: its text is the server's own, never a key. */
  private static String errorLine(MemcacheReply.Error error) {
    String line = error.message().isEmpty() ? error.kind().name() : error.kind().name() + " " + error.message();
    return line.length() > 100 ? line.substring(0, 100) : line;
  }
}
