export interface HealthCheck {
  name: string;
  /** Resolves with details when healthy; throws when not. */
  check(): Promise<Record<string, unknown>>;
}

/**
 * Every check /health runs. The platform registers the store and the relay; each app module adds
 * its own (the projector its lag, ...) when it starts, so /health answers for the whole process.
 */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(check: HealthCheck): void {
    this.checks.set(check.name, check);
  }

  all(): HealthCheck[] {
    return [...this.checks.values()];
  }
}
