package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

class Md5KeysTest {

  @Test
  void shouldBeTheMd5OfTheNumbersTextEveryTimeOnEveryThread() throws InterruptedException {
    Set<String> wrong = ConcurrentHashMap.newKeySet();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    for (int t = 0; t < 4; t++) {
      threads.execute(() -> {
        for (long number = -2_000; number < 2_000; number++) {
          if (!Md5Keys.of(number).equals(DigestUtils.md5Hex(Long.toString(number)))) {
            wrong.add(Long.toString(number));
          }
        }
      });
    }
    threads.shutdown();
    assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));

    assertEquals(Set.of(), wrong, "each thread's digest starts afresh for every key");
    assertEquals("a1d0c6e83f027327d8461063f4ac58a6", Md5Keys.of(42), "md5 of \"42\"");
    assertTrue(Md5Keys.random().matches("[0-9a-f]{32}"), "32 lowercase hex characters");
  }
}
