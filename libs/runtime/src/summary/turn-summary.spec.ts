import { firstClause, summarizeTurn, SUMMARY_MAX_CHARS } from './turn-summary';

describe('the routing summary after a turn (no model call)', () => {
  it('is the goal’s first clause, a dash and the turn’s last reply', () => {
    expect(summarizeTurn('Design a poster for the jazz night. Blue and gold, A3.', 'Here is a first draft.')).toBe(
      'Design a poster for the jazz night — Here is a first draft.',
    );
  });

  it('cuts the goal at Chinese sentence ends too, and keeps dotted words whole', () => {
    expect(firstClause('帮我做一张海报。要蓝色的')).toBe('帮我做一张海报');
    expect(firstClause('Update v1.2 of example.com; then tell me')).toBe('Update v1.2 of example.com');
    expect(firstClause('make it blue')).toBe('make it blue');
  });

  it('is the clause alone when the turn gave no reply, with whitespace collapsed', () => {
    expect(summarizeTurn('  Plan a\n trip to   Lisbon ', null)).toBe('Plan a');
    expect(summarizeTurn('Plan a  trip to Lisbon', '   ')).toBe('Plan a trip to Lisbon');
  });

  it('stays within 300 characters, cut on a character with an ellipsis', () => {
    const summary = summarizeTurn('Write a long story', '长'.repeat(400));
    expect(Array.from(summary)).toHaveLength(SUMMARY_MAX_CHARS);
    expect(summary.endsWith('…')).toBe(true);
    expect(summary.startsWith('Write a long story — 长')).toBe(true);
  });
});
