import { RoutingPrompt } from '@lomo/contracts';
import { buildDuplicatePrompt, buildRoutingPrompt, PROMPT_TEXT_LIMIT } from './build-routing-prompt';
import type { RouteCandidate, UserMessage } from './routing-view';

const message = (text: string): UserMessage =>
  ({
    messageId: '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e',
    userId: 'u1',
    text,
    language: 'en',
    channel: 'ui',
  }) as UserMessage;

const candidate = (i: number, goal: string, summary: string | null): RouteCandidate => ({
  taskId: `0b9c6f3e-8a51-4d7e-9a35-${String(i).padStart(12, '0')}`,
  goal,
  summary,
  kind: 'persistent',
  status: 'active',
  lastActiveAt: '2026-01-01T00:00:00.000Z',
  source: 'recent',
  evidence: 0.5,
});

describe('buildRoutingPrompt', () => {
  it('cuts long goals, summaries and the message to their limits (characters, not UTF-16 units)', () => {
    // given a candidate whose goal and summary are far longer than the limits, in Han characters
    const long = '海报'.repeat(1_000);
    const built = buildRoutingPrompt({ message: message('改'.repeat(10_000)), candidates: [candidate(1, long, long)] });
    // then each is cut to its limit, ending with an ellipsis
    const [c] = built.prompt.candidates;
    expect([...c!.goal]).toHaveLength(PROMPT_TEXT_LIMIT.goal);
    expect([...c!.summary!]).toHaveLength(PROMPT_TEXT_LIMIT.summary);
    expect(c!.goal.endsWith('…')).toBe(true);
    expect([...built.prompt.message.text]).toHaveLength(PROMPT_TEXT_LIMIT.message);
  });

  it('leaves short texts as they are and keeps a missing summary null', () => {
    const built = buildRoutingPrompt({
      message: message('make it warmer'),
      candidates: [candidate(1, 'Posters', null)],
    });
    expect(built.prompt.candidates[0]).toMatchObject({ ref: 't1', goal: 'Posters', summary: null });
    expect(built.prompt.message.text).toBe('make it warmer');
  });

  it('is bounded by the candidate count: 20 candidates of any length stay under a fixed size', () => {
    // given 20 candidates with huge texts and 20 with short ones
    const huge = Array.from({ length: 20 }, (_, i) => candidate(i, 'x'.repeat(50_000), 'y'.repeat(50_000)));
    const bytes = JSON.stringify(
      buildRoutingPrompt({ message: message('z'.repeat(50_000)), candidates: huge }).messages,
    ).length;
    // then the prompt is at most instructions + message limit + 20 × (goal + summary limits + fields)
    const perCandidate = PROMPT_TEXT_LIMIT.goal + PROMPT_TEXT_LIMIT.summary + 200;
    expect(bytes).toBeLessThan(3_000 + PROMPT_TEXT_LIMIT.message + 20 * perCandidate);
  });

  it('refers to tasks by refs only and maps them back', () => {
    const built = buildRoutingPrompt({
      message: message('hi'),
      candidates: [candidate(1, 'A', null), candidate(2, 'B', null)],
    });
    expect(built.prompt.candidates.map((c) => c.ref)).toEqual(['t1', 't2']);
    expect(built.refs.get('t2')).toBe(candidate(2, 'B', null).taskId);
    expect(built.messages[1]!.content).not.toContain(candidate(1, 'A', null).taskId);
    expect(RoutingPrompt.safeParse(built.prompt).success).toBe(true);
  });
});

describe('buildDuplicatePrompt', () => {
  it('cuts the goal and the candidates and rounds the scores', () => {
    const built = buildDuplicatePrompt({
      goal: 'g'.repeat(5_000),
      language: 'en',
      candidates: [{ taskId: candidate(1, 'A', null).taskId, goal: 'a'.repeat(5_000), summary: null, score: 0.123456 }],
    });
    expect([...built.prompt.goal]).toHaveLength(PROMPT_TEXT_LIMIT.goal * 4);
    expect([...built.prompt.candidates[0]!.goal]).toHaveLength(PROMPT_TEXT_LIMIT.goal);
    expect(built.prompt.candidates[0]!.score).toBe(0.123);
  });
});
