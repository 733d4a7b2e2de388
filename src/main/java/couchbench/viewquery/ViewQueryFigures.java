package couchbench.viewquery;

import java.util.List;
import java.util.stream.IntStream;

/**
 * ViewQuery's own figures, as results.json keeps them under {@code figures}: what its page shows beyond the entries.
 *
 * @param server the CouchDB loaded, scheme://host:port[/prefix] without a login, for httperf's command line
 * @param indexBuild the first, index-building query, before the load; of a merged run, injector 0's, which set the
 *     view up (the others only read the built index)
 * @param loginRefused whether CouchDB refused the login during the run (of any injector, merged)
 * @param rounds what each round's connections did, round 1 first
 */
public record ViewQueryFigures(String server, IndexBuild indexBuild, boolean loginRefused,
    List<ConnFigures> rounds) {

  /**
   * The figures of a whole run from its injectors': each round's connections together ({@link ConnFigures#merge}),
   * injector 0's index build and server, a refused login if any refused it.
   *
   * @param injectors each injector's figures, injector 0 first
   * @return the run's
   */
  public static ViewQueryFigures merge(List<ViewQueryFigures> injectors) {
    ViewQueryFigures first = injectors.get(0);
    return new ViewQueryFigures(first.server(),
        first.indexBuild(), injectors.stream().anyMatch(ViewQueryFigures::loginRefused),
        IntStream.range(0, first.rounds().size())
            .mapToObj(round -> ConnFigures.merge(injectors.stream().map(each -> each.rounds().get(round)).toList()))
            .toList());
  }
}
