/** An error as one log field: `Name: message`, or the thrown value as a string. */
export const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
