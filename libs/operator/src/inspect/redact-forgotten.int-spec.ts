import { streams, type EventEnvelope } from '@lomo/contracts';
import { callerOf, InspectionWorld, tellTaskStory, type TaskStory } from '../testing';
import { PURGED_TEXT } from './redact-forgotten';
import { readStreamAt } from './stream-at';
import { tailEvents } from './tail-events';

// The raw views (`lomo stream show`, `lomo events tail`) print events as stored, and the log keeps
// a message's text inline: a forgotten one must read as purged there too, in the events and in
// the folded state, while the store itself still holds it (the views redact, they do not rewrite).

const operator = callerOf('operator', 'ops', 'root');

describe('forgotten content in the raw event views', () => {
  let world: InspectionWorld;
  let story: TaskStory;

  beforeEach(async () => {
    world = InspectionWorld.open();
    story = await tellTaskStory(world);
  });
  afterEach(() => world.close());

  it('the store still holds the text (so these checks can fail)', async () => {
    const raw = await world.events.readStream(streams.task(story.taskId));
    expect(JSON.stringify(raw)).toContain(story.secret);
  });

  it('stream show: no forgotten text in the task folded at any revision, nor in its events', async () => {
    const head = (await world.events.readStream(streams.task(story.taskId))).length - 1;
    for (let revision = 0; revision <= head; revision += 1) {
      const at = await readStreamAt(world.sources, operator, streams.task(story.taskId), {
        kind: 'revision',
        revision,
      });
      expect(JSON.stringify(at)).not.toContain(story.secret);
    }
    const full = await readStreamAt(world.sources, operator, streams.task(story.taskId));
    const delivered = full.events.find(
      (e) =>
        e.type === 'MessageDeliveredToInbox' &&
        (e.data as { messageId: string }).messageId === story.messages.forgotten,
    );
    expect((delivered?.data as { text: string }).text).toBe(PURGED_TEXT);
    for (const turnId of story.turns)
      expect(JSON.stringify(await readStreamAt(world.sources, operator, streams.turn(turnId)))).not.toContain(
        story.secret,
      );
  });

  it('events tail: no forgotten text in any event, the others unchanged', async () => {
    const seen: EventEnvelope[] = [];
    for await (const e of tailEvents(world.sources, operator, {})) seen.push(e);
    expect(seen.length).toBe((await world.events.readAll()).length);
    expect(JSON.stringify(seen)).not.toContain(story.secret);
    const later = seen.find(
      (e) =>
        e.type === 'MessageDeliveredToInbox' && (e.data as { messageId: string }).messageId === story.messages.later,
    );
    expect((later?.data as { text: string }).text).toBe('Now make the fox blue');
  });
});
