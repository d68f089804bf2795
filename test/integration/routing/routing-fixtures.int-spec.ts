import { checkRoutingCases, loadRoutingCases, type RoutingCase } from '../../../bench/eval-routing/routing-cases';

// The eval set's rules (bench/eval-routing/routing-cases.ts), checked where npm test sees them;
// npm run eval:routing refuses to run on a set that breaks them.
describe('test/fixtures/routing: the labelled routing cases', () => {
  it('every case parses, its references resolve, and the counts and the paraphrase property hold', () => {
    const { cases, problems } = loadRoutingCases();

    expect(problems).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it('a paraphrase that shares a content word with its target, and a set that is too small, are refused', () => {
    const { cases } = loadRoutingCases();
    const paraphrase = cases.find((c) => c.class === 'paraphrase')!;
    const target = paraphrase.tasks.find((t) => t.key === paraphrase.expected.task)!;
    const leaky: RoutingCase = { ...paraphrase, id: 'leaky', text: `${paraphrase.text} ${target.goal}` };

    const problems = checkRoutingCases([leaky]);

    expect(problems.some((p) => p.startsWith('leaky: a paraphrase shares content words'))).toBe(true);
    expect(problems).toContain('only 1 cases (at least 60)');
  });
});
