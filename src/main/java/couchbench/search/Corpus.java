package couchbench.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.distributions.Zipfian;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The documents a Search run loads, generated from a seed, and what any search of them answers: each field's words
 * with the documents holding them, so that a reply's every hit, total, sort order and facet count is checked exactly.
 *
 * <p>The words are made so that every analyzer's answer is known without running it: lower-case syllables of a
 * consonant and a vowel (a, o or u), which the standard analyzer keeps whole and the English one stems only by
 * dropping a plural "s" (no English stop word, no suffix Porter's algorithm removes, ends such a word). Titles (the
 * standard analyzer) draw them by a zipfian law, as natural text does; bodies (English) draw them the same way, a
 * third of them plural, and a German body (the German analyzer) holds the same words, plural in "e", a French one
 * (the French analyzer) plural in "x"; tags are strings with spaces and capitals (the keyword analyzer: a tag matches
 * whole and case-sensitively); numbers and days are uniform.
 */
final class Corpus {

  /** The tags, a whole value each: "Red Sox" and "red sox" are two. */
  static final List<String> TAGS = List.of("Red Sox", "red sox", "Blue Jays", "Cubs", "New York", "new york", "Mets",
      "Orioles", "Rays", "Twins", "White Sox", "Yankees");

  /** A partitioned database's partitions (-Dpartitioned): document k is in partition p(k mod this). */
  static final int PARTITIONS = 8;

  /** Numbers are from 0 to this, exclusive. */
  static final int NUMBERS = 100_000;

  /** The first day (days since 1970-01-01), and how many days the documents span. */
  static final int FIRST_DAY = 18_000;
  static final int DAYS = 2_000;

  private static final String CONSONANTS = "bdfgkmprvz";
  private static final String VOWELS = "aou";
  private static final int VOCABULARY = 600;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One generated document.
   *
   * @param number its number, from 0
   * @param id its id: {@link #id}, after its partition's name and a colon in a partitioned database
   * @param title its title's words
   * @param body its body's words, some plural
   * @param tag its tag
   * @param n its number field
   * @param day its day
   */
  record Doc(int number, String id, List<String> title, List<String> body, String tag, int n, int day) {

    /** @return the document as it is stored */
    ObjectNode json() {
      ObjectNode doc = JSON.createObjectNode().put("_id", id).put("title", String.join(" ", title))
          .put("body", String.join(" ", body)).put("body_de", germanBody()).put("body_fr", frenchBody())
          .put("tag", tag);
      return doc.put("n", n).put("day", day);
    }

    // The body in German, as it were: the same words, each plural in "e" where the English one is in "s". The German
    // analyzer's normalization folds a vowel and an e (ae, oe, ue) into the vowel, and its light stemmer leaves a
    // word ending in a, o or u alone, so that bakae is found as baka, its root, as bakas is through the English one.
    private String germanBody() {
      return pluralIn("e");
    }

    // The body in French, as it were: each plural in "x" (as chevaux, bijoux). The French analyzer's light stemmer
    // drops a final x from a word of more than 3 letters (turning "aux" into "al" only after an a and a u, which a
    // word of syllables never ends in), then, from a word of more than 4 letters, a final r or e and one of two equal
    // letters ending it; its suffixes all hold an e or an i, and its stop words are no word of these syllables: bakax
    // is found as baka, and baka stays baka.
    private String frenchBody() {
      return pluralIn("x");
    }

    private String pluralIn(String ending) {
      return String.join(" ", body.stream().map(word -> word.endsWith("s") ? word.substring(0, word.length() - 1)
          + ending : word).toList());
    }
  }

  private final List<Doc> docs;
  private final List<String> words;
  private final boolean partitioned;
  private final Map<String, BitSet> inTitles = new HashMap<>();
  private final Map<String, BitSet> inBodies = new HashMap<>();
  private final Map<String, BitSet> tagged = new HashMap<>();
  private final Map<String, BitSet> inPartitions = new HashMap<>();
  private final Map<String, Integer> titleCounts = new HashMap<>();

  private Corpus(List<Doc> docs, List<String> words, boolean partitioned) {
    this.docs = docs;
    this.words = words;
    this.partitioned = partitioned;
    for (Doc doc : docs) {
      doc.title().forEach(word -> inTitles.computeIfAbsent(word, any -> new BitSet()).set(doc.number()));
      doc.body().forEach(word -> inBodies.computeIfAbsent(root(word), any -> new BitSet()).set(doc.number()));
      tagged.computeIfAbsent(doc.tag(), any -> new BitSet()).set(doc.number());
      if (partitioned) {
        inPartitions.computeIfAbsent(partition(doc.number()), any -> new BitSet()).set(doc.number());
      }
    }
    inTitles.forEach((word, holders) -> titleCounts.put(word, holders.cardinality()));
  }

  /**
   * @param count how many documents
   * @param seed the seed: the same seed, the same documents
   * @param partitioned whether each id names its partition ({@link #PARTITIONS}), for a partitioned database
   * @return the documents and their answers
   */
  static Corpus generate(int count, long seed, boolean partitioned) {
    List<String> words = vocabulary(seed);
    Zipfian ranks = new Zipfian(words.size(), 0.99, Zipfian.zeta(words.size(), 0.99),
        RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    SplittableRandom random = new SplittableRandom(seed);
    List<Doc> docs = new ArrayList<>(count);
    for (int number = 0; number < count; number++) {
      List<String> title = new ArrayList<>();
      for (int word = 3 + random.nextInt(4); word > 0; word--) {
        title.add(words.get((int) ranks.next()));
      }
      List<String> body = new ArrayList<>();
      for (int word = 8 + random.nextInt(9); word > 0; word--) {
        body.add(words.get((int) ranks.next()) + (random.nextInt(3) == 0 ? "s" : ""));
      }
      String id = partitioned ? partition(number) + ":" + id(number) : id(number);
      docs.add(new Doc(number, id, List.copyOf(title), List.copyOf(body), TAGS.get(random.nextInt(TAGS.size())),
          random.nextInt(NUMBERS), FIRST_DAY + random.nextInt(DAYS)));
    }
    return new Corpus(List.copyOf(docs), words, partitioned);
  }

  // Every two-syllable word, shuffled by the seed; the first VOCABULARY of them, most frequent first.
  private static List<String> vocabulary(long seed) {
    List<String> all = new ArrayList<>();
    for (String first : syllables(VOWELS)) {
      for (String second : syllables(VOWELS)) {
        all.add(first + second);
      }
    }
    Collections.shuffle(all, new Random(seed));
    return List.copyOf(all.subList(0, VOCABULARY));
  }

  /**
   * @param vowels the vowels of the syllables
   * @return every syllable of a consonant and one of them
   */
  static List<String> syllables(String vowels) {
    List<String> syllables = new ArrayList<>();
    for (char consonant : CONSONANTS.toCharArray()) {
      for (char vowel : vowels.toCharArray()) {
        syllables.add("" + consonant + vowel);
      }
    }
    return syllables;
  }

  /**
   * @param number a document's number
   * @return its id, e.g. doc000042
   */
  static String id(int number) {
    return String.format(Locale.ROOT, "doc%06d", number);
  }

  /**
   * @param number a document's number
   * @return its partition's name, e.g. p3
   */
  static String partition(long number) {
    return "p" + number % PARTITIONS;
  }

  /**
   * @param partitioned whether the database is partitioned
   * @return the partitions a search of every document goes through, each by its own path: "" alone (the whole
   *     database) where it is not partitioned
   */
  static List<String> partitions(boolean partitioned) {
    List<String> partitions = new ArrayList<>();
    for (int partition = 0; partition < (partitioned ? PARTITIONS : 1); partition++) {
      partitions.add(partitioned ? partition(partition) : "");
    }
    return partitions;
  }

  /** @return whether each id names its partition */
  boolean partitioned() {
    return partitioned;
  }

  /**
   * @param id an id of a reply
   * @return its document's number; -1 for an id no generated document has (a write's)
   */
  int number(String id) {
    String plain = id.substring(id.indexOf(':') + 1);
    if (plain.length() != 9 || !plain.startsWith("doc")) {
      return -1;
    }
    try {
      int number = Integer.parseInt(plain.substring(3));
      return number < docs.size() && docs.get(number).id().equals(id) ? number : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** @return the documents, by number */
  List<Doc> docs() {
    return docs;
  }

  /** @return the words, the most frequent first */
  List<String> words() {
    return words;
  }

  /**
   * @param word a word
   * @return how many documents' titles hold it, counted once: a search's draw asks it of every word
   */
  int titleCount(String word) {
    return titleCounts.getOrDefault(word, 0);
  }

  /**
   * @param word a word
   * @return the documents whose title holds it (a copy)
   */
  BitSet inTitles(String word) {
    return (BitSet) inTitles.getOrDefault(word, new BitSet()).clone();
  }

  /**
   * @param word a word, plural or not
   * @return the documents whose body holds it in either form (a copy)
   */
  BitSet inBodies(String word) {
    return (BitSet) inBodies.getOrDefault(root(word), new BitSet()).clone();
  }

  /**
   * @param tag a tag
   * @return the documents with exactly that tag (a copy)
   */
  BitSet tagged(String tag) {
    return (BitSet) tagged.getOrDefault(tag, new BitSet()).clone();
  }

  /**
   * @param matches which words
   * @return the documents whose title holds any of them
   */
  BitSet inTitlesAny(Predicate<String> matches) {
    BitSet any = new BitSet();
    inTitles.forEach((word, holders) -> {
      if (matches.test(word)) {
        any.or(holders);
      }
    });
    return any;
  }

  /**
   * @param partition a partition's name
   * @return the documents in it (a copy)
   */
  BitSet inPartition(String partition) {
    return (BitSet) inPartitions.getOrDefault(partition, new BitSet()).clone();
  }

  /**
   * @param matches which documents
   * @return them
   */
  BitSet where(Predicate<Doc> matches) {
    BitSet chosen = new BitSet();
    docs.forEach(doc -> {
      if (matches.test(doc)) {
        chosen.set(doc.number());
      }
    });
    return chosen;
  }

  // The English analyzer's stem of a word of the vocabulary: its plural's "s" dropped.
  private static String root(String word) {
    return word.endsWith("s") ? word.substring(0, word.length() - 1) : word;
  }
}
