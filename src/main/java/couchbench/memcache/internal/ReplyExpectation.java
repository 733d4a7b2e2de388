package couchbench.memcache.internal;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheReply.StatusWord;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaReply;
import couchbench.memcache.codec.MetaReply.Code;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The outcome a benchmark expects of each command unless told otherwise: storage commands STORED,
 * reads that find every key, deletes and touches that find their key, incr/decr a number; meta
 * commands VA, HD, ME or MN. A miss fails with {@code NOT_FOUND} (meta: EN or NF), since a read of a
 * written key that misses means data was lost, unless the action says misses are fine. Messages are
 * kinds, never per-key text.
 */
final class ReplyExpectation {

  private static final Set<Code> META_DONE = EnumSet.of(Code.VA, Code.HD, Code.ME, Code.MN);
  private static final Set<Code> META_MISS = EnumSet.of(Code.EN, Code.NF);

  private ReplyExpectation() {}

  /**
   * Judges a reply.
   *
   * @param request what was sent
   * @param reply what came back
   * @param missOk true when a missing key is an acceptable outcome
   * @return empty when the reply is as expected, else the failure message
   */
  static Optional<String> failure(MemcacheRequest request, MemcacheReply reply, boolean missOk) {
    if (reply instanceof MemcacheReply.NoReply) {
      return Optional.empty();
    }
    if (reply instanceof MemcacheReply.Error error) {
      return Optional.of((error.kind() + " " + error.message()).strip());
    }
    if (reply instanceof MetaReply meta) {
      boolean fine = META_DONE.contains(meta.code()) || (missOk && META_MISS.contains(meta.code()));
      return fine ? Optional.empty() : Optional.of(meta.code().name());
    }
    if (request instanceof MemcacheRequest.Store) {
      return status(reply, StatusWord.STORED, false);
    }
    if (request instanceof MemcacheRequest.Delete) {
      return status(reply, StatusWord.DELETED, missOk);
    }
    if (request instanceof MemcacheRequest.Touch) {
      return status(reply, StatusWord.TOUCHED, missOk);
    }
    if (request instanceof MemcacheRequest.Arithmetic) {
      return reply instanceof MemcacheReply.Number ? Optional.empty() : status(reply, null, missOk);
    }
    if (request instanceof MemcacheRequest.Stats) {
      return reply instanceof MemcacheReply.StatsLines ? Optional.empty() : unexpected(reply);
    }
    if (!(reply instanceof MemcacheReply.Values values)) {
      return unexpected(reply);
    }
    boolean allFound = values.values().size() >= request.keys().size();
    return allFound || missOk ? Optional.empty() : Optional.of(StatusWord.NOT_FOUND.name());
  }

  private static Optional<String> status(MemcacheReply reply, StatusWord expected, boolean missOk) {
    if (!(reply instanceof MemcacheReply.Status status)) {
      return unexpected(reply);
    }
    if (status.word() == expected || (missOk && status.word() == StatusWord.NOT_FOUND)) {
      return Optional.empty();
    }
    return Optional.of(status.word().name());
  }

  private static Optional<String> unexpected(MemcacheReply reply) {
    return Optional.of("unexpected reply: " + ReplyForGatling.responseCode(reply));
  }
}
