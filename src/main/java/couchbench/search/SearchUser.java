package couchbench.search;

import couchbench.distributions.SmoothTurns;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * One virtual user's draws: which search (or write) comes next, by the shares of -Dmix, smoothly interleaved
 * ({@link SmoothTurns}); the words and values asked from the user's own random numbers.
 */
final class SearchUser {

  private final String index;
  private final boolean update;
  private final String database;
  private final Corpus corpus;
  private final SplittableRandom random;
  private final List<SearchClass> classes;
  private final SmoothTurns turns;
  private final LongSupplier writeNumbers;

  /**
   * @param number the user's number, from 0
   * @param plan the run's plan
   * @param index the index's path
   * @param corpus the data
   * @param writeNumbers the run's numbers of writes, each taken once
   */
  SearchUser(int number, SearchPlan plan, String index, Corpus corpus, LongSupplier writeNumbers) {
    this.index = index;
    this.update = plan.update();
    this.writeNumbers = writeNumbers;
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
    return next == null ? Write.of(database, writeNumbers.getAsLong(), random)
        : SearchCall.draw(next, index, update, corpus, random);
  }
}
