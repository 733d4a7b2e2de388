package couchbench.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.distributions.SmoothTurns;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * One virtual user's draws: which search (or write) comes next, by the shares of -Dmix, smoothly interleaved
 * ({@link SmoothTurns}); the words and values asked from the user's own random numbers.
 */
final class SearchUser {

  /**
   * A new document written by the load, of words no search asks for (syllables of the vowel i), a tag no search asks
   * for and n = -1, so that every answer stays known while the index takes it in.
   *
   * @param path where it is PUT
   * @param body the document
   */
  record Write(String path, String body) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> WRITTEN = Corpus.syllables("i");

  private final int number;
  private final String index;
  private final String database;
  private final Corpus corpus;
  private final SplittableRandom random;
  private final List<SearchClass> classes;
  private final SmoothTurns turns;
  private int writes;

  /**
   * @param number the user's number, from 0
   * @param plan the run's plan
   * @param index the index's path
   * @param corpus the data
   */
  SearchUser(int number, SearchPlan plan, String index, Corpus corpus) {
    this.number = number;
    this.index = index;
    this.database = plan.database();
    this.corpus = corpus;
    this.random = new SplittableRandom(plan.seed() * 1_000_003L + number);
    this.classes = new ArrayList<>(plan.shares().keySet());
    List<Integer> weights = new ArrayList<>(plan.shares().values());
    if (plan.mix().writeShare() > 0) {
      classes.add(null);
      weights.add(plan.mix().writeShare());
    }
    this.turns = new SmoothTurns(weights.stream().mapToInt(Integer::intValue).toArray());
  }

  /** @return the next request: a {@link SearchCall} or a {@link Write} */
  Object next() {
    SearchClass next = classes.get(turns.next());
    return next == null ? write() : SearchCall.draw(next, index, corpus, random);
  }

  private Write write() {
    String id = String.format(Locale.ROOT, "write-u%04d-%07d", number, writes++);
    return new Write("/" + database + "/" + id, JSON.createObjectNode().put("title", words(4)).put("body", words(10))
        .put("tag", "written").put("n", -1).put("day", -1).toString());
  }

  private String words(int count) {
    StringBuilder words = new StringBuilder();
    for (int word = 0; word < count; word++) {
      words.append(word == 0 ? "" : " ").append(WRITTEN.get(random.nextInt(WRITTEN.size())))
          .append(WRITTEN.get(random.nextInt(WRITTEN.size())));
    }
    return words.toString();
  }
}
