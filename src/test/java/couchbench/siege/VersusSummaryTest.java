package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.client.FakeMemcache;
import couchbench.memcache.client.FakeMemcache.Answer;
import couchbench.resources.MemcacheResources;
import couchbench.resources.ResourceSnapshot;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The servers' counts against the client's, against a memcache server whose stats have no curr_items, as MemcacheDB
 * 1.2's have not: the check falls back to cmd_set, says so, and puts a disagreement at the top of the page.
 */
class VersusSummaryTest {

  private static final long SETS = 744_346;

  @Test
  void shouldCountMemcacheDbsItemsByCmdSetAndSaySo() throws Exception {
    String html = page(SETS);

    assertTrue(html.contains("memcache&#39;s cmd_set (its stats have no curr_items"), html);
    assertTrue(html.contains("<td>memcache items written</td><td>744346</td><td>744346</td><td>yes</td>"), html);
    assertTrue(!html.contains("<p class=\"warning\">"), "no disagreement: " + html);
  }

  @Test
  void shouldWarnAtTheTopWhenCmdSetDisagrees() throws Exception {
    String html = page(SETS - 1);

    int warning = html.indexOf("memcache items written: the client saw 744345 acknowledged, the server gained 744346");
    assertTrue(warning > 0, html);
    assertTrue(warning < html.indexOf("Targets:"), "the disagreement opens the page: " + html);
    assertTrue(html.contains("<td>memcache items written</td><td>744345</td><td>744346</td><td>NO</td>"), html);
  }

  /** The page of a run whose write phase made the fake server count SETS sets, of which acknowledged were STORED. */
  private static String page(long acknowledged) throws Exception {
    AtomicLong cmdSet = new AtomicLong(1000);
    try (FakeMemcache memcacheDb = new FakeMemcache(command -> Answer.reply(command.equals("stats")
        ? "STAT pid 4242\r\nSTAT version 1.2.1\r\nSTAT cmd_set " + cmdSet.get() + "\r\nSTAT cmd_get 0\r\nEND\r\n"
        : "ERROR\r\n"))) {
      MemcacheTarget target = new MemcacheTarget(List.of("db1.example:" + memcacheDb.address().getPort()), false);
      MemcacheTarget reachable = new MemcacheTarget(List.of("127.0.0.1:" + memcacheDb.address().getPort()), false);
      ResourceSnapshot before = MemcacheResources.snapshot(reachable, List.of());
      cmdSet.addAndGet(SETS);
      ResourceSnapshot after = MemcacheResources.snapshot(reachable, List.of());

      VersusSummary.Phases phases = new VersusSummary.Phases(List.of(new VersusSummary.Round(List.of(),
          new VersusSummary.Acknowledged(acknowledged, 0, 0, 0, 0), Optional.of(before), Optional.of(after),
          Optional.of(after))), List.of(), false);
      return cellsWithoutClasses(VersusSummary.page("CouchVsMemcache", VersusPlan.from(Settings.of(Map.of(), Map.of())), target,
          new CouchTarget("http://db2.example:5984", Optional.empty(), false), phases, Optional.empty()).toHtml());
    }
  }

  private static String cellsWithoutClasses(String html) {
    return html.replace("<td class=\"num\">", "<td>");
  }
}
