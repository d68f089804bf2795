# shellcheck shell=bash
# What scripts/infra/kafka.sh and scripts/infra/ferretdb.sh share: logging, port probes, the pid
# file, and the start, stop and status commands. Sourced by them, never run on its own.
#
# The sourcing script sets these before calling anything here:
#   SERVICE        log prefix                                   (kafka)
#   NOUN           what messages call the process               (broker)
#   PRODUCT        name and version in `start` and `status`     (Kafka 4.1.1)
#   HOST, PORT     the client listener; it accepting connections means up
#   WAITING_FOR    what `start` says it waits for               (the broker on 127.0.0.1:9092)
#   DATA_DIR       data/config/log/pid dir
#   PID_FILE       pid of the process started here
#   CMDLINE_MARK   text that only that process's command line contains (guards against pid reuse)
#   LOG_FILES      array: its logs; moved to *.prev on start, their tails shown when start fails
#   START_TIMEOUT  seconds to wait for readiness
#   STOP_TIMEOUT   seconds to wait after SIGTERM before SIGKILL
#   POLL_SECONDS   pause between checks while waiting
# and defines these functions for cmd_start:
#   prepare_start  checks and files before a launch (dies when it cannot start)
#   launch         starts the process in the background (`nohup ... &`), so that $! is its pid
#   is_ready       succeeds once the process serves

log() { printf '[%s] %s\n' "$SERVICE" "$*"; }
err() { printf '[%s] ERROR: %s\n' "$SERVICE" "$*" >&2; }
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
  (exec 3<>"/dev/tcp/$HOST/$1") >/dev/null 2>&1
}

# Dies when one of the given ports is taken (by something this script did not start).
refuse_busy_ports() {
  local p
  for p in "$@"; do
    if port_open "$p"; then
      die "port $HOST:$p is already in use by another process (not started by this script)"
    fi
  done
}

# Wipes DATA_DIR when the variable named by $1 (e.g. KAFKA_CLEAN) is 1.
wipe_data_dir_if() {
  if [[ "${!1:-0}" == "1" && -d "$DATA_DIR" ]]; then
    log "$1=1: wiping $DATA_DIR"
    rm -rf "$DATA_DIR"
  fi
}

read_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  printf '%s' "$pid"
}

# Alive AND really ours (guards against pid reuse after a reboot/crash).
pid_is_ours() {
  local pid="$1"
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$CMDLINE_MARK" || return 1
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
  local f shown=0 names
  for f in "${LOG_FILES[@]}"; do
    if [[ -s "$f" ]]; then
      err "---- last 40 lines of $f ----"
      tail -n 40 "$f" >&2 || true
      shown=1
    fi
  done
  names="$(printf ' / %s' "${LOG_FILES[@]}")"
  ((shown)) || err "(no log output yet in ${names:3})"
}

# Fresh logs per run, so a readiness check never sees a previous run's output.
rotate_logs() {
  local f
  for f in "${LOG_FILES[@]}"; do
    if [[ -f "$f" ]]; then
      mv -f "$f" "$f.prev"
    fi
  done
}

wait_ready() {
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT))
  log "waiting up to ${START_TIMEOUT}s for $WAITING_FOR (pid $pid)..."
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      err "$NOUN process $pid exited during startup"
      print_log_tail
      rm -f "$PID_FILE"
      return 1
    fi
    if is_ready; then
      return 0
    fi
    sleep "$POLL_SECONDS"
  done
  err "$NOUN not ready after ${START_TIMEOUT}s (pid $pid still alive; use '$0 stop' to end it)"
  print_log_tail
  return 1
}

# --- commands ------------------------------------------------------------------

cmd_start() {
  local pid t0=$SECONDS
  if pid="$(running_pid)"; then
    if port_open "$PORT"; then
      log "already running (pid $pid) on $HOST:$PORT"
      return 0
    fi
    log "process $pid is alive but not accepting connections yet"
    wait_ready "$pid" || exit 1
    log "ready on $HOST:$PORT (pid $pid)"
    return 0
  fi
  rm -f "$PID_FILE"

  prepare_start
  rotate_logs

  log "starting $PRODUCT (data: $DATA_DIR)"
  launch
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
  log "stopping $NOUN (pid $pid)..."
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep "$POLL_SECONDS"
  done
  if kill -0 "$pid" 2>/dev/null; then
    err "$NOUN did not exit within ${STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep "$POLL_SECONDS"
  fi
  rm -f "$PID_FILE"
  log "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    if port_open "$PORT"; then
      echo "running (pid $pid, $HOST:$PORT, $PRODUCT, data $DATA_DIR)"
    else
      echo "running (pid $pid) but $HOST:$PORT is not accepting connections yet"
    fi
    return 0
  fi
  echo "stopped"
  return 1
}
