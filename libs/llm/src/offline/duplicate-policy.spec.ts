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

  it('two series of the same form for different subjects are not one task', () => {
    // "series", "three" and "posters" say what form the work takes; the events say what it is about
    expect(
      check('Please make a series of three posters for the autumn cider fair', [
        'Please make a series of three posters for the spring tea market',
      ]),
    ).toEqual({ verdict: 'new', taskRef: null });
    // the same subject again is still the same work, in any form
    expect(
      check('Make 3 posters for the spring tea market', [
        'Please make a series of three posters for the spring tea market',
      ]),
    ).toEqual({ verdict: 'reuse', taskRef: 't1' });
    expect(check('为秋季苹果酒节做三张海报', ['为春季茶市做一套三张海报'])).toEqual({ verdict: 'new', taskRef: null });
  });

  it('answers new below the threshold or with no candidates', () => {
    expect(check('bird feeder building guide', ['Rowing club newsletter'])).toEqual({ verdict: 'new', taskRef: null });
    expect(check('bird feeder building guide', [])).toEqual({ verdict: 'new', taskRef: null });
  });
});
