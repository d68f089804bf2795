import { RoutingPrompt, DuplicatePrompt } from '@lomo/contracts';
import { estimateTokens } from '@lomo/llm';
import { aRoutingDocument } from '../testing';
import type { RoutingCandidate } from '../candidates/candidate';
import { buildDuplicatePrompt, buildRoutingPrompt, MAX_GOAL_CHARS, MAX_SUMMARY_CHARS } from './build-routing-prompt';

const candidate = (taskId: string, goal: string, summary: string | null = null): RoutingCandidate => ({
  taskId,
  document: aRoutingDocument({ taskId, goal, summary }),
  score: 0.5,
  source: 'recent',
});
const message = { text: 'make it warmer', language: 'en', channel: 'ui' as const };

describe('buildRoutingPrompt', () => {
  it('names candidates by short refs and maps each ref back to its task id', () => {
    const built = buildRoutingPrompt({
      message,
      candidates: [candidate('task-a', 'posters'), candidate('task-b', 'logo')],
    });

    expect(built.prompt.candidates.map((c) => c.ref)).toEqual(['t1', 't2']);
    expect([...built.refs]).toEqual([
      ['t1', 'task-a'],
      ['t2', 'task-b'],
    ]);
    expect(built.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(JSON.parse(built.messages[1]!.content)).toEqual(built.prompt);
    expect(built.messages[1]!.content).not.toContain('task-a');
    expect(RoutingPrompt.safeParse(built.prompt).success).toBe(true);
  });

  it('truncates long goals and summaries to the stated lengths', () => {
    const built = buildRoutingPrompt({ message, candidates: [candidate('a', 'g'.repeat(500), '海'.repeat(900))] });
    const [c] = built.prompt.candidates;
    expect([...c!.goal]).toHaveLength(MAX_GOAL_CHARS);
    expect([...c!.summary!]).toHaveLength(MAX_SUMMARY_CHARS);
    expect(c!.summary!.endsWith('…')).toBe(true);
  });

  it('is bounded by the number of candidates, not by how long their texts are', () => {
    const size = (goalLength: number) =>
      estimateTokens(
        buildRoutingPrompt({
          message,
          candidates: Array.from({ length: 25 }, (_, i) =>
            candidate(`t-${i}`, 'w '.repeat(goalLength), 'x '.repeat(goalLength)),
          ),
        })
          .messages.map((m) => m.content)
          .join('\n'),
      );
    expect(size(10_000)).toBe(size(1_000));
    expect(size(1_000)).toBeLessThan(25 * 200 + 600);
  });

  it('turns the pending clarification options into refs of the candidates', () => {
    const built = buildRoutingPrompt({
      message,
      candidates: [candidate('task-a', 'posters'), candidate('task-b', 'logo')],
      pendingClarification: {
        question: 'Which one?',
        options: [
          { taskId: 'task-b', label: 'the logo' },
          { taskId: null, label: 'start a new one' },
        ],
      },
    });
    expect(built.prompt.pendingClarification?.options).toEqual([
      { ref: 't2', label: 'the logo' },
      { ref: null, label: 'start a new one' },
    ]);
  });

  it('tells the model the outcomes, the language rule and that task texts are untrusted', () => {
    const system = buildRoutingPrompt({ message, candidates: [] }).messages[0]!.content;
    for (const word of ['main', 'lightweight', 'existing', 'new', 'clarify', 'script', 'untrusted']) {
      expect(system).toContain(word);
    }
  });
});

describe('buildDuplicatePrompt', () => {
  it('lists the candidates by ref with their scores', () => {
    const built = buildDuplicatePrompt({
      goal: 'festival posters',
      language: 'en',
      candidates: [
        {
          taskId: 'task-a',
          document: aRoutingDocument({ taskId: 'task-a', goal: 'posters' }),
          score: 0.81234,
          lexical: 1,
          vector: 0.6,
        },
      ],
    });
    expect(built.prompt.candidates).toEqual([{ ref: 't1', goal: 'posters', summary: null, score: 0.812 }]);
    expect(built.refs.get('t1')).toBe('task-a');
    expect(DuplicatePrompt.safeParse(built.prompt).success).toBe(true);
  });
});
