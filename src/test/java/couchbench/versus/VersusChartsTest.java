package couchbench.versus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.report.SummaryPage;
import couchbench.requests.CouchRequests;
import couchbench.requests.MemcacheRequests;
import couchbench.rounds.Rounds;
import couchbench.siege.SiegeFigures;
import couchbench.siege.SiegeRounds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersusChartsTest {

  @TempDir
  Path folder;

  /** transactions over 10 s, mean response time in seconds */
  private static SiegeFigures figures(long transactions, double responseTimeSeconds) {
    return new SiegeFigures(transactions, 0, 10, responseTimeSeconds, 1, responseTimeSeconds, responseTimeSeconds);
  }

  @Test
  void shouldDrawEachSystemsRatePerOperationAndLeaveOutOperationsWithoutTransactions() throws IOException {
    Map<String, SiegeFigures> requests = Map.of(MemcacheRequests.SET, figures(500_000, 0.0002),
        MemcacheRequests.GET, figures(600_000, 0.0002), CouchRequests.SET, figures(5_000, 0.02),
        CouchRequests.GET, figures(0, Double.NaN));
    Map<String, SiegeFigures> records = Map.of(MemcacheRequests.RECORD_READ, figures(60_000, 0.002),
        MemcacheRequests.RECORD_MULTI_READ, figures(300_000, 0.0004), CouchRequests.RECORD_READ, figures(8_000, 0.01));

    SiegeRounds once = SiegeRounds.of(Rounds.ONCE, List.copyOf(records.keySet()), records);
    SummaryPage.titled("t").chart("rates", VersusCharts.rates(SiegeRounds.of(Rounds.ONCE,
            List.copyOf(requests.keySet()), requests), once))
        .chart("records", VersusCharts.recordReads(once, 10)).writeTo(folder);

    assertEquals("series,operation,transactions/s (log scale)\n"
        + "memcache,write,50000\nmemcache,read,60000\nmemcache,record read,6000\n"
        + "CouchDB,write,500\nCouchDB,record read,800\n"
        + "memcache multi-get,record read,30000\n", Files.readString(folder.resolve("rates.csv")));
    assertEquals("series,how it is read,mean response time (ms)\n"
        + "CouchDB: 1 request,CouchDB: 1 request,10\nmemcache: 10 gets,memcache: 10 gets,2\n"
        + "memcache: 1 multi-get,memcache: 1 multi-get,0.4\n",
        Files.readString(folder.resolve("records.csv")));
  }

  @Test
  void shouldDrawEachRatesMedianWithTheRangeOfTheRoundsOnTheLogAxis() throws IOException {
    Rounds three = new Rounds(3);
    Map<String, SiegeFigures> requests = Map.of("memcache set round 1", figures(400_000, 0.0002),
        "memcache set round 2", figures(500_000, 0.0002), "memcache set round 3", figures(600_000, 0.0002),
        "couchdb set round 1", figures(6_000, 0.02), "couchdb set round 2", figures(0, Double.NaN),
        "couchdb set round 3", figures(4_000, 0.02));
    Map<String, SiegeFigures> records = Map.of("memcache record read round 1", figures(50_000, 0.002),
        "memcache record read round 2", figures(60_000, 0.004));

    SiegeRounds recordRounds = SiegeRounds.of(three, List.of(MemcacheRequests.RECORD_READ), records);
    SummaryPage.titled("t").chart("rates", VersusCharts.rates(SiegeRounds.of(three,
            List.of(MemcacheRequests.SET, CouchRequests.SET), requests), recordRounds))
        .chart("records", VersusCharts.recordReads(recordRounds, 10)).writeTo(folder);

    assertEquals("series,operation,transactions/s (log scale),smallest round,largest round\n"
        + "memcache,write,50000,40000,60000\nmemcache,record read,5500,5000,6000\n"
        + "CouchDB,write,500,400,600\n", Files.readString(folder.resolve("rates.csv")),
        "a round without transactions has no rate on a log axis: CouchDB's write rests on the two others");
    assertEquals("series,how it is read,mean response time (ms),smallest round,largest round\n"
        + "memcache: 10 gets,memcache: 10 gets,3,2,4\n", Files.readString(folder.resolve("records.csv")));
  }
}
