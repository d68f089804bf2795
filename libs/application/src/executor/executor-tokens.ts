export const EXECUTOR_RUNTIME = Symbol('EXECUTOR_RUNTIME');
export const RUNTIME_OPTIONS = Symbol('RUNTIME_OPTIONS');
export const STARTER_TOOLS = Symbol('STARTER_TOOLS');
export const COMMAND_DEPS = Symbol('COMMAND_DEPS');
