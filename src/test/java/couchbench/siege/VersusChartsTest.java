package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.report.SummaryPage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    Map<String, SiegeFigures> requests = Map.of(MemcacheWorkloads.SET, figures(500_000, 0.0002),
        MemcacheWorkloads.GET, figures(600_000, 0.0002), CouchWorkloads.SET, figures(5_000, 0.02),
        CouchWorkloads.GET, figures(0, Double.NaN));
    Map<String, SiegeFigures> records = Map.of(MemcacheWorkloads.RECORD_READ, figures(60_000, 0.002),
        MemcacheWorkloads.RECORD_MULTI_READ, figures(300_000, 0.0004), CouchWorkloads.RECORD_READ, figures(8_000, 0.01));

    SummaryPage.titled("t").chart("rates", VersusCharts.rates(requests, records))
        .chart("records", VersusCharts.recordReads(records, 10)).writeTo(folder);

    assertEquals("series,operation,transactions/s (log scale)\n"
        + "memcache,write,50000\nmemcache,read,60000\nmemcache,record read,6000\n"
        + "CouchDB,write,500\nCouchDB,record read,800\n"
        + "memcache multi-get,record read,30000\n", Files.readString(folder.resolve("rates.csv")));
    assertEquals("series,how it is read,mean response time (ms)\n"
        + "CouchDB: 1 request,CouchDB: 1 request,10\nmemcache: 10 gets,memcache: 10 gets,2\n"
        + "memcache: 1 multi-get,memcache: 1 multi-get,0.4\n",
        Files.readString(folder.resolve("records.csv")));
  }
}
