package couchbench.search;

import couchbench.distributions.SmoothTurns;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * One virtual user's draws: which search (or write) comes next, by the shares of -Dmix, smoothly interleaved
 * ({@link SmoothTurns}), each search asked of every engine of -Dengines; the words and values asked from the user's
 * own random numbers.
 */
final class SearchUser {

  private final String index;
  private final boolean update;
  private final String database;
  private final boolean partitioned;
  private final Corpus corpus;
  private final SplittableRandom random;
  private final List<SearchClass> classes;
  private final List<Engine> engines;
  private final SmoothTurns turns;
  private final LongSupplier writeNumbers;
  private final Deque<SearchCall> asked = new ArrayDeque<>();

  /**
   * @param number the user's number, from 0
   * @param plan the run's plan
   * @param index the index's path
   * @param corpus the data
   * @param writeNumbers the run's numbers of writes, each taken once
   * @param only the one question it asks, of one engine (climbing a staircase alone); empty for the mix's shares, each
   *     search asked of every engine of -Dengines in turn
   */
  SearchUser(int number, SearchPlan plan, String index, Corpus corpus, LongSupplier writeNumbers,
      Optional<SearchPlan.Question> only) {
    this.index = index;
    this.update = plan.update();
    this.writeNumbers = writeNumbers;
    this.database = plan.database();
    this.partitioned = plan.partitioned();
    this.corpus = corpus;
    this.random = new SplittableRandom(plan.seed() * 1_000_003L + number);
    this.classes = new ArrayList<>(only.map(one -> List.of(one.searchClass())).orElse(plan.classes()));
    this.engines = only.map(one -> List.of(one.engine())).orElse(plan.engines());
    List<Integer> weights = new ArrayList<>(only.map(one -> List.of(1)).orElse(List.copyOf(plan.shares().values())));
    if (only.isEmpty() && plan.mix().writeShare() > 0) {
      classes.add(null);
      weights.add(plan.mix().writeShare());
    }
    this.turns = new SmoothTurns(weights.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * @return the next request: a {@link SearchCall} or a {@link Write}; a search drawn is asked of each engine that
   *     answers it in turn, the same question (drawn from the same numbers) of each
   */
  Object next() {
    if (!asked.isEmpty()) {
      return asked.poll();
    }
    SearchClass next = classes.get(turns.next());
    if (next == null) {
      return Write.of(database, writeNumbers.getAsLong(), random, partitioned);
    }
    long draw = random.nextLong();
    engines.stream().filter(engine -> engine.answers(next)).forEach(engine -> asked.add(SearchCall.draw(next,
        engine, index, database, update, corpus, new SplittableRandom(draw))));
    return asked.poll();
  }
}
