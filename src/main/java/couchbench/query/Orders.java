package couchbench.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The data set: orders of a shop, each owned by one customer, generated from a seed so that every query's exact answer
 * is known before it is asked. A customer is a partition in a partitioned database; the ids are {@code owner:number}
 * in both kinds of database, so that their documents are the same.
 *
 * @param orders every order, by number
 * @param owners how many customers own them
 * @param byOwner each customer's orders, by number: every query asks of one, and is drawn per request
 */
public record Orders(List<Order> orders, int owners, List<List<Order>> byOwner) {

  /** The statuses, each order drawing one: 30% new, 40% paid, 20% shipped, 10% cancelled. */
  public static final List<String> STATUSES = List.of("new", "paid", "shipped", "cancelled");

  /** The tags an order may carry, each with a chance of 30%. */
  public static final List<String> TAGS = List.of("gift", "express", "bulk", "fragile", "sale");

  /** The cities of the delivery addresses: some share a prefix, for $regex. */
  public static final List<String> CITIES = List.of("San Jose", "San Diego", "Santa Fe", "Salem", "Boston", "Austin",
      "Denver", "Dallas", "Seattle", "Portland", "Chicago", "Miami");

  /** Amounts are cents from 0 to this, exclusive; documents written during the load have -1, outside every query. */
  public static final int AMOUNTS = 100_000;

  /** The first timestamp; order i's is this plus a bijection of i: timestamps are unique, and not in id order. */
  public static final long EPOCH = 1_700_000_000L;

  /** 2^31 - 1, prime: i times a number below it, modulo it, never repeats for i below it. */
  static final long TS_MODULUS = 2_147_483_647L;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One order.
   *
   * @param id {@code owner:number}
   * @param owner the customer, {@code c0000}: the partition
   * @param ts when it was placed, seconds since 1970
   * @param status one of {@link #STATUSES}
   * @param amount its total in cents
   * @param tags some of {@link #TAGS}, in their order
   * @param city the delivery address's city
   * @param zip the delivery address's zip code
   */
  public record Order(String id, String owner, long ts, String status, int amount, List<String> tags, String city,
      String zip) {

    /** @return the document: {"_id", "type": "order", "owner", "ts", "status", "amount", "tags", "address"} */
    public ObjectNode json() {
      ObjectNode doc = JSON.createObjectNode().put("_id", id).put("type", "order").put("owner", owner).put("ts", ts)
          .put("status", status).put("amount", amount);
      tags.forEach(doc.putArray("tags")::add);
      doc.putObject("address").put("city", city).put("zip", zip);
      return doc;
    }
  }

  /**
   * Generates the orders.
   *
   * @param count how many
   * @param owners how many customers, each owning every owners-th order
   * @param seed the seed: the same seed, count and owners give the same orders
   * @return the orders
   */
  public static Orders generate(int count, int owners, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Order> orders = new ArrayList<>(count);
    for (int number = 0; number < count; number++) {
      String owner = owner(number % owners);
      int draw = random.nextInt(10);
      String status = STATUSES.get(draw < 3 ? 0 : draw < 7 ? 1 : draw < 9 ? 2 : 3);
      List<String> tags = new ArrayList<>();
      for (String tag : TAGS) {
        if (random.nextInt(10) < 3) {
          tags.add(tag);
        }
      }
      orders.add(new Order(owner + ":" + String.format(Locale.ROOT, "%07d", number), owner,
          EPOCH + (number * 1_103_515_245L) % TS_MODULUS, status, random.nextInt(AMOUNTS), List.copyOf(tags),
          CITIES.get(random.nextInt(CITIES.size())), String.format(Locale.ROOT, "%05d", random.nextInt(100_000))));
    }
    List<List<Order>> byOwner = new ArrayList<>();
    for (int owner = 0; owner < owners; owner++) {
      List<Order> theirs = new ArrayList<>();
      for (int number = owner; number < count; number += owners) {
        theirs.add(orders.get(number));
      }
      byOwner.add(List.copyOf(theirs));
    }
    return new Orders(List.copyOf(orders), owners, List.copyOf(byOwner));
  }

  /**
   * @param number a customer's number, from 0
   * @return its name, e.g. {@code c0042}
   */
  public static String owner(int number) {
    return String.format(Locale.ROOT, "c%04d", number);
  }

  /**
   * @param owner a customer's number, from 0
   * @return its orders, by number
   */
  public List<Order> of(int owner) {
    return byOwner.get(owner);
  }
}
