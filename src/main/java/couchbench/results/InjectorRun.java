package couchbench.results;

import couchbench.scaleout.InjectorShare;
import java.nio.file.Path;

/**
 * One injector's run folder, read for a merge.
 *
 * @param folder the run folder
 * @param share which injector of how many it was
 * @param results its results.json
 * @param histograms its histograms.hlog
 */
record InjectorRun(Path folder, InjectorShare share, Results results, Path histograms) {}
