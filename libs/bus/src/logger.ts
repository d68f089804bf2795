/** The logging shape the bus accepts (a subset of @lomo/observability's Logger). */
export interface BusLogger {
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

export const noopBusLogger: BusLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
