import type { EventEnvelope } from '@lomo/contracts';
import {
  asKnownEvent,
  evolveDocument,
  ownershipViolations,
  readModelProjections,
  tasksProjection,
  TurnTaskLookup,
  eraseProjectionType,
  type AnyProjection,
  type OwnershipViolation,
  type ProjectionDocument,
  type TaskDocument,
} from '@lomo/read-models';
import { writeCorrectionsScenario } from './support/corrections-scenario';
import { writeMultiTaskScenario } from './support/multi-task-scenario';
import { openEventStore, type EventStoreFixture } from './support/projection-harness';

/** Folds the log through one projection as the engine does, checking every application. */
async function violationsOver(projection: AnyProjection, log: readonly EventEnvelope[], fixture: EventStoreFixture) {
  const lookup = new TurnTaskLookup(fixture.events);
  const documents = new Map<string, ProjectionDocument>();
  const violations: OwnershipViolation[] = [];
  for (const envelope of log) {
    const event = asKnownEvent(envelope);
    if (event === undefined || !projection.categories.some((c) => envelope.metadata.streamId.startsWith(`${c}-`)))
      continue;
    lookup.observe(event);
    if (!projection.handles.includes(event.type)) continue;
    for (const id of await projection.documentIds(event, lookup)) {
      const before = documents.get(id);
      const after = evolveDocument(projection, before, id, event);
      violations.push(...ownershipViolations(projection, before, after, event));
      documents.set(id, after);
    }
  }
  return { violations, documents };
}

describe('field ownership: each field is written by exactly one source stream', () => {
  let fixture: EventStoreFixture;
  let log: EventEnvelope[];

  beforeAll(async () => {
    fixture = openEventStore();
    await writeCorrectionsScenario(await writeMultiTaskScenario(fixture.events));
    log = await fixture.events.readAll();
  });

  afterAll(() => fixture.dispose());

  it.each(readModelProjections.map((p) => [p.name, p] as const))(
    '%s: every event of the scenario changes only fields its stream owns, and derived fields equal derive()',
    async (_name, projection) => {
      const { violations, documents } = await violationsOver(projection, log, fixture);
      expect(violations).toEqual([]);
      expect(documents.size).toBeGreaterThan(0);
    },
  );

  it('the check catches a projection whose turn events write a task-owned field', async () => {
    const leaky = eraseProjectionType({
      ...tasksProjection,
      evolve: (task: TaskDocument, event) => {
        const next = tasksProjection.evolve(task, event);
        // A turn completing "helpfully" marks the task completed: a field of the task stream.
        return event.type === 'TurnCompleted' ? { ...next, status: 'completed' as const } : next;
      },
    });
    const { violations } = await violationsOver(leaky, log, fixture);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations[0]).toMatchObject({
      field: 'status',
      eventType: 'TurnCompleted',
      reason: 'owned by the task stream',
    });
  });
});
