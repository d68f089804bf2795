import { fold, taskDecider, existingTask, type TaskEvent } from '@lomo/domain';
import { created, TURN } from '../process/plan-turn.fixtures';
import { constraintsInForce, extractConstraints, withdrawnStatements, withoutWithdrawn } from './constraints';

// The person's constraints, read from their words by the documented lexical rules.

const ITEM_A = '00000000-0000-4000-8000-0000000000a1';
const ITEM_B = '00000000-0000-4000-8000-0000000000b1';
const task = (events: TaskEvent[] = []) => existingTask(fold(taskDecider, [...created, ...events]));
const noted = (itemId: string, constraints: ReturnType<typeof extractConstraints>): TaskEvent => ({
  type: 'ConstraintsNoted',
  data: { itemId, turnId: TURN, step: 1, constraints },
});

describe('the person’s constraints', () => {
  it('reads what something is or must be, and not requests for something new or questions', () => {
    const found = extractConstraints(
      task(),
      ITEM_A,
      'Make a poster for the fair. The background is white. The logo should be small! Is the font ok? Use serif for the headline.',
    );
    expect(found.map((c) => [c.subject, c.statement])).toEqual([
      ['background', 'The background is white'],
      ['logo', 'The logo should be small!'],
      ['headline', 'Use serif for the headline'],
    ]);
    expect(extractConstraints(task(), ITEM_A, 'Make a note called groceries')).toEqual([]);
    expect(extractConstraints(task(), ITEM_A, '背景是白色')).toMatchObject([{ subject: '背景' }]);
  });

  it('a correction that names no subject replaces the latest constraint in force; the old one is withdrawn', () => {
    const first = extractConstraints(task(), ITEM_A, 'The background is white.');
    const before = task([noted(ITEM_A, first)]);
    const correction = extractConstraints(before, ITEM_B, 'Hmm, no. Make it dark blue.');
    expect(correction).toMatchObject([
      { subject: 'background', statement: 'Make it dark blue', replaces: first[0].constraintId },
    ]);
    const after = task([noted(ITEM_A, first), noted(ITEM_B, correction)]);
    expect(constraintsInForce(after).map((c) => c.statement)).toEqual(['Make it dark blue']);
    expect(withdrawnStatements(after)).toEqual(['The background is white']);
    // The person's earlier message no longer repeats the withdrawn words.
    expect(withoutWithdrawn(after, ITEM_A, 'The background is white. Keep it simple.')).toBe(
      '[changed later; see the constraints in force]. Keep it simple.',
    );
  });

  it('a correction without a subject must be the same kind of value: "make it longer" corrects no colour', () => {
    const first = extractConstraints(task(), ITEM_A, 'The background is white.');
    expect(extractConstraints(task([noted(ITEM_A, first)]), ITEM_B, 'Make it longer please.')).toEqual([]);
    expect(extractConstraints(task([noted(ITEM_A, first)]), ITEM_B, '改成深蓝')).toMatchObject([
      { subject: 'background', replaces: first[0].constraintId },
    ]);
  });

  it('a correction with nothing in force to correct notes nothing; ids are stable per item and sentence', () => {
    expect(extractConstraints(task(), ITEM_A, 'Make it dark blue.')).toEqual([]);
    expect(extractConstraints(task(), ITEM_A, 'The title is red.')).toEqual(
      extractConstraints(task(), ITEM_A, 'The title is red.'),
    );
  });

  it('a subject stated twice in one message keeps the later statement', () => {
    expect(
      extractConstraints(task(), ITEM_A, 'The title is red. Actually the title is green.').map((c) => c.statement),
    ).toEqual(['Actually the title is green']);
  });
});
