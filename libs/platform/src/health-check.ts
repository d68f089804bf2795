export interface HealthCheck {
  name: string;
  /**
   * Whether a failure makes this process not ready (`/health/ready` answers 503), default true.
   * False for what the process only reports (the full `/health` still shows it, and fails on it):
   * a pod taken out of its Service for another component's trouble would not get better for it.
   */
  readiness?: boolean;
  /** Resolves with details when healthy; throws when not. */
  check(): Promise<Record<string, unknown>>;
}

/**
 * Every check /health runs. The platform registers the store and the relay; each app module adds
 * its own (the projector its lag, ...) when it starts, so /health answers for the whole process.
 * `/health/ready` runs the checks marked for readiness; `/health/live` runs none (see
 * health.controller.ts).
 */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(check: HealthCheck): void {
    this.checks.set(check.name, check);
  }

  all(): HealthCheck[] {
    return [...this.checks.values()];
  }

  /** The checks that decide whether this process should receive traffic. */
  readiness(): HealthCheck[] {
    return this.all().filter((c) => c.readiness !== false);
  }
}
