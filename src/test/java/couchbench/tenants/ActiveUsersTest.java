package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.distributions.Distribution;
import java.util.Locale;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class ActiveUsersTest {

  private static final int USERS = 1_000;
  private static final int SESSIONS = 10_000;

  @Test
  void shouldDrawEachUserAlikeWhenUniform() {
    TenantsFigures.Active drawn = draw(Distribution.UNIFORM);

    assertEquals(SESSIONS, drawn.sessions());
    // 10 sessions a user on average: about 1 in 22,000 users has none (e^-10), the busiest about 22.
    assertTrue(drawn.users() >= USERS - 5, drawn.toString());
    assertTrue(drawn.busiest() < 30, drawn.toString());
    assertTrue(drawn.busiestTenth() < SESSIONS * 0.2, "the busiest tenth well under a fifth: " + drawn);
  }

  @Test
  void shouldGiveAFewUsersMostSessionsWhenZipfian() {
    TenantsFigures.Active drawn = draw(Distribution.ZIPFIAN);

    assertEquals(SESSIONS, drawn.sessions());
    // YCSB's scrambled zipfian at 0.99, its popular items hashed over the 1,000 users: here the busiest user had 392
    // sessions (10 on average) and the busiest tenth 31% of them, twice a uniform draw's share.
    assertTrue(drawn.busiestTenth() > SESSIONS / 4, "the busiest tenth more than a quarter: " + drawn);
    assertTrue(drawn.busiest() > 20 * SESSIONS / USERS, "the busiest user 20 times the mean or more: " + drawn);
  }

  @Test
  void shouldSayWhichDrawIsAUsersFirstSession() {
    ActiveUsers users = new ActiveUsers(Distribution.ZIPFIAN, 3, RandomSource.XO_RO_SHI_RO_128_PP.create(7L));
    boolean[] seen = new boolean[3];
    for (int session = 0; session < 100; session++) {
      ActiveUsers.Draw draw = users.next();
      assertTrue(draw.user() >= 0 && draw.user() < 3, draw.toString());
      assertEquals(!seen[draw.user()], draw.first(), draw.toString());
      seen[draw.user()] = true;
    }
  }

  private static TenantsFigures.Active draw(Distribution distribution) {
    ActiveUsers users = new ActiveUsers(distribution, USERS, RandomSource.XO_RO_SHI_RO_128_PP.create(62L));
    for (int session = 0; session < SESSIONS; session++) {
      users.next();
    }
    return users.drawn(distribution.name().toLowerCase(Locale.ROOT));
  }
}
