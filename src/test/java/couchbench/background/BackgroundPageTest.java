package couchbench.background;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.report.SummaryPage;
import couchbench.results.LoadSeconds;
import couchbench.results.RunOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackgroundPageTest {

  private static final long START = 1_000_000_000_000L; // a whole second: second 0 of the load

  @TempDir
  Path folder;

  @Test
  void shouldCompareTheLoadBeforeDuringAndAfterEachTaskBySecond() throws IOException {
    // Ten seconds of 100 OK requests each: 1 ms, but 20 ms in seconds 4 to 6, while a compaction ran from 4.0 to 7.0 s.
    List<LoadSeconds.Second> seconds = new ArrayList<>();
    for (int second = 0; second < 10; second++) {
      Histogram nanos = new Histogram(3);
      nanos.recordValueWithCount(second >= 4 && second < 7 ? 20_000_000 : 1_000_000, 100);
      seconds.add(new LoadSeconds.Second(START / 1000 + second, 100, 0, nanos));
    }
    BackgroundTask compact = new BackgroundTask(BackgroundPlan.Kind.COMPACT, "POST /db/_compact", START + 4_000,
        START + 7_000, List.of(new BackgroundTask.Progress(START + 5_000, 40), new BackgroundTask.Progress(
            START + 6_000, -1)), 2_000_000, 1_000_000, null);
    BackgroundPlan plan = new BackgroundPlan(List.of(BackgroundPlan.Kind.COMPACT), Duration.ofSeconds(4),
        Duration.ofSeconds(10), Duration.ofSeconds(300), Optional.empty(), Optional.empty());

    BackgroundPage.addTo(SummaryPage.titled("CouchGet"), plan, List.of(compact), seconds, START, START,
        START + 10_000)
        .writeTo(folder);

    List<String> tasks = Files.readAllLines(folder.resolve("background-tasks.csv"));
    assertEquals("1 compact,POST /db/_compact,4,7,3,1 of 2 reads,40,2,1,,ended", tasks.get(1));
    List<String> windows = Files.readAllLines(folder.resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    assertEquals(List.of("1 compact,before,0,4,100,1,1,1,1", "1 compact,during,4,7,100,20,20,20,20",
        "1 compact,after,7,10,100,1,1,1,1"), windows.subList(1, 4));
  }

  @Test
  void shouldGiveARefusedTaskNoWindowsAndStartTheNextOnesBeforeWindowAtItsStart() throws IOException {
    List<LoadSeconds.Second> seconds = new ArrayList<>();
    for (int second = 0; second < 10; second++) {
      Histogram nanos = new Histogram(3);
      nanos.recordValueWithCount(1_000_000, 100);
      seconds.add(new LoadSeconds.Second(START / 1000 + second, 100, 0, nanos));
    }
    BackgroundTask refused = new BackgroundTask(BackgroundPlan.Kind.COMPACT, "POST /db/_compact", START + 2_000, -1,
        List.of(), 1_000_000, -1, "refused: 401 unauthorized");
    BackgroundTask view = new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, "a view built", START + 5_000,
        START + 8_000, List.of(new BackgroundTask.Progress(START + 8_000, 100)), 0, 400_000, null);
    BackgroundPlan plan = new BackgroundPlan(List.of(BackgroundPlan.Kind.COMPACT, BackgroundPlan.Kind.VIEWBUILD),
        Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(300), Optional.empty(), Optional.empty());

    BackgroundPage.addTo(SummaryPage.titled("CouchGet"), plan, List.of(refused, view), seconds, START,
        START, START + 10_000).writeTo(folder);

    assertEquals("1 compact,POST /db/_compact,2,,,0 of 0 reads,,1,,,refused: 401 unauthorized",
        Files.readAllLines(folder.resolve("background-tasks.csv")).get(1));
    List<String> windows = Files.readAllLines(folder.resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    assertEquals(List.of("2 viewbuild,before,2,5,100,1,1,1,1", "2 viewbuild,during,5,8,100,1,1,1,1",
        "2 viewbuild,after,8,10,100,1,1,1,1"), windows.subList(1, windows.size()));
  }

  @Test
  void shouldShadeEachTaskFollowedOnTheSecondsChartsFromItsStartToItsEndOrLastRead() {
    BackgroundTask refused = new BackgroundTask(BackgroundPlan.Kind.COMPACT, "POST /db/_compact", START + 1_000, -1,
        List.of(), 1_000_000, -1, "refused: 401 unauthorized");
    BackgroundTask view = new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, "a view built", START + 2_000,
        START + 4_500, List.of(new BackgroundTask.Progress(START + 4_500, 100)), 0, 400_000, null);
    BackgroundTask timedOut = new BackgroundTask(BackgroundPlan.Kind.REPLICATE, "POST /_replicate", START + 6_000, -1,
        List.of(new BackgroundTask.Progress(START + 6_100, 10), new BackgroundTask.Progress(START + 7_200, 30)), 0,
        -1, "did not end within -DbackgroundTimeout=1 s: left to the server");

    assertEquals(List.of(new RunOutput.Span("2 viewbuild", START + 2_000, START + 4_500),
        new RunOutput.Span("3 replicate", START + 6_000, START + 7_200)),
        BackgroundPage.spans(List.of(refused, view, timedOut)), "a refused task never ran: nothing to shade");
  }

  @Test
  void shouldSplitARestartedNodesTimeIntoItsTimeAwayAndItsCatchUp() throws IOException {
    // 1 ms a request, but 5 ms in seconds 3 and 4, while node 3 was away, and 10 ms in second 5, while it caught up.
    List<LoadSeconds.Second> seconds = new ArrayList<>();
    for (int second = 0; second < 9; second++) {
      Histogram nanos = new Histogram(3);
      nanos.recordValueWithCount(second == 5 ? 10_000_000 : second == 3 || second == 4 ? 5_000_000 : 1_000_000, 100);
      seconds.add(new LoadSeconds.Second(START / 1000 + second, 100, 0, nanos));
    }
    BackgroundTask sync = new BackgroundTask(BackgroundPlan.Kind.NODESYNC, "POST /_node/n3/_restart", START + 3_000,
        START + 6_000, List.of(new BackgroundTask.Progress(START + 4_000, 0), new BackgroundTask.Progress(START
            + 5_500, 60), new BackgroundTask.Progress(START + 6_000, 100)), -1, -1, null, START + 5_000,
        "n3 away 2.0 s");
    BackgroundPlan plan = new BackgroundPlan(List.of(BackgroundPlan.Kind.NODESYNC), Duration.ofSeconds(3),
        Duration.ofSeconds(10), Duration.ofSeconds(300), Optional.empty(), Optional.empty());

    BackgroundPage.addTo(SummaryPage.titled("CouchSet"), plan, List.of(sync), seconds, START, START, START + 9_000)
        .writeTo(folder);

    assertEquals("1 nodesync,POST /_node/n3/_restart,3,6,3,3 of 3 reads,100,,,n3 away 2.0 s,ended",
        Files.readAllLines(folder.resolve("background-tasks.csv")).get(1));
    List<String> windows = Files.readAllLines(folder.resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    assertEquals(List.of("1 nodesync,before,0,3,100,1,1,1,1", "1 nodesync,node away,3,5,100,5,5,5,5",
        "1 nodesync,node catching up,5,6,100,10,10,10,10", "1 nodesync,after,6,9,100,1,1,1,1"),
        windows.subList(1, windows.size()));
  }

  @Test
  void shouldStartTheFirstBeforeWindowWhereTheSteadyLoadBegan() throws IOException {
    // A load phase of 5 s at 10 ms (its inserts), then the steady load at 1 ms, a view built in seconds 7 and 8.
    List<LoadSeconds.Second> seconds = new ArrayList<>();
    for (int second = 0; second < 10; second++) {
      Histogram nanos = new Histogram(3);
      nanos.recordValueWithCount(second < 5 ? 10_000_000 : 1_000_000, 100);
      seconds.add(new LoadSeconds.Second(START / 1000 + second, 100, 0, nanos));
    }
    BackgroundTask view = new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, "a view built", START + 7_000,
        START + 9_000, List.of(new BackgroundTask.Progress(START + 9_000, 100)), 0, 400_000, null);
    BackgroundPlan plan = new BackgroundPlan(List.of(BackgroundPlan.Kind.VIEWBUILD), Duration.ofSeconds(2),
        Duration.ofSeconds(10), Duration.ofSeconds(300), Optional.empty(), Optional.empty());

    BackgroundPage.addTo(SummaryPage.titled("Workload"), plan, List.of(view), seconds, START, START + 5_000,
        START + 10_000).writeTo(folder);

    List<String> windows = Files.readAllLines(folder.resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    assertEquals("1 viewbuild,before,5,7,100,1,1,1,1", windows.get(1), "the load phase's seconds are not before");
  }

  @Test
  void shouldCountASecondWithoutARequestInItsWindowAsASecondAtNoRequests() throws IOException {
    // 100 requests a second, but none in second 5, while a compaction ran from 4.0 to 7.0 s: the server stalled.
    // LoadSeconds lists that second, empty, as seconds.csv does.
    List<LoadSeconds.Second> seconds = new ArrayList<>();
    for (int second = 0; second < 10; second++) {
      Histogram nanos = new Histogram(3);
      nanos.recordValueWithCount(1_000_000, second == 5 ? 0 : 100);
      seconds.add(new LoadSeconds.Second(START / 1000 + second, second == 5 ? 0 : 100, 0, nanos));
    }
    BackgroundTask compact = new BackgroundTask(BackgroundPlan.Kind.COMPACT, "POST /db/_compact", START + 4_000,
        START + 7_000, List.of(new BackgroundTask.Progress(START + 6_000, 50)), 2_000_000, 1_000_000, null);
    BackgroundPlan plan = new BackgroundPlan(List.of(BackgroundPlan.Kind.COMPACT), Duration.ofSeconds(4),
        Duration.ofSeconds(10), Duration.ofSeconds(300), Optional.empty(), Optional.empty());

    BackgroundPage.addTo(SummaryPage.titled("CouchGet"), plan, List.of(compact), seconds, START, START,
        START + 10_000).writeTo(folder);

    List<String> windows = Files.readAllLines(folder.resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    // 200 requests over the window's three seconds, not over the two that had requests.
    assertEquals("1 compact,during,4,7,66.7,1,1,1,1", windows.get(2));
  }
}
