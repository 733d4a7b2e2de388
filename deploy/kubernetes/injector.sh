#!/bin/sh
# One injector of a scaled-out run, as the Kubernetes Job's pods run it and as bench/injectors.sh runs it on one
# machine: Gatling's main class on the classpath the image was built with (no Maven, no registry, no compiling at run
# time), in a working folder of its own, $OUT/injector-$JOB_COMPLETION_INDEX, that holds everything it writes
# (reports/ with the run folder, data/keys/ with its key file). Its arguments are the -D properties of the run; the
# Job passes -Dinjector=$(JOB_COMPLETION_INDEX)/$(INJECTORS) and -DstartAt=$(START_AT) among them.
#
# Environment: SIMULATION (e.g. MemSet), JOB_COMPLETION_INDEX (I), OUT (default /out), APP (the project, default the
# folder above deploy/), CLASSPATH_FILE (default $APP/target/injector.classpath, written by the image build or by
# bench/injectors.sh), JAVA_OPTS (default -Xmx1g), COLLECT_TIMEOUT (seconds, default 3600), COUCHDB_PASSWORD (read by
# couchbench itself, never put on the command line).
#
# When the run ends it writes $OUT/injector-I/DONE (the run's exit code), then waits until $OUT/collected exists
# (deploy/kubernetes/run.sh creates it once it has copied the folder out with kubectl cp), or COLLECT_TIMEOUT, and
# exits with the run's code: a completed pod's files cannot be copied, so the pod stays up until they are.
set -u
: "${SIMULATION:?set SIMULATION, e.g. MemSet}"
: "${JOB_COMPLETION_INDEX:?set JOB_COMPLETION_INDEX, the injector index I}"
APP=${APP:-$(cd "$(dirname "$0")/../.." && pwd)}
OUT=${OUT:-/out}
CLASSPATH_FILE=${CLASSPATH_FILE:-$APP/target/injector.classpath}
if [ ! -r "$CLASSPATH_FILE" ]; then
  echo "injector: no classpath file $CLASSPATH_FILE: build the image (deploy/kubernetes/Dockerfile) or run bench/injectors.sh" >&2
  exit 1
fi
work=$OUT/injector-$JOB_COMPLETION_INDEX
mkdir -p "$work/reports"
cd "$work" || exit 1
# shellcheck disable=SC2086 # JAVA_OPTS holds several options
java ${JAVA_OPTS:--Xmx1g} --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
  -cp "$APP/target/classes:$APP/target/test-classes:$(cat "$CLASSPATH_FILE")" \
  -Dcouchbench.reports="$work/reports" "$@" \
  io.gatling.app.Gatling --simulation "$SIMULATION" --results-folder "$work/reports"
rc=$?
echo "$rc" > "$work/DONE"
echo "injector $JOB_COMPLETION_INDEX: run ended with exit code $rc; waiting for $OUT/collected (at most ${COLLECT_TIMEOUT:-3600} s)"
waited=0
while [ ! -e "$OUT/collected" ] && [ "$waited" -lt "${COLLECT_TIMEOUT:-3600}" ]; do
  sleep 2
  waited=$((waited + 2))
done
exit "$rc"
