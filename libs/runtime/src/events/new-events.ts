import type { Actor } from '@lomo/contracts';

/** The actor of the runtime's own writes; the execution generation goes into their metadata. */
export const runtimeActor: Actor = { kind: 'system', component: 'executor' };
