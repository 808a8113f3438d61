#!/usr/bin/env bash
# Casegraph: run a real Neo4j Community 5.26 server locally, no Docker.
#
#   bash tools/neo4j/run.sh          foreground (Ctrl-C / SIGTERM stops it cleanly)
#   bash tools/neo4j/run.sh start    background; waits for "NEO4J READY" (exit 0) or fails (exit 1)
#   bash tools/neo4j/run.sh stop     SIGTERM + wait up to 30 s
#   bash tools/neo4j/run.sh status   exit 0 if running, 3 if not
#
# Jars come from Maven Central via tools/neo4j/pom.xml (downloaded once into
# tools/neo4j/target/lib, re-fetched only when pom.xml changes). See tools/neo4j/README.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$HERE/../.." && pwd -P)"

DATA_ROOT="${CASEGRAPH_DATA_DIR:-.data}"
case "$DATA_ROOT" in /*) ;; *) DATA_ROOT="$ROOT/$DATA_ROOT" ;; esac
export NEO4J_LOCAL_DIR="${NEO4J_LOCAL_DIR:-$DATA_ROOT/neo4j}"
export NEO4J_LOCAL_PORT="${NEO4J_LOCAL_PORT:-7687}"
PID_FILE="$DATA_ROOT/neo4j.pid"
LOG_FILE="$DATA_ROOT/neo4j.log"
START_TIMEOUT="${NEO4J_LOCAL_START_TIMEOUT:-120}"
STOP_TIMEOUT="${NEO4J_LOCAL_STOP_TIMEOUT:-30}"

TARGET="$HERE/target"
LIB="$TARGET/lib"
LAUNCHER_JAR="$TARGET/neo4j-local.jar"
CDS_ARCHIVE="$TARGET/neo4j-local.jsa"
STAMP="$LIB/.pom.sha256"
SRC="$HERE/Neo4jLocal.java"

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  JAVA="$JAVA_HOME/bin/java"
else
  JAVA="$(command -v java || true)"
fi
# javac/jar from the same JDK as java (resolving /usr/bin/java -> /etc/alternatives -> ...).
JDK_BIN="$(dirname "$(readlink -f "${JAVA:-/nonexistent}")")"
JAVAC="$JDK_BIN/javac"
JAR="$JDK_BIN/jar"

log() { echo "neo4j-local: $*" >&2; }
die() { log "$*"; exit 1; }

check_java() {
  [ -n "$JAVA" ] || die "java not found (install JDK 17 or 21, or set JAVA_HOME)"
  local v major
  v="$("$JAVA" -version 2>&1 | head -n1)"
  major="$(printf '%s\n' "$v" | sed -E 's/.*version "([0-9]+)(\.[0-9]+)*.*/\1/')"
  case "$major" in
    17|21) ;;
    *) log "warning: Neo4j 5.26 supports Java 17 and 21; found: $v" ;;
  esac
}

# Download the jars (only when missing or pom.xml changed) and compile the launcher
# (only when the source changed). Serialised with flock when available.
prepare() {
  mkdir -p "$TARGET"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$TARGET/.lock"
    flock 9
  fi
  local want have=""
  want="$(sha256sum "$HERE/pom.xml" | cut -d' ' -f1)"
  [ -f "$STAMP" ] && have="$(cat "$STAMP")"
  if [ ! -d "$LIB" ] || [ "$want" != "$have" ]; then
    command -v mvn >/dev/null 2>&1 || die "mvn not found (needed once to fetch the Neo4j jars from Maven Central)"
    log "fetching Neo4j jars from Maven Central into $LIB (one-off, ~125 MB) ..."
    rm -rf "$LIB.tmp"
    if ! (cd "$ROOT" && mvn -q -B -f tools/neo4j/pom.xml dependency:copy-dependencies \
        -DoutputDirectory="$LIB.tmp") >"$TARGET/mvn.log" 2>&1; then
      tail -n 40 "$TARGET/mvn.log" >&2
      die "maven failed to fetch the Neo4j jars (full output: $TARGET/mvn.log)"
    fi
    rm -rf "$LIB" "$LAUNCHER_JAR" "$CDS_ARCHIVE"
    mv "$LIB.tmp" "$LIB"
    echo "$want" >"$STAMP"
  fi
  # Pre-compile the single-source launcher into a small jar so each start skips the
  # in-memory compile and can use a class-data-sharing archive (see java_cmd). Falls back
  # to `java Neo4jLocal.java` (source-launch mode) when there is no javac/jar.
  if [ -x "${JAVAC:-}" ] && [ -x "$JAR" ]; then
    if [ ! -f "$LAUNCHER_JAR" ] || [ "$SRC" -nt "$LAUNCHER_JAR" ] || [ "$STAMP" -nt "$LAUNCHER_JAR" ]; then
      rm -rf "$TARGET/classes" "$CDS_ARCHIVE" && mkdir -p "$TARGET/classes"
      "$JAVAC" -nowarn -d "$TARGET/classes" -cp "$LIB/*" "$SRC" || die "could not compile $SRC"
      "$JAR" cf "$LAUNCHER_JAR.tmp" -C "$TARGET/classes" . && mv "$LAUNCHER_JAR.tmp" "$LAUNCHER_JAR"
    fi
  fi
  if command -v flock >/dev/null 2>&1; then
    flock -u 9
    exec 9>&-
  fi
}

java_cmd() {
  local -a opts=(
    -Xms128m "-Xmx${NEO4J_LOCAL_HEAP:-768m}"
    -XX:MaxDirectMemorySize=256m
    -XX:+UseG1GC
    -XX:+ExitOnOutOfMemoryError
    -XX:-OmitStackTraceInFastThrow
    -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints
    -Djdk.nio.maxCachedBufferSize=1024
    -Dio.netty.tryReflectionSetAccessible=true
    -Dlog4j2.disable.jmx=true
    --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens=java.base/java.lang=ALL-UNNAMED
  )
  # shellcheck disable=SC2206 # intentional word splitting of user-supplied extra options
  [ -n "${NEO4J_LOCAL_JAVA_OPTS:-}" ] && opts+=($NEO4J_LOCAL_JAVA_OPTS)
  if [ -f "$LAUNCHER_JAR" ]; then
    # AppCDS: the first run records the loaded classes into a dynamic archive when it exits
    # cleanly; later runs map it, which cuts start-up CPU by roughly a third. Disable with
    # NEO4J_LOCAL_CDS=0. The first clean stop takes ~10 s longer while the archive is written.
    if [ "${NEO4J_LOCAL_CDS:-1}" != "0" ]; then
      local cp="$LAUNCHER_JAR:$LIB/*"
      # Drop the archive if it is tiny (recorded by a run that failed early) or unusable
      # (other JDK, changed jars, half-written): -Xshare:on refuses to start in that case.
      if [ -f "$CDS_ARCHIVE" ] && { [ "$(stat -c %s "$CDS_ARCHIVE")" -lt 30000000 ] \
          || ! "$JAVA" -Xshare:on "-XX:SharedArchiveFile=$CDS_ARCHIVE" -cp "$cp" -version >/dev/null 2>&1; }; then
        rm -f "$CDS_ARCHIVE"
      fi
      if [ -f "$CDS_ARCHIVE" ]; then
        opts+=("-XX:SharedArchiveFile=$CDS_ARCHIVE" "-Xlog:cds*=off")
      else
        opts+=("-XX:ArchiveClassesAtExit=$CDS_ARCHIVE" "-Xlog:cds*=off")
      fi
    fi
    JAVA_ARGS=("$JAVA" "${opts[@]}" -cp "$LAUNCHER_JAR:$LIB/*" Neo4jLocal)
  else
    JAVA_ARGS=("$JAVA" "${opts[@]}" -cp "$LIB/*" "$SRC")
  fi
}

port_busy() { (: <"/dev/tcp/127.0.0.1/$NEO4J_LOCAL_PORT") 2>/dev/null; }

# Prints the pid if the pid file points at a live Neo4jLocal process.
running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  if [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q Neo4jLocal || return 1
  fi
  echo "$pid"
}

cmd_run() {
  check_java
  prepare
  java_cmd
  mkdir -p "$DATA_ROOT" "$NEO4J_LOCAL_DIR"
  if pid="$(running_pid)"; then
    die "already running (pid $pid); use 'bash tools/neo4j/run.sh stop' first"
  fi
  port_busy && die "127.0.0.1:$NEO4J_LOCAL_PORT is already in use by another process (set NEO4J_LOCAL_PORT?)"
  echo $$ >"$PID_FILE" # exec keeps the pid, so stop/status also work for foreground runs
  export NEO4J_LOCAL_EXIT_WITH_PARENT=1
  cd "$ROOT"
  exec "${JAVA_ARGS[@]}"
}

cmd_start() {
  check_java
  if pid="$(running_pid)"; then
    log "already running (pid $pid), log: $LOG_FILE"
    exit 0
  fi
  port_busy && die "127.0.0.1:$NEO4J_LOCAL_PORT is already in use by another process (set NEO4J_LOCAL_PORT?)"
  prepare
  java_cmd
  mkdir -p "$DATA_ROOT" "$NEO4J_LOCAL_DIR"
  cd "$ROOT"
  unset NEO4J_LOCAL_EXIT_WITH_PARENT # the background server outlives this script
  nohup "${JAVA_ARGS[@]}" >"$LOG_FILE" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$PID_FILE"
  log "starting (pid $pid), log: $LOG_FILE"
  local waited=0
  while [ "$waited" -lt "$((START_TIMEOUT * 10))" ]; do
    if grep -q '^NEO4J READY' "$LOG_FILE" 2>/dev/null; then
      grep '^NEO4J READY' "$LOG_FILE"
      exit 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      log "Neo4j exited during startup; last log lines:"
      tail -n 40 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      exit 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  log "not ready after ${START_TIMEOUT}s; stopping it. Last log lines:"
  tail -n 40 "$LOG_FILE" >&2 || true
  stop_pid "$pid" || true
  exit 1
}

# SIGTERM, then wait up to STOP_TIMEOUT s; SIGKILL (exit status 1) if it does not stop.
stop_pid() {
  local pid="$1" waited=0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$((STOP_TIMEOUT * 10))" ]; then
      log "pid $pid did not stop within ${STOP_TIMEOUT}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      rm -f "$PID_FILE"
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  rm -f "$PID_FILE"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    log "not running"
    rm -f "$PID_FILE"
    exit 0
  fi
  stop_pid "$pid" || exit 1
  log "stopped (pid $pid)"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    # Report the port/home the running process was actually started with.
    local port="$NEO4J_LOCAL_PORT" home="$NEO4J_LOCAL_DIR" env
    if env="$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null)"; then
      port="$(printf '%s\n' "$env" | sed -n 's/^NEO4J_LOCAL_PORT=//p' | head -n1)"
      home="$(printf '%s\n' "$env" | sed -n 's/^NEO4J_LOCAL_DIR=//p' | head -n1)"
    fi
    echo "neo4j-local: running (pid $pid), bolt://127.0.0.1:${port:-7687}, home ${home:-?}"
    exit 0
  fi
  echo "neo4j-local: not running"
  exit 3
}

case "${1:-run}" in
  run | foreground) cmd_run ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  -h | --help | help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$1' (use: run | start | stop | status)" ;;
esac
