import { DuplicateAnswer, type DuplicatePrompt } from '@lomo/contracts';
import { checkDuplicateOffline } from './duplicate-policy';

const prompt = (goal: string, goals: string[]): DuplicatePrompt => ({
  goal,
  language: 'en',
  candidates: goals.map((g, i) => ({ ref: `t${i + 1}`, goal: g, summary: null, score: 0 })),
});
const check = (goal: string, goals: string[]) => DuplicateAnswer.parse(checkDuplicateOffline(prompt(goal, goals)));

describe('checkDuplicateOffline', () => {
  it('reuses the one candidate whose goal covers the new goal', () => {
    expect(
      check('weekly newsletter for the rowing club', ['Weekly newsletter for the rowing club', 'Tax forms']),
    ).toEqual({
      verdict: 'reuse',
      taskRef: 't1',
    });
  });

  it('asks when two candidates are about as close', () => {
    expect(
      check('rowing club newsletter', ['Rowing club newsletter, spring', 'Rowing club newsletter, autumn']),
    ).toEqual({ verdict: 'ask', taskRef: null });
  });

  it('answers new below the threshold or with no candidates', () => {
    expect(check('bird feeder building guide', ['Rowing club newsletter'])).toEqual({ verdict: 'new', taskRef: null });
    expect(check('bird feeder building guide', [])).toEqual({ verdict: 'new', taskRef: null });
  });
});
