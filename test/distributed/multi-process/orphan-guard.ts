/**
 * Preloaded (`-r`) into every app process a drill starts. If the test runner dies without
 * cleaning up (killed, crashed, Ctrl-C), its children are re-parented; each one notices within
 * a second and kills itself, so no app outlives its drill and holds the shared broker's groups
 * or the SQLite files. A process stopped with SIGSTOP cannot notice, which is why the cluster
 * always sends SIGCONT before its last SIGKILL.
 */
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, 1_000).unref();
