export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

export interface HealthCheck {
  name: string;
  /** Resolves with details when healthy; throws when not. */
  check(): Promise<Record<string, unknown>>;
}
