import { ConfigError } from '@lomo/contracts';

/**
 * Builds a provider from its options; an invalid option comes back as a ConfigError naming the
 * environment variables an operator actually sets (`envNameOf`), under `what` ("model",
 * "embedding"). Other errors pass through.
 */
export function withConfigNames<T>(what: string, envNameOf: (option: string) => string | undefined, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const variables = error.variables.map((v) => ({ ...v, variable: envNameOf(v.variable) ?? v.variable }));
    throw new ConfigError(
      `Invalid ${what} configuration: ${variables.map((v) => `${v.variable} ${v.message}`).join('; ')}`,
      variables,
    );
  }
}
