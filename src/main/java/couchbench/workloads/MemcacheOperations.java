package couchbench.workloads;

import static couchbench.memcache.MemcacheDsl.casUnique;
import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static couchbench.memcache.MemcacheDsl.memcacheValues;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;

import couchbench.memcache.MemcacheActionBuilder;
import couchbench.memcache.MemcacheTimings;
import couchbench.memcache.client.ProtocolErrors;
import couchbench.requests.MemcacheDialect;
import couchbench.resources.MemcacheResources;
import couchbench.startup.Console;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.TargetException;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/**
 * YCSB's operations on memcache. A record is one key, its value all the fields ({@link RecordContent#value}), or with
 * -DrecordLayout=keyPerField one key per field, {@code <key>:<i>} (CouchVsMemcache's layout): then a read is one get
 * of the F keys and a write F sets, one after the other, in a group. A read is one get; an insert or an update writes
 * the record at its next version; a read-modify-write is a gets and a cas of the next version with the cas unique
 * read, which the server refuses with EXISTS when the record changed in between: a conflict, counted apart. A server
 * without gets (MemcacheDB 1.2 answers ERROR), or a record of one key per field, gets a get and a set instead, said in
 * one line. With -Dprotocol=meta, memcached 1.6's meta commands: mg with v (and c for a read-modify-write), ms (with
 * C and the cas unique read for a read-modify-write, refused with EX); a record of one key per field is still read by
 * a text get, the meta protocol having no multi-key get. There is no scan: memcache keys have no order to range over. Every read is checked.
 */
public final class MemcacheOperations extends SystemOperations {

  /** The failure message of a cas answered EXISTS, as Gatling's report and the page count it. */
  public static final String CONFLICT = "conflict: EXISTS (meta: EX), the record changed since its gets";

  private final MemcacheTarget target;
  private final MemcacheTimings timings;
  private final ProtocolErrors connections;
  private final MemcacheDialect dialect;
  private final boolean casWrites;
  private final Optional<Long> cmdSetBefore;

  /**
   * Reads whether the servers have gets, and their cmd_set before the run.
   *
   * @param plan the run's plan
   * @param times where the operations' latencies go
   * @param target the memcache servers
   * @param dialect the protocol the run speaks (-Dprotocol): text, or meta (mg, ms, with ms C for a cas)
   * @param timings where couchbench's client records each request's time (the run's)
   * @param connections where couchbench's client tallies each server's connections (the run's)
   */
  public MemcacheOperations(WorkloadPlan plan, OperationTimes times, MemcacheTarget target, MemcacheDialect dialect,
      MemcacheTimings timings, ProtocolErrors connections) {
    super(WorkloadPlan.MEMCACHE, plan, times);
    this.target = target;
    this.dialect = dialect;
    this.timings = timings;
    this.connections = connections;
    boolean modifies = plan.proportions().get(Operation.READ_MODIFY_WRITE) > 0;
    List<String> withoutGets = modifies && !plan.keyPerField() && dialect == MemcacheDialect.TEXT
        ? MemcacheResources.withoutGets(target) : List.of();
    this.casWrites = modifies && !plan.keyPerField() && withoutGets.isEmpty();
    if (!withoutGets.isEmpty()) {
      Console.say("memcache read-modify-write: " + String.join(", ", withoutGets) + " answer ERROR to gets (no"
          + " gets/cas, as MemcacheDB 1.2): a get and a set instead, and no conflict can be seen");
    }
    this.cmdSetBefore = cmdSet(target);
  }

  @Override
  public ChainBuilder loadInsert() {
    return write(name() + " load", session -> loadClaim(session).key(), session -> 1);
  }

  @Override
  protected ChainBuilder chain(Operation operation) {
    String name = operation.requestName(name());
    return switch (operation) {
      case READ -> read(name);
      case INSERT -> write(name, session -> user(session).key, session -> 1);
      case UPDATE -> exec(this::beginWrite).exec(write(name, session -> user(session).key, this::version));
      case READ_MODIFY_WRITE -> casWrites
          ? group(name).on(exec(readWithCas(name + " read")),
              exec(this::beginWrite).exec(dialect.storeIfUnchanged(memcache(name + " write"),
                      session -> user(session).key,
                      session -> records.content().value(user(session).key, version(session)),
                      session -> user(session).casUnique)
                  .check(conflict(), memcacheStatus().is(dialect.stored()))))
          : group(name).on(read(name + " read"),
              exec(this::beginWrite).exec(write(name + " write", session -> user(session).key, this::version)));
      case SCAN -> throw new IllegalStateException("memcache has no scan: WorkloadPlan leaves memcache out");
    };
  }

  @Override
  protected List<List<String>> mustNotFail(Operation operation) {
    String name = operation.requestName(name());
    // A read of one key per field may find a record torn, counted apart: its read is not in the assertion.
    return switch (operation) {
      case READ -> plan.keyPerField() ? List.of() : List.of(List.of(name));
      case INSERT, UPDATE, SCAN -> List.of(List.of(name));
      case READ_MODIFY_WRITE -> casWrites ? List.of(List.of(name, name + " read"))
          : plan.keyPerField() ? List.of(List.of(name, name + " write"))
          : List.of(List.of(name, name + " read"), List.of(name, name + " write"));
    };
  }

  @Override
  public String describeTarget() {
    return dialect.describe(target);
  }

  @Override
  public ProtocolBuilder protocol() {
    return target.protocol().timings(timings).connectionTally(connections);
  }

  @Override
  protected List<String> notes() {
    List<String> notes = new ArrayList<>();
    if (plan.keyPerField()) {
      notes.add("a record is " + plan.fields() + " keys, one per field (-DrecordLayout=keyPerField): a read is one"
          + " get of them all, a write " + plan.fields() + " sets in a group; a read that finds fields of two"
          + " versions fails as torn");
    }
    if (plan.proportions().get(Operation.UPDATE) > 0) {
      notes.add("update: the whole record written at its next version");
    }
    if (plan.proportions().get(Operation.READ_MODIFY_WRITE) > 0 && !casWrites) {
      notes.add("read-modify-write: a get and a set" + (plan.keyPerField() ? " (a cas per field would not make the"
          + " record's write one)" : " (the servers answer ERROR to gets)") + ": a write between them is lost"
          + " unseen");
    }
    return notes;
  }

  @Override
  protected List<String> serverCounts() {
    long sets = (records.loaded() + records.insertsTried()) * (plan.keyPerField() ? plan.fields() : 1);
    try {
      long cmdSet = MemcacheResources.count(target, "cmd_set") - cmdSetBefore.orElseThrow(() ->
          new TargetException("not read before the load"));
      return List.of("cmd_set grew by " + String.format("%,d", cmdSet) + ": " + String.format("%,d", sets)
          + " sets of the records loaded and inserted, and those of the updates and read-modify-writes");
    } catch (TargetException e) {
      return List.of("cmd_set: n/a (" + e.getMessage() + ")");
    }
  }

  // The server count is a cross-check, not a requirement: a server without cmd_set is measured all the same.
  private static Optional<Long> cmdSet(MemcacheTarget target) {
    try {
      return Optional.of(MemcacheResources.count(target, "cmd_set"));
    } catch (TargetException e) {
      Console.say("memcache cmd_set: n/a (" + e.getMessage() + "): the page shows no server count");
      return Optional.empty();
    }
  }

  // The record at a version: one set, or one per field in a group named as the operation.
  private ChainBuilder write(String name, Function<Session, String> key, ToLongFunction<Session> version) {
    if (!plan.keyPerField()) {
      return exec(dialect.store(memcache(name), key, session -> records.content().value(key.apply(session),
          version.applyAsLong(session))));
    }
    return group(name).on(exec(IntStream.range(0, plan.fields()).mapToObj(i -> exec(dialect.store(
        memcache(name + " field set"), session -> key.apply(session) + ":" + i,
        session -> records.content().fieldValue(key.apply(session), i, version.applyAsLong(session))))).toList()));
  }

  // The drawn record read and checked whole, at least at the version acknowledged when the read began.
  private ChainBuilder read(String name) {
    if (!plan.keyPerField()) {
      return exec(dialect.read(memcache(name), session -> user(session).key).check(readVerdict()));
    }
    return exec(memcache(name).getMulti(session -> IntStream.range(0, plan.fields())
            .mapToObj(i -> user(session).key + ":" + i).toList())
        .check(memcacheValues().transformWithSession((values, session) -> {
          String verdict = records.content().fieldsVerdict(values, user(session).key, user(session).atLeast);
          user(session).torn = verdict.startsWith(RecordContent.TORN);
          return verdict;
        }).is(RecordContent.INTACT).name("record read").logActualValueInError(true)));
  }

  // A gets: the same as a read of one key, and its cas unique kept for the cas.
  private MemcacheActionBuilder readWithCas(String name) {
    return dialect.readWithCas(memcache(name), session -> user(session).key).check(readVerdict(),
        casUnique().transformWithSession((cas, session) -> {
          user(session).casUnique = cas;
          return cas;
        }).exists());
  }

  private CheckBuilder readVerdict() {
    return bodyString().transformWithSession((value, session) -> records.content().valueVerdict(value,
        user(session).key, user(session).atLeast)).is(RecordContent.INTACT).name("record read")
        .logActualValueInError(true);
  }

  // A write of the next version, begun in RecordVersions and ended with the operation.
  private Session beginWrite(Session session) {
    User user = user(session);
    user.write = records.versions().begin(user.keyNumber);
    return session;
  }

  private long version(Session session) {
    return user(session).write.version();
  }

  private CheckBuilder conflict() {
    return memcacheStatus().transformWithSession((word, session) -> {
      if (dialect.changed().equals(word)) {
        user(session).conflict = true;
      }
      return word;
    }).not(dialect.changed()).name(CONFLICT);
  }
}
