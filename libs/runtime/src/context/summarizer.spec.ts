import { ModelUnavailableError, ScriptedModelProvider } from '@lomo/llm';
import type { HistoryStep } from './history';
import { ExtractiveSummarizer, ModelSummarizer } from './summarizer';

// History segments: the person's words survive verbatim, a withdrawn statement never does.

const step = (n: number, said: string | null, reply: string, outcome = '{"ok":true}'): HistoryStep => ({
  turnId: '00000000-0000-4000-8000-0000000000aa',
  turnIndex: 0,
  step: n,
  turnReason: n === 1 ? 'message' : null,
  messages: [
    ...(said !== null ? [{ role: 'user' as const, content: said }] : []),
    { role: 'assistant', content: reply, toolCalls: [{ id: `c${n}`, name: 'notes.list', arguments: '{}' }] },
    { role: 'tool', toolCallId: `c${n}`, content: outcome },
  ],
  tokens: 20,
});

describe('the extractive summarizer', () => {
  it('keeps every word the person said, counts what was done, and keeps the last reply short', async () => {
    const text = await new ExtractiveSummarizer().summarizeSteps(
      [
        step(1, 'The background is white. Use serif for the headline.', 'Listing.'),
        step(2, null, 'Listing again.', '{"ok":false,"error":{"code":"TOOL_FAILED"}}'),
        step(3, null, 'Done for now.'),
      ],
      [],
    );
    expect(text).toBe(
      [
        'The person said:',
        '- "The background is white. Use serif for the headline."',
        'Actions:',
        '- notes.list ok ×2',
        '- notes.list error TOOL_FAILED ×1',
        'Last reply: Done for now.',
      ].join('\n'),
    );
  });

  it('merging keeps each quote once and adds the counts; a withdrawn statement is replaced in both', async () => {
    const s = new ExtractiveSummarizer();
    const a = await s.summarizeSteps([step(1, 'The background is white.', 'One.')], []);
    const b = await s.summarizeSteps([step(2, 'Keep the logo small.', 'Two.')], []);
    const merged = await s.mergeSegments([a, b, a], ['The background is white']);
    expect(merged).toBe(
      [
        'The person said:',
        '- "[changed later]."',
        '- "Keep the logo small."',
        'Actions:',
        '- notes.list ok ×3',
        'Last reply: One.',
      ].join('\n'),
    );
  });
});

describe('the model summarizer', () => {
  it('asks the configured model with the person’s words and the rules, and falls back to the extractive summary when it fails', async () => {
    const model = new ScriptedModelProvider([
      { label: 'summary', reply: { text: '- "The background is white."\nListed notes once.' } },
      { label: 'down', fail: new ModelUnavailableError('the endpoint is down') },
    ]);
    const summarizer = new ModelSummarizer(model);
    expect(await summarizer.summarizeSteps([step(1, 'The background is white.', 'Listing.')], [])).toBe(
      '- "The background is white."\nListed notes once.',
    );
    expect(model.calls[0].request.messages[1].content).toContain('Person: The background is white.');
    // The endpoint fails: compression does not block the step, the extractive summary stands in.
    expect(await summarizer.summarizeSteps([step(2, 'Keep the logo small.', 'Listing.')], [])).toContain(
      '- "Keep the logo small."',
    );
  });
});
