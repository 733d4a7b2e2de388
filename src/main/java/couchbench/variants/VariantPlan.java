package couchbench.variants;

import couchbench.rounds.Rounds;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What -Dvariants asks for: two or more named variants, each the settings in which it differs, run -Drounds times each
 * in a balanced order ({@link #order}).
 *
 * <p>The form: {@code name:setting=value,setting=value;name:...}, e.g.
 * {@code quickjs:config.couchdb.js_engine=quickjs;sm:config.couchdb.js_engine=spidermonkey}. A variant with no
 * settings is the servers as they are; variants that all have none are an A/A run, which shows the noise.
 *
 * @param variants the variants, the first the one the others are compared with
 * @param rounds the rounds of each
 */
public record VariantPlan(List<Variant> variants, Rounds rounds) {

  /** The run parameter. */
  public static final String PARAMETER = "variants";

  /** The parameter a round's run is given: the variant it measures, which History and the gate keep apart. */
  public static final String VARIANT = "variant";

  /** The most variants a run compares: every one adds its rounds to the run's length. */
  static final int MAX = 8;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

  // A comma starts a new setting only where a name and = follow it: couchdb.url lists a cluster's nodes with commas.
  private static final Pattern SETTING_SEPARATOR = Pattern.compile(",(?=\\s*[A-Za-z][A-Za-z0-9_.-]*=)");

  /** The run parameters that make a run something variants cannot repeat as it is, each with why. */
  private static final Map<String, String> REFUSED_WITH = Map.of(
      "injector", "an injector's share is one part of a run whose other parts run elsewhere at the same time; compare"
          + " variants with one injector, or run bench/injectors.sh once per variant",
      "targets", "a staircase searches its own rates in each run, so that its steps differ between variants; compare"
          + " variants at one -Drate, or run the staircase once per variant",
      "baseline", "the variants are judged against the first variant of the same run: give -Dregression alone");

  /**
   * @param settings the run's settings
   * @return the plan; empty without -Dvariants
   * @throws SettingsException naming -Dvariants and what to fix: a variant without a name, two of one name, two with
   *     the same settings, a setting that is not a server's, fewer than 2 variants, or a parameter variants cannot go
   *     with
   */
  public static Optional<VariantPlan> from(Settings settings) {
    Optional<String> given = settings.value(PARAMETER);
    if (given.isEmpty()) {
      return Optional.empty();
    }
    String text = settings.get(PARAMETER, given.get());
    REFUSED_WITH.forEach((parameter, why) -> settings.value(parameter).ifPresent(value -> {
      throw new SettingsException("-D" + PARAMETER + " cannot go with -D" + parameter + "=" + value + ": " + why);
    }));
    List<Variant> variants = new ArrayList<>();
    for (String part : text.split(";")) {
      if (!part.isBlank()) {
        variants.add(variant(text, part.trim()));
      }
    }
    if (variants.size() < 2 || variants.size() > MAX) {
      throw new SettingsException("-D" + PARAMETER + "=" + text + " names " + variants.size() + " variant"
          + (variants.size() == 1 ? "" : "s") + ": give 2 to " + MAX + ", e.g. -Dvariants=\"a:config.couchdb"
          + ".max_dbs_open=500;b:config.couchdb.max_dbs_open=5000\"");
    }
    Set<String> names = new LinkedHashSet<>();
    Map<Map<String, String>, String> bySettings = new LinkedHashMap<>();
    for (Variant variant : variants) {
      if (!names.add(variant.name())) {
        throw new SettingsException("-D" + PARAMETER + ": two variants are named " + variant.name()
            + ": give each its own name");
      }
      String same = variant.settings().isEmpty() ? null : bySettings.putIfAbsent(variant.settings(), variant.name());
      if (same != null) {
        throw new SettingsException("-D" + PARAMETER + ": variants " + same + " and " + variant.name() + " have the"
            + " same settings: give one of them what it is to differ in (an A/A run, to see the noise, is variants"
            + " with no settings: -Dvariants=\"a;b\")");
      }
    }
    return Optional.of(new VariantPlan(List.copyOf(variants), Rounds.from(settings)));
  }

  private static Variant variant(String text, String part) {
    int colon = part.indexOf(':');
    String name = (colon < 0 ? part : part.substring(0, colon)).trim();
    if (!NAME.matcher(name).matches()) {
      throw new SettingsException("-D" + PARAMETER + "=" + text + ": '" + part + "' does not start with a name"
          + " (letters, digits, - and _) and a colon, e.g. quickjs:config.couchdb.js_engine=quickjs");
    }
    Map<String, String> settings = new LinkedHashMap<>();
    String rest = colon < 0 ? "" : part.substring(colon + 1).trim();
    for (String setting : rest.isEmpty() ? new String[0] : SETTING_SEPARATOR.split(rest)) {
      int equals = setting.indexOf('=');
      String key = equals < 0 ? setting.trim() : setting.substring(0, equals).trim();
      if (equals < 0 || key.isEmpty()) {
        throw new SettingsException("-D" + PARAMETER + ": variant " + name + "'s '" + setting.trim() + "' is not"
            + " name=value");
      }
      settings.put(checked(name, key), setting.substring(equals + 1).trim());
    }
    Variant variant = new Variant(name, settings);
    variant.config(); // refuses a config setting that names no section and key now, not after the first round
    return variant;
  }

  // What a variant may set: what it is to differ in is the server, so that the load is one for all variants.
  private static String checked(String variant, String key) {
    if (key.startsWith(Variant.CONFIG) || key.equals("couchdb.url") || key.equals("memcache.servers")) {
      return key;
    }
    throw new SettingsException("-D" + PARAMETER + ": variant " + variant + " sets " + key + ", which is not a"
        + " server's: a variant sets config.<section>.<key> (a CouchDB setting), couchdb.url or memcache.servers;"
        + " the load's parameters (-D" + key + ") are given once, for every variant");
  }

  /** @return whether a verdict can be given: at least 2 rounds of each variant, so that the noise can be told */
  public boolean judged() {
    return rounds.repeated();
  }

  /** @return the settings of CouchDB servers that some variant changes, in order */
  Set<ConfigKey> configKeys() {
    Set<ConfigKey> keys = new LinkedHashSet<>();
    variants.forEach(variant -> keys.addAll(variant.config().keySet()));
    return keys;
  }

  /**
   * One run of the measured part: a variant's round.
   *
   * @param variant the variant
   * @param round its round, 1 to the rounds
   */
  public record Slot(Variant variant, int round) {}

  /**
   * @return every variant's every round, in a balanced order: round by round, the variants in their order in odd
   *     rounds and in reverse in even ones (A B, B A, A B, ...), so that a machine that drifts over the run weighs on
   *     each alike and no variant always runs first
   */
  public List<Slot> order() {
    List<Slot> slots = new ArrayList<>();
    for (int round : rounds.numbers()) {
      List<Variant> inRound = new ArrayList<>(variants);
      if (round % 2 == 0) {
        java.util.Collections.reverse(inRound);
      }
      inRound.forEach(variant -> slots.add(new Slot(variant, round)));
    }
    return slots;
  }

  /** @return e.g. "2 variants, 3 rounds each, in the order A B, B A, A B" */
  public String describe() {
    return variants.size() + " variants, " + rounds.count() + " round" + (rounds.repeated() ? "s" : "") + " each,"
        + " in a balanced order (the variants' order reversed every other round)";
  }
}
