/** Time is injected everywhere (a fake clock in tests). */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };

/** Ids are injected too, so tests can predict them. */
export interface IdGenerator {
  uuid(): string;
}

export const ID_GENERATOR = Symbol('ID_GENERATOR');
