/**
 * The consumer groups the apps run under fixed names (per-process groups, such as an executor's
 * cancel group or an API's change-notice group, come and go with their process and are not
 * listed). Named here rather than imported so the CLI does not load the apps' modules;
 * consumer-groups.spec.ts checks them against the constants the apps subscribe with.
 */
export const KNOWN_CONSUMER_GROUPS = ['router', 'projector', 'memory', 'generation', 'lomo-executor'] as const;

/** Memory extraction's dead letters are this group's (libs/application/src/memory-worker). */
export const MEMORY_CONSUMER_GROUP = 'memory';

/** The group ids the bus accepts: what an operator may name. */
export const isConsumerGroupId = (value: string): boolean => /^[A-Za-z0-9._-]{1,249}$/.test(value);
