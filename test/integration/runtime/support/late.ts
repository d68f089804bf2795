/**
 * An object whose members are read, at call time, from what `get` returns then: tools built
 * before the harness that owns their dependencies exists (the generation harness builds its
 * runtime harness itself) reach them once they are wired.
 */
export function late<T extends object>(get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, property) {
      const target = get();
      if (target === undefined) throw new Error(`used before it was wired: ${String(property)}`);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
