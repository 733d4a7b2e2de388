package couchbench.tenants;

import couchbench.distributions.Distribution;
import couchbench.distributions.InsertSequence;
import couchbench.distributions.KeyChooser;
import couchbench.distributions.KeyChoosers;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Which users the sessions of a run with -Dactive=zipfian or uniform are: each session draws its user with
 * couchbench.distributions' key chooser of that distribution over the users (YCSB's scrambled zipfian, constant 0.99,
 * or a uniform draw), so a user may have several sessions at once (its devices) and some none. Each user's sessions
 * are counted, for the figures.
 */
final class ActiveUsers {

  /** YCSB's zipfian constant. */
  private static final double ZIPFIAN_CONSTANT = 0.99;

  private final KeyChooser chooser;
  private final AtomicIntegerArray sessions;

  /**
   * @param distribution zipfian or uniform
   * @param users the users to draw from
   * @param random where the draws come from
   */
  ActiveUsers(Distribution distribution, int users, UniformRandomProvider random) {
    this.chooser = KeyChoosers.of(distribution, users, 0, ZIPFIAN_CONSTANT, new InsertSequence(users), random);
    this.sessions = new AtomicIntegerArray(users);
  }

  /**
   * A session's user.
   *
   * @param user its index
   * @param first whether this is its first session
   */
  record Draw(int user, boolean first) {}

  /** @return the next session's user; counted as one of its sessions */
  synchronized Draw next() {
    int user = (int) chooser.next();
    return new Draw(user, sessions.incrementAndGet(user) == 1);
  }

  /**
   * @param distribution its name, as -Dactive gives it
   * @return what was drawn: sessions, users with one or more, and the sessions of the busiest tenth of the users
   */
  TenantsFigures.Active drawn(String distribution) {
    int[] counts = IntStream.range(0, sessions.length()).map(sessions::get).toArray();
    int[] sorted = Arrays.stream(counts).boxed().sorted((a, b) -> b - a).mapToInt(Integer::intValue).toArray();
    int tenth = Math.max(1, counts.length / 10);
    return new TenantsFigures.Active(distribution, Arrays.stream(counts).sum(),
        (int) Arrays.stream(counts).filter(count -> count > 0).count(), sorted[0],
        Arrays.stream(sorted, 0, tenth).sum());
  }
}
