package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheKeys;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaRequest;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Connections to every server, for one virtual user (or the usersPerConnection users that share them, or with a
 * shared pool all of them): requests go to the server of their key, several may be outstanding on one connection,
 * and a reply completes its request's future on the connection's event loop.
 */
public final class MemcacheConnections {

  private final KetamaRing ring;
  private final Map<InetSocketAddress, ServerLink[]> links;
  private final AtomicInteger turn = new AtomicInteger();
  private final boolean shared;
  /** Asked when a user closes these connections: true when it was the last one, and they must close. */
  private final Predicate<MemcacheConnections> lastUserLeft;
  /** The virtual users that use these connections; counted by the client, under its lock. */
  private int users;

  MemcacheConnections(KetamaRing ring, Map<InetSocketAddress, ServerLink[]> links, boolean shared,
      Predicate<MemcacheConnections> lastUserLeft) {
    this.ring = ring;
    this.links = links;
    this.shared = shared;
    this.lastUserLeft = lastUserLeft;
  }

  /** @return the users after this one joined */
  int join() {
    return ++users;
  }

  /** @return the users left after this one left */
  int leave() {
    return --users;
  }

  /**
   * Sends a request to the server of its key. A get of several keys goes to each of their servers and the
   * values come back as one reply, in the order of the keys asked. Stats go to the first server: use
   * {@link #sendTo} for the others, and so does a meta mn. A quiet meta request goes as a batch of one
   * ({@link #sendAll}). A request with a bad key fails at once and nothing is written.
   *
   * @param request the request
   * @return its reply; fails with {@link MemcacheFailure}
   */
  public CompletableFuture<MemcacheReply> send(MemcacheRequest request) {
    Optional<MemcacheFailure> invalid = problem(request);
    if (invalid.isPresent()) {
      return CompletableFuture.failedFuture(invalid.get());
    }
    if (request.keys().isEmpty()) {
      return sendChecked(ring.servers().get(0), request);
    }
    if (request instanceof MetaRequest meta && meta.quiet()) {
      return sendAll(List.of(request)).get(0);
    }
    if (request instanceof MemcacheRequest.Retrieve retrieve && retrieve.keys().size() > 1) {
      return MultiGet.send(retrieve, ring::serverFor, this::sendChecked);
    }
    return sendChecked(ring.serverFor(request.keys().get(0)), request);
  }

  /**
   * Sends requests together, as a pipelining client does: those of one connection leave in one write, and their
   * replies come back in order. Each is sent as {@link #send} sends it (a get of several keys, stats, or mn, on its
   * own). Quiet meta requests are followed by an mn on each connection they go to, which closes their batch: its MN
   * completes those the server left unanswered.
   *
   * @param requests the requests, in the order they are written
   * @return their replies, in the same order; each fails on its own with {@link MemcacheFailure}
   */
  public List<CompletableFuture<MemcacheReply>> sendAll(List<MemcacheRequest> requests) {
    List<CompletableFuture<MemcacheReply>> replies = new ArrayList<>(requests.size());
    Map<ServerLink, List<PendingRequest>> byLink = new LinkedHashMap<>();
    for (MemcacheRequest request : requests) {
      boolean alone = problem(request).isPresent() || request.keys().size() != 1;
      if (alone) {
        replies.add(send(request));
        continue;
      }
      CompletableFuture<MemcacheReply> future = new CompletableFuture<>();
      byLink.computeIfAbsent(linkFor(ring.serverFor(request.keys().get(0))), link -> new ArrayList<>())
          .add(new PendingRequest(request, future));
      replies.add(future);
    }
    byLink.forEach((link, batch) -> {
      if (batch.stream().anyMatch(PendingRequest::quiet)) {
        batch.add(new PendingRequest(MetaRequest.noop(), new CompletableFuture<>()));
      }
      link.sendAll(batch);
    });
    return replies;
  }

  /**
   * Sends a request to one given server, whatever its key: e.g. stats of each server.
   *
   * @param server one of the configured servers (an equal InetSocketAddress)
   * @param request the request
   * @return its reply; fails with {@link MemcacheFailure}
   * @throws IllegalArgumentException when the server is not configured
   */
  public CompletableFuture<MemcacheReply> sendTo(InetSocketAddress server, MemcacheRequest request) {
    if (!links.containsKey(server)) {
      throw new IllegalArgumentException("not a configured memcache server: " + server);
    }
    Optional<MemcacheFailure> invalid = problem(request);
    if (invalid.isPresent()) {
      return CompletableFuture.failedFuture(invalid.get());
    }
    return sendChecked(server, request);
  }

  /**
   * This virtual user is done with its connections; the last of the users that share them closes them, failing
   * what is outstanding on them. The shared pool is not closed here but by {@link MemcacheClient#close()}.
   */
  public void close() {
    if (!shared && lastUserLeft.test(this)) {
      closeLinks();
    }
  }

  /** Closes every connection; the futures complete once the channels are closed. */
  List<CompletableFuture<Void>> closeLinks() {
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    for (ServerLink[] serverLinks : links.values()) {
      for (ServerLink link : serverLinks) {
        closing.add(link.close());
      }
    }
    return closing;
  }

  /** @return whether the calling thread is the event loop of one of these connections */
  boolean inOwnEventLoop() {
    return links.values().stream().flatMap(Arrays::stream).anyMatch(ServerLink::inEventLoop);
  }

  private CompletableFuture<MemcacheReply> sendChecked(InetSocketAddress server, MemcacheRequest request) {
    CompletableFuture<MemcacheReply> future = new CompletableFuture<>();
    linkFor(server).send(new PendingRequest(request, future));
    return future;
  }

  /** @return the server's connection, or the next of its pooled ones in turn */
  private ServerLink linkFor(InetSocketAddress server) {
    ServerLink[] serverLinks = links.get(server);
    return serverLinks.length == 1 ? serverLinks[0] : serverLinks[Math.floorMod(turn.getAndIncrement(), serverLinks.length)];
  }

  /** A request that must not be written: a bad key, or a field that would break the command line. */
  private static Optional<MemcacheFailure> problem(MemcacheRequest request) {
    if (request == null) {
      return Optional.of(MemcacheFailure.invalidRequest("no request"));
    }
    if (request instanceof MemcacheRequest.Stats stats) {
      boolean badGroup = stats.group() != null && !stats.group().isEmpty()
          && MemcacheKeys.problem(stats.group()).isPresent();
      return badGroup ? Optional.of(MemcacheFailure.invalidRequest("bad stats group")) : Optional.empty();
    }
    if (request instanceof MemcacheRequest.Store store && (store.command() == null || store.value() == null)) {
      return Optional.of(MemcacheFailure.invalidRequest("storage command without command or value"));
    }
    if (request instanceof MetaRequest meta) {
      return metaProblem(meta);
    }
    List<String> keys = request.keys();
    if (keys == null || keys.isEmpty()) {
      return Optional.of(MemcacheFailure.invalidKey("no key"));
    }
    for (String key : keys) {
      Optional<String> problem = MemcacheKeys.problem(key);
      if (problem.isPresent()) {
        return Optional.of(MemcacheFailure.invalidKey(problem.get()));
      }
    }
    return Optional.empty();
  }

  /** A meta request that must not be written: a bad key or flag, ms without data, q where it means nothing. */
  private static Optional<MemcacheFailure> metaProblem(MetaRequest meta) {
    if (meta.command() == null || (meta.command() == MetaRequest.Command.SET) != (meta.value() != null)) {
      return Optional.of(MemcacheFailure.invalidRequest("meta request without command, or data where ms has it"));
    }
    if (meta.quiet() && !meta.command().tagged()) {
      return Optional.of(MemcacheFailure.invalidRequest("quiet mode applies to mg, ms, md and ma"));
    }
    Optional<String> flags = meta.flagsProblem();
    if (flags.isPresent()) {
      return Optional.of(MemcacheFailure.invalidRequest(flags.get()));
    }
    if (meta.command() == MetaRequest.Command.NOOP) {
      return meta.key() == null ? Optional.empty() : Optional.of(MemcacheFailure.invalidRequest("mn takes no key"));
    }
    return MemcacheKeys.metaProblem(meta.key(), meta.base64Key()).map(MemcacheFailure::invalidKey);
  }

  /** Builds the link table: one link per server, or poolSize of them for a shared pool. */
  static Map<InetSocketAddress, ServerLink[]> linkTable(List<InetSocketAddress> servers, int perServer,
      BiFunction<InetSocketAddress, Integer, ServerLink> link) {
    Map<InetSocketAddress, ServerLink[]> table = new LinkedHashMap<>();
    for (InetSocketAddress server : servers) {
      ServerLink[] serverLinks = new ServerLink[perServer];
      for (int i = 0; i < perServer; i++) {
        serverLinks[i] = link.apply(server, i);
      }
      table.put(server, serverLinks);
    }
    return table;
  }
}
