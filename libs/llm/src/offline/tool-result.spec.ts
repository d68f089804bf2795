import { readToolResult } from './tool-result';

describe('readToolResult', () => {
  it.each([
    [
      '{"ok":true,"result":{"noteId":"n1","title":"Milk","created":true}}',
      'noteId: n1, title: Milk, created: true',
      false,
    ],
    [
      '{"ok":false,"error":{"code":"TOOL_INVALID_ARGUMENTS","message":"noteId: Invalid UUID"}}',
      'noteId: Invalid UUID',
      true,
    ],
    [
      '{"ok":false,"outcome":"unknown","message":"Its effect may or may not have happened"}',
      'Its effect may or may not have happened',
      true,
    ],
    ['{"summary":"3 notes"}', '3 notes', false],
    ['42', '42', false],
    ['Error: disk full', 'Error: disk full', true],
    ['plain words', 'plain words', false],
  ])('%s → %j (failed %s)', (content, summary, failed) => {
    expect(readToolResult(content)).toEqual({ summary, failed });
  });

  it('keeps the summary to one short line', () => {
    const { summary } = readToolResult(JSON.stringify({ text: `a\n${'b'.repeat(500)}` }));
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary).not.toContain('\n');
  });
});
