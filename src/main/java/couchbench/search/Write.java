package couchbench.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A new document written by the load, of words no search of the data asks for (syllables of the vowel i), a tag no
 * search asks for and n = -1, so that every answer stays known while the index takes it in; its title starts with a
 * word of its own (its number, a syllable a digit), so that a search finds it and nothing else.
 *
 * @param id its id
 * @param partition its partition in a partitioned database; "" in another
 * @param token the word of its own
 * @param path where it is PUT
 * @param body the document
 */
record Write(String id, String partition, String token, String path, String body) {

  /** Every write's tag, which no search of the data asks for: a search for it finds every write. */
  static final String TAG = "written";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DIGITS = Corpus.syllables("i");

  /**
   * @param database the database
   * @param number the write's number in the run, from 0
   * @param random where its other words come from
   * @param partitioned whether the database is partitioned: the id then names a partition, by the number
   * @return the write
   */
  static Write of(String database, long number, SplittableRandom random, boolean partitioned) {
    String partition = partitioned ? Corpus.partition(number) : "";
    String id = (partitioned ? partition + ":" : "") + String.format(Locale.ROOT, "write-%09d", number);
    String token = token(number);
    String body = JSON.createObjectNode().put("title", token + " " + words(3, random))
        .put("body", words(10, random)).put("body_de", words(10, random))
        .put("body_fr", words(10, random)).put("tag", TAG).put("n", -1).put("day", -1)
        .toString();
    return new Write(id, partition, token, "/" + database + "/" + id, body);
  }

  // Nine digits, a syllable each: write 42 is bibibibibibibikifi.
  static String token(long number) {
    StringBuilder token = new StringBuilder();
    String digits = String.format(Locale.ROOT, "%09d", number);
    for (char digit : digits.toCharArray()) {
      token.append(DIGITS.get(digit - '0'));
    }
    return token.toString();
  }

  private static String words(int count, SplittableRandom random) {
    StringBuilder words = new StringBuilder();
    for (int word = 0; word < count; word++) {
      words.append(word == 0 ? "" : " ").append(DIGITS.get(random.nextInt(DIGITS.size())))
          .append(DIGITS.get(random.nextInt(DIGITS.size())));
    }
    return words.toString();
  }
}
