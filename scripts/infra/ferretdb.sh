#!/usr/bin/env bash
# Run FerretDB (MongoDB wire protocol) on its SQLite backend for local tests.
#
#   scripts/infra/ferretdb.sh start|stop|status|restart|build
#
# FerretDB is built from its Go module (Go module proxy), because no package of it can be
# installed here. A plain `go install` produces a binary that panics at start: the generated
# build/version/version.txt is not part of the module, so the script writes it before building.
# The binary is cached outside git in ${LOMO_CACHE_DIR:-$HOME/.cache/lomo}/ferretdb-<version>/.
#
# Environment:
#   FERRETDB_VERSION        module version                         (default 1.24.2)
#   FERRETDB_PORT           listen port on 127.0.0.1               (default 27017)
#   FERRETDB_DATA_DIR       data/state/log/pid dir                 (default <repo>/.data/ferretdb)
#   FERRETDB_CLEAN=1        wipe FERRETDB_DATA_DIR before `start`
#   FERRETDB_START_TIMEOUT  seconds to wait for readiness          (default 30)
#   FERRETDB_LOG_LEVEL      FerretDB --log-level                   (default warn)
#   FERRETDB_BUILD_JOBS     parallel Go build jobs (-p)            (default 2)
#   LOMO_CACHE_DIR          cache root                             (default $HOME/.cache/lomo)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"

FERRETDB_VERSION="${FERRETDB_VERSION:-1.24.2}"
FERRETDB_MODULE="github.com/FerretDB/FerretDB"
HOST="127.0.0.1"
PORT="${FERRETDB_PORT:-27017}"
DATA_DIR="${FERRETDB_DATA_DIR:-$REPO_ROOT/.data/ferretdb}"
START_TIMEOUT="${FERRETDB_START_TIMEOUT:-30}"
STOP_TIMEOUT=15
LOG_LEVEL="${FERRETDB_LOG_LEVEL:-warn}"
BUILD_JOBS="${FERRETDB_BUILD_JOBS:-2}"

CACHE_ROOT="${LOMO_CACHE_DIR:-$HOME/.cache/lomo}"
FERRETDB_CACHE="$CACHE_ROOT/ferretdb-$FERRETDB_VERSION"
BIN="$FERRETDB_CACHE/ferretdb"

SQLITE_DIR="$DATA_DIR/sqlite" # one SQLite file per database
STATE_DIR="$DATA_DIR/state"
OUT_FILE="$DATA_DIR/ferretdb.out" # stdout/stderr (the log goes to stderr)
PID_FILE="$DATA_DIR/ferretdb.pid"

log() { printf '[ferretdb] %s\n' "$*"; }
err() { printf '[ferretdb] ERROR: %s\n' "$*" >&2; }
die() {
  err "$*"
  exit 1
}

require() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' not found on PATH ($2)"
}

# --- helpers -----------------------------------------------------------------

port_open() {
  # TCP connect using bash's /dev/tcp; subshell so the fd is closed right away.
  (exec 3<>"/dev/tcp/$HOST/$PORT") >/dev/null 2>&1
}

read_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  printf '%s' "$pid"
}

# Alive AND really our server (guards against pid reuse after a reboot/crash).
pid_is_ours() {
  local pid="$1"
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "--state-dir=$STATE_DIR" || return 1
  fi
  return 0
}

running_pid() {
  local pid
  pid="$(read_pid)" || return 1
  pid_is_ours "$pid" || return 1
  printf '%s' "$pid"
}

print_log_tail() {
  if [[ -s "$OUT_FILE" ]]; then
    err "---- last 40 lines of $OUT_FILE ----"
    tail -n 40 "$OUT_FILE" >&2 || true
  else
    err "(no log output yet in $OUT_FILE)"
  fi
}

# --- build ---------------------------------------------------------------------

ensure_binary() {
  if [[ -x "$BIN" ]]; then
    log "using cached binary $BIN"
    return 0
  fi
  require go "install Go 1.21+ to build FerretDB from its module"
  mkdir -p "$FERRETDB_CACHE"
  local t0=$SECONDS src="$FERRETDB_CACHE/src.$$" tmp_bin="$BIN.tmp.$$"
  trap 'rm -rf "$src" "$tmp_bin"' EXIT

  log "downloading $FERRETDB_MODULE@v$FERRETDB_VERSION from the Go module proxy (first run only)..."
  local mod_dir
  # The module cache is read-only, and the build needs a file the module lacks: copy it.
  mod_dir="$(go mod download -json "$FERRETDB_MODULE@v$FERRETDB_VERSION" |
    sed -n 's/^[[:space:]]*"Dir":[[:space:]]*"\(.*\)",\{0,1\}$/\1/p')"
  [[ -n "$mod_dir" && -d "$mod_dir" ]] || die "go mod download did not report a module directory"
  rm -rf "$src"
  cp -R "$mod_dir" "$src"
  chmod -R u+w "$src"
  mkdir -p "$src/build/version"
  printf 'v%s' "$FERRETDB_VERSION" >"$src/build/version/version.txt"

  log "building FerretDB v$FERRETDB_VERSION with $BUILD_JOBS job(s); a cold build takes minutes..."
  # -p bounds parallel compile jobs (the machine is shared); -trimpath and -s keep the binary
  # small and free of local paths. CGO is off: FerretDB's SQLite backend is pure Go.
  (cd "$src" && CGO_ENABLED=0 GOFLAGS="-buildvcs=false" go build -p "$BUILD_JOBS" -trimpath \
    -ldflags='-s -w' -o "$tmp_bin" ./cmd/ferretdb) || die "go build failed (see output above)"
  mv -f "$tmp_bin" "$BIN"
  rm -rf "$src"
  trap - EXIT
  log "built $BIN in $((SECONDS - t0))s"
}

# --- commands ------------------------------------------------------------------

wait_ready() {
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT))
  log "waiting up to ${START_TIMEOUT}s for $HOST:$PORT (pid $pid)..."
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      err "FerretDB process $pid exited during startup"
      print_log_tail
      rm -f "$PID_FILE"
      return 1
    fi
    if port_open; then
      return 0
    fi
    sleep 0.2
  done
  err "FerretDB not ready after ${START_TIMEOUT}s (pid $pid still alive; use '$0 stop' to end it)"
  print_log_tail
  return 1
}

cmd_start() {
  local pid t0=$SECONDS
  if pid="$(running_pid)"; then
    if port_open; then
      log "already running (pid $pid) on $HOST:$PORT"
      return 0
    fi
    log "process $pid is alive but not accepting connections yet"
    wait_ready "$pid" || exit 1
    log "ready on $HOST:$PORT (pid $pid)"
    return 0
  fi
  rm -f "$PID_FILE"

  if port_open; then
    die "port $HOST:$PORT is already in use by another process (not started by this script)"
  fi

  ensure_binary

  if [[ "${FERRETDB_CLEAN:-0}" == "1" && -d "$DATA_DIR" ]]; then
    log "FERRETDB_CLEAN=1: wiping $DATA_DIR"
    rm -rf "$DATA_DIR"
  fi
  # --sqlite-url must name an existing directory (with a trailing slash).
  mkdir -p "$SQLITE_DIR" "$STATE_DIR"
  [[ -f "$OUT_FILE" ]] && mv -f "$OUT_FILE" "$OUT_FILE.prev"

  log "starting FerretDB $FERRETDB_VERSION (data: $DATA_DIR)"
  nohup "$BIN" \
    --handler=sqlite \
    --sqlite-url="file:$SQLITE_DIR/" \
    --listen-addr="$HOST:$PORT" \
    --state-dir="$STATE_DIR" \
    --telemetry=disable \
    --log-level="$LOG_LEVEL" \
    --debug-addr=- \
    >"$OUT_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"

  wait_ready "$pid" || exit 1
  log "ready on $HOST:$PORT (pid $pid, $((SECONDS - t0))s)"
}

cmd_stop() {
  local pid
  if ! pid="$(read_pid)"; then
    log "not running (no pid file)"
    return 0
  fi
  if ! pid_is_ours "$pid"; then
    log "not running (stale pid file for $pid removed)"
    rm -f "$PID_FILE"
    return 0
  fi
  log "stopping FerretDB (pid $pid)..."
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    err "FerretDB did not exit within ${STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.2
  fi
  rm -f "$PID_FILE"
  log "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    if port_open; then
      echo "running (pid $pid, $HOST:$PORT, FerretDB $FERRETDB_VERSION, data $DATA_DIR)"
    else
      echo "running (pid $pid) but $HOST:$PORT is not accepting connections yet"
    fi
    return 0
  fi
  echo "stopped"
  return 1
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  build) ensure_binary ;;
  restart)
    cmd_stop
    cmd_start
    ;;
  *)
    echo "usage: $0 start|stop|status|restart|build" >&2
    exit 2
    ;;
esac
