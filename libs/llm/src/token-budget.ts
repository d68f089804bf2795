import { ModelBudgetExhaustedError, ModelInvalidOutputError } from './model-errors';
import type { CompletionRequest, CompletionResult, ModelProvider } from './model-provider.port';

/**
 * What one process may spend on a model, in tokens (input + output as the endpoint reports them).
 * Shared by every provider of the process (the step loop's, the router's, memory extraction's),
 * so the cap holds for the process as a whole. A call is refused once the spent tokens reach the
 * budget; a call already sent is always counted, so the last one may end past the budget by at
 * most its own size.
 */
export class TokenBudget {
  private spentTokens = 0;
  private callsRefused = 0;

  constructor(readonly budgetTokens: number) {
    if (!Number.isInteger(budgetTokens) || budgetTokens < 1)
      throw new RangeError(`A token budget is a positive whole number, not ${budgetTokens}`);
  }

  get spent(): number {
    return this.spentTokens;
  }

  get refused(): number {
    return this.callsRefused;
  }

  /** Throws ModelBudgetExhaustedError when nothing is left. */
  reserve(): void {
    if (this.spentTokens < this.budgetTokens) return;
    this.callsRefused += 1;
    throw new ModelBudgetExhaustedError(this.budgetTokens, this.spentTokens);
  }

  charge(usage: CompletionResult['usage']): void {
    this.spentTokens += usage.inputTokens + usage.outputTokens;
  }
}

/** `provider` behind `budget`: refused calls never reach the endpoint. */
export function withTokenBudget(provider: ModelProvider, budget: TokenBudget): ModelProvider {
  return {
    name: provider.name,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      budget.reserve();
      try {
        const result = await provider.complete(request);
        budget.charge(result.usage);
        return result;
      } catch (error) {
        // A structured answer that failed its schema twice was still paid for.
        if (error instanceof ModelInvalidOutputError) budget.charge(error.usage);
        throw error;
      }
    },
  };
}
