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
POLL_SECONDS=0.2
LOG_LEVEL="${FERRETDB_LOG_LEVEL:-warn}"
BUILD_JOBS="${FERRETDB_BUILD_JOBS:-2}"

CACHE_ROOT="${LOMO_CACHE_DIR:-$HOME/.cache/lomo}"
FERRETDB_CACHE="$CACHE_ROOT/ferretdb-$FERRETDB_VERSION"
BIN="$FERRETDB_CACHE/ferretdb"

SQLITE_DIR="$DATA_DIR/sqlite" # one SQLite file per database
STATE_DIR="$DATA_DIR/state"
OUT_FILE="$DATA_DIR/ferretdb.out" # stdout/stderr (the log goes to stderr)
PID_FILE="$DATA_DIR/ferretdb.pid"

# For lib.sh (see its header).
SERVICE="ferretdb"
NOUN="FerretDB"
PRODUCT="FerretDB $FERRETDB_VERSION"
WAITING_FOR="$HOST:$PORT"
CMDLINE_MARK="--state-dir=$STATE_DIR"
LOG_FILES=("$OUT_FILE")

# shellcheck source=SCRIPTDIR/lib.sh
source "$SCRIPT_DIR/lib.sh"

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

# --- start (cmd_start, cmd_stop and cmd_status are in lib.sh) ------------------

is_ready() { port_open "$PORT"; }

prepare_start() {
  refuse_busy_ports "$PORT"
  ensure_binary
  wipe_data_dir_if FERRETDB_CLEAN
  # --sqlite-url must name an existing directory (with a trailing slash).
  mkdir -p "$SQLITE_DIR" "$STATE_DIR"
}

launch() {
  nohup "$BIN" \
    --handler=sqlite \
    --sqlite-url="file:$SQLITE_DIR/" \
    --listen-addr="$HOST:$PORT" \
    --state-dir="$STATE_DIR" \
    --telemetry=disable \
    --log-level="$LOG_LEVEL" \
    --debug-addr=- \
    >"$OUT_FILE" 2>&1 </dev/null &
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
