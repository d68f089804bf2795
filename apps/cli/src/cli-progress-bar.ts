import { SingleBar, Presets } from 'cli-progress';

export interface ProgressReporter {
  update(done: number, extra?: Record<string, unknown>): void;
  stop(): void;
}

/**
 * A progress bar on stderr for long work (rebuild, export, import), with the rate. On a terminal
 * it redraws in place; elsewhere (CI logs, a child process) it prints a line every few seconds,
 * so the progress shows in logs too. `--json` keeps it: it never touches stdout.
 */
export function createProgress(label: string, total: number | undefined, quiet: boolean): ProgressReporter {
  if (quiet) return { update: () => undefined, stop: () => undefined };
  const started = Date.now();
  const bar = new SingleBar(
    {
      format:
        total === undefined
          ? `${label} | {value} done | {rate}/s | {duration_formatted}`
          : `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s | eta {eta_formatted}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2_000,
      etaBuffer: 50,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(total ?? 0, 0, { rate: 0 });
  return {
    update(done, extra = {}) {
      const seconds = (Date.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(done / seconds) : 0;
      if (total !== undefined && done > total) bar.setTotal(done);
      bar.update(done, { rate, ...extra });
    },
    stop() {
      bar.stop();
    },
  };
}
