import { ModelBudgetExhaustedError, ModelInvalidOutputError } from './model-errors';
import { ScriptedModelProvider } from './scripted/scripted-model-provider';
import { TokenBudget, withTokenBudget } from './token-budget';

const request = { messages: [{ role: 'user' as const, content: 'Make a poster' }], tools: [] };
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens });

describe('a model token budget (LOMO_MODEL_TOKEN_BUDGET)', () => {
  it('counts input and output tokens and refuses the call after the budget is reached, without sending it', async () => {
    const model = new ScriptedModelProvider([
      { reply: { text: 'one', usage: usage(60, 20) } },
      { reply: { text: 'two', usage: usage(30, 10) } },
      { reply: { text: 'never sent' } },
    ]);
    const budget = new TokenBudget(100);
    const capped = withTokenBudget(model, budget);

    await expect(capped.complete(request)).resolves.toMatchObject({ text: 'one' });
    expect(budget.spent).toBe(80);
    // 80 < 100: the next call goes out, and counts in full even past the budget.
    await expect(capped.complete(request)).resolves.toMatchObject({ text: 'two' });
    expect(budget.spent).toBe(120);

    const refused = capped.complete(request);
    await expect(refused).rejects.toBeInstanceOf(ModelBudgetExhaustedError);
    await expect(refused).rejects.toMatchObject({ code: 'MODEL_BUDGET_EXHAUSTED', retriable: false });
    expect(model.calls).toHaveLength(2);
    expect(budget.refused).toBe(1);
  });

  it('is shared: two providers behind one budget spend from the same tokens', async () => {
    const budget = new TokenBudget(50);
    const router = withTokenBudget(new ScriptedModelProvider([{ reply: { text: 'a', usage: usage(40, 10) } }]), budget);
    const steps = new ScriptedModelProvider([{ reply: { text: 'b', usage: usage(1, 1) } }]);
    await router.complete(request);
    await expect(withTokenBudget(steps, budget).complete(request)).rejects.toBeInstanceOf(ModelBudgetExhaustedError);
    expect(steps.neverCalled).toBe(true);
  });

  it('charges a structured answer that failed its schema, since it was paid for', async () => {
    const budget = new TokenBudget(1_000);
    const failing = new ScriptedModelProvider([
      { fail: new ModelInvalidOutputError('bad json twice', 2, usage(300, 200)) },
    ]);
    await expect(withTokenBudget(failing, budget).complete(request)).rejects.toBeInstanceOf(ModelInvalidOutputError);
    expect(budget.spent).toBe(500);
  });

  it('refuses a budget that is not a positive whole number', () => {
    expect(() => new TokenBudget(0)).toThrow(RangeError);
    expect(() => new TokenBudget(1.5)).toThrow(RangeError);
  });
});
