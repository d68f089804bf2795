import { estimateTokens } from '../token-estimate';
import { ChatTokenizer } from './chat-tokenizer';

/**
 * The documented estimate (token-estimate.ts: a token per ideographic character, one per four
 * other characters) under the same chat-request rule as the real encodings: for models whose
 * tokenizer Lomo does not ship, and for the offline and scripted providers.
 */
export class EstimateTokenizer extends ChatTokenizer {
  readonly encoding = 'estimate' as const;
  readonly exact = false;

  protected countText(text: string): number {
    return estimateTokens(text);
  }
}
