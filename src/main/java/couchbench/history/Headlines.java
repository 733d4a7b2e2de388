package couchbench.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import couchbench.history.Headline.Reading;
import couchbench.history.Headline.Round;
import couchbench.results.Histograms;
import couchbench.results.Results;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.HdrHistogram.Histogram;

/**
 * Each simulation's headline figures, as History draws them across runs: how each is read from results.json (its
 * entries, or the simulation's own figures, whose fields docs/results.md gives). A simulation not in the table, or
 * whose runs hold none of its headline, is drawn by its requests' rates ({@link #REQUESTS_A_SECOND}).
 */
final class Headlines {

  /** The fallback: each measured request's rate, as results.json's entries give it. */
  static final Headline REQUESTS_A_SECOND = new Headline("requests a second, per request", "requests/s",
      "each measured request's ratePerSecond in results.json (its count over its first start to its last end)",
      run -> {
        RunFigures figures = RunFigures.of(run);
        return figures.requests().stream().map(request -> new Reading("", request,
            figures.spread(request, Figure.THROUGHPUT))).toList();
      });

  private static final Pattern THREADS = Pattern.compile("^.* (T=\\d+)$");

  private static final Headline DOCUMENTS_A_SECOND = new Headline("documents a second, per B and T", "documents/s",
      "figures.steps: each step's documents acknowledged over its seconds, as BulkInsert's page gives docs/s",
      run -> Headline.overRounds(elements(run, "steps").stream().filter(step -> step.path("seconds").asDouble() > 0)
          .map(step -> {
            String name = RunFigures.rounds(run).withoutRound(step.path("name").asText());
            Matcher threads = THREADS.matcher(name);
            return new Round(threads.matches() ? threads.group(1) : "", name, perSecond(step, "acknowledged"));
          }).toList()));

  private static final Headline OPERATIONS_A_SECOND = new Headline("operations a second, per system",
      "operations/s", "figures.systems: each system's operations run (ok, conflicts, torn, failed) over its seconds,"
          + " as Workload's page gives them", run -> Headline.overRounds(elements(run, "systems").stream()
          .filter(system -> system.path("seconds").asDouble() > 0)
          .map(system -> new Round("", system.path("system").asText(), elements(system, "operations").stream()
              .mapToDouble(operation -> operation.path("ok").asDouble() + operation.path("conflicts").asDouble()
                  + operation.path("torn").asDouble() + operation.path("failed").asDouble()).sum()
              / system.path("seconds").asDouble())).toList()));

  private static final Headline REPLY_RATE = new Headline("replies a second", "replies/s", "figures.rounds: each"
      + " round's replies over the seconds from its first connection's start to its last one's end (httperf's"
      + " test-duration)", run -> Headline.overRounds(elements(run, "rounds").stream()
          .filter(round -> round.path("lastEndMillis").asLong() > round.path("firstStartMillis").asLong())
          .map(round -> new Round("", "replies", round.path("replyMicros").size() * 1000.0
              / (round.path("lastEndMillis").asLong() - round.path("firstStartMillis").asLong()))).toList()));

  private static final Headline REPLY_TIME = new Headline("reply time, mean", Headline.MICROS, "figures.rounds: the"
      + " mean of each round's replyMicros, httperf's \"Reply time [ms]: response\"", run -> Headline.overRounds(
          elements(run, "rounds").stream().filter(round -> !round.path("replyMicros").isEmpty())
              .map(round -> new Round("", "reply time", StreamSupport.stream(round.path("replyMicros").spliterator(),
                  false).mapToDouble(JsonNode::asDouble).average().orElseThrow())).toList()));

  private static final Headline VIEW_BUILD = new Headline("view build time", Headline.MICROS, "figures.indexBuild:"
      + " the first query's time where this run put the design document in place (designOutcome CREATED or REPLACED,"
      + " e.g. with -Dsetup=fresh), so that the query waited for the view's whole build; none where the index was"
      + " there already", run -> {
        JsonNode build = figures(run).path("indexBuild");
        String outcome = build.path("designOutcome").asText();
        return outcome.equals("CREATED") || outcome.equals("REPLACED")
            ? Headline.overRounds(List.of(new Round("", "view build", build.path("millis").asDouble() * 1000)))
            : List.of();
      });

  private static final Headline UPLOAD_TIME = new Headline("upload time, per method and size", Headline.MICROS,
      "figures.uploads: the median of each method's uploads at each size, as AttachmentUpload's page gives them",
      run -> Headline.overRounds(elements(run, "uploads").stream()
          .filter(upload -> !upload.path("figures").path("seconds").isEmpty())
          .map(upload -> new Round(upload.path("key").path("method").asText().toLowerCase(Locale.ROOT),
              upload.path("key").path("method").asText().toLowerCase(Locale.ROOT) + " 10^"
                  + upload.path("key").path("exponent").asInt(), Spread.of(StreamSupport.stream(upload
                  .path("figures").path("seconds").spliterator(), false).map(JsonNode::asDouble).toList()).median()
                  * 1e6)).toList()));

  private static final Headline INDEX_BUILD = new Headline("index build time, per index", Headline.MICROS,
      "figures.builds, the first table of Query's page: each index's build, from the request creating it to a query"
          + " of it answered", run -> Headline.overRounds(elements(run, "builds").stream()
          .map(build -> new Round("", build.path("kind").asText() + " _design/" + build.path("ddoc").asText() + " ("
              + build.path("database").asText() + ")", build.path("seconds").asDouble() * 1e6)).toList()));

  private static final Headline NOTIFICATION_LATENCY = new Headline("notification latency from the acknowledgement,"
      + " per feed", Headline.MICROS, "figures.feeds: the p50 and p99 of each feed's fromAckMicros, the first row of"
      + " Changes' latency table", run -> Headline.overRounds(elements(run, "feeds").stream()
          .flatMap(feed -> percentiles(feed.path("feed").asText() + " ", feed.path("fromAckMicros")).stream())
          .toList()));

  private static final Headline ONE_SHOT_RATE = new Headline("documents replicated a second, per one-shot job",
      "documents/s", "figures.oneShots, the first table of Replicate's page with -Dmode=oneshot: each job's documents"
          + " written over its seconds", run -> Headline.overRounds(elements(run, "oneShots").stream()
          .filter(shot -> shot.path("seconds").asDouble() > 0)
          .map(shot -> new Round("", "job " + shot.path("job").asInt(), perSecond(shot, "docsWritten"))).toList()));

  private static final Headline REPLICATION_LAG = new Headline("replication lag", Headline.MICROS, "figures.lagMicros,"
      + " Replicate's first table with -Dmode=continuous: the p50 and p99 of the writes' lag from their"
      + " acknowledgement", run -> Headline.overRounds(percentiles("", figures(run).path("lagMicros"))));

  private static final Headline REACH = new Headline("time until a write reaches the other clients", Headline.MICROS,
      "figures.reachMicros, the first table of Sync's page: its p50 and p99",
      run -> Headline.overRounds(percentiles("", figures(run).path("reachMicros"))));

  /** The table: a simulation, its headline figures in the order its page gives them. */
  static final Map<String, List<Headline>> BY_SIMULATION = Map.ofEntries(
      Map.entry("BulkInsert", List.of(DOCUMENTS_A_SECOND)),
      Map.entry("Workload", List.of(OPERATIONS_A_SECOND)),
      Map.entry("MemSet", List.of(transactions("memcache set"))),
      Map.entry("MemGet", List.of(transactions("memcache get"))),
      Map.entry("CouchSet", List.of(transactions("couchdb set"))),
      Map.entry("CouchGet", List.of(transactions("couchdb get"))),
      Map.entry("CouchVsMemcache", List.of(transactions("memcache set", "couchdb set", "memcache get",
          "couchdb get"))),
      Map.entry("ViewQuery", List.of(REPLY_RATE, REPLY_TIME, VIEW_BUILD)),
      Map.entry("AttachmentUpload", List.of(UPLOAD_TIME)),
      Map.entry("Query", List.of(INDEX_BUILD)),
      Map.entry("Changes", List.of(NOTIFICATION_LATENCY)),
      Map.entry("Replicate", List.of(ONE_SHOT_RATE, REPLICATION_LAG)),
      Map.entry("Sync", List.of(REACH)));

  private Headlines() {}

  /**
   * @param simulation a simulation's name, as results.json gives it
   * @return its headline figures; {@link #REQUESTS_A_SECOND} for one not in the table
   */
  static List<Headline> of(String simulation) {
    return BY_SIMULATION.getOrDefault(simulation, List.of(REQUESTS_A_SECOND));
  }

  // Siege's transaction rate of each request named: its OK requests over its window, each round's apart.
  private static Headline transactions(String... requests) {
    List<String> named = List.of(requests);
    return new Headline("transactions a second" + (requests.length > 1 ? ", per operation" : ""), "transactions/s",
        "the entries of " + String.join(", ", named) + ": OK requests over the time from the first one's start to the"
            + " last one's end, siege's transaction rate", run -> {
          Rounds rounds = RunFigures.rounds(run);
          List<Round> read = new ArrayList<>();
          for (Results.Entry entry : run.requests()) {
            String request = rounds.withoutRound(entry.name());
            if (entry.kind().equals("request") && !entry.warmUp() && named.contains(request)
                && entry.firstStart() != null && entry.lastEnd() != null) {
              double seconds = Duration.between(Instant.parse(entry.firstStart()), Instant.parse(entry.lastEnd()))
                  .toNanos() / 1e9;
              if (seconds > 0) {
                read.add(new Round("", request, entry.ok() / seconds));
              }
            }
          }
          return Headline.overRounds(read);
        });
  }

  private static JsonNode figures(Results run) {
    return run.figures() == null ? MissingNode.getInstance() : run.figures();
  }

  private static List<JsonNode> elements(Results run, String field) {
    return elements(figures(run), field);
  }

  private static List<JsonNode> elements(JsonNode node, String field) {
    return StreamSupport.stream(node.path(field).spliterator(), false).toList();
  }

  private static double perSecond(JsonNode node, String count) {
    return node.path(count).asDouble() / node.path("seconds").asDouble();
  }

  // The p50 and p99 of a histogram results.json keeps in microseconds; none when it is missing or empty.
  private static List<Round> percentiles(String prefix, JsonNode encoded) {
    if (!encoded.isTextual() || encoded.asText().isEmpty()) {
      return List.of();
    }
    Histogram micros = Histograms.decode(encoded.asText());
    if (micros.getTotalCount() == 0) {
      return List.of();
    }
    return List.of(new Round("", prefix + "p50", micros.getValueAtPercentile(50)),
        new Round("", prefix + "p99", micros.getValueAtPercentile(99)));
  }
}
