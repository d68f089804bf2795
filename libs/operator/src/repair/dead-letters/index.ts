export { formatDeadLetterId, parseDeadLetterId, type DeadLetterRef } from './dead-letter-ids';
export { DeadLetterAlreadyRedrivenError, DeadLetterNotRedrivableError } from './dead-letter-errors';
export { deadLetterSources, type DeadLetterRow, type DeadLetterSource } from './dead-letter-row';
export type { DeadLetterSources } from './dead-letter-sources';
export { listDeadLetters, type DeadLetterFilter } from './list-dead-letters';
export { redriveDeadLetters, type RedriveRequest, type RedriveResult } from './redrive-dead-letters';
export { redrivenBusLetterIds } from './redriven-ledger';
