package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class MemcacheKeysTest {

  @Test
  void shouldAcceptKeysOfOneTo250BytesWithoutSpaces() {
    assertEquals(Optional.empty(), MemcacheKeys.problem("k"));
    assertEquals(Optional.empty(), MemcacheKeys.problem("user:42/profile?x=1"));
    assertEquals(Optional.empty(), MemcacheKeys.problem("x".repeat(250)));
    assertEquals(Optional.empty(), MemcacheKeys.problem("é".repeat(125)), "125 two-byte chars are 250 bytes");
    assertEquals(Optional.empty(), MemcacheKeys.problem("ключ😀"));
  }

  @Test
  void shouldGroupProblemsWithoutNamingTheKey() {
    assertEquals(Optional.of("empty key"), MemcacheKeys.problem(""));
    assertEquals(Optional.of("empty key"), MemcacheKeys.problem(null));
    assertEquals(Optional.of("key longer than 250 bytes"), MemcacheKeys.problem("x".repeat(251)));
    assertEquals(Optional.of("key longer than 250 bytes"), MemcacheKeys.problem("é".repeat(126)));
    for (String bad : new String[] {"a b", "a\tb", "a\r\nb", "a\u0000b", "a\u007fb", "a\u0085b", "a\u00a0b",
        "a\u2028b", " "}) {
      assertEquals(Optional.of("key contains whitespace or control characters"), MemcacheKeys.problem(bad), bad);
    }
    assertEquals(Optional.of("key is not valid Unicode text"), MemcacheKeys.problem("a\ud800b"));
  }
}
