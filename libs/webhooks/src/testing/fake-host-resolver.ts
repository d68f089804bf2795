import type { HostResolver, ResolvedAddress } from '../webhooks/host-resolver.port';
import { WebhookHostUnresolvedError } from '../webhooks/webhook-errors';
import { isIPv6 } from 'node:net';

/**
 * A resolver that answers from a table the test sets (and changes, to play DNS rebinding). An
 * unknown name fails like NXDOMAIN, so a test never reaches real DNS by accident.
 */
export class FakeHostResolver implements HostResolver {
  private readonly answers = new Map<string, ResolvedAddress[] | { failure: string }>();
  /** Every name asked, in order: shows when a resolution happened. */
  readonly lookups: string[] = [];

  /** `host` now resolves to `addresses` (replacing what it resolved to before). */
  set(host: string, ...addresses: string[]): this {
    this.answers.set(
      host.toLowerCase(),
      addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 })),
    );
    return this;
  }

  /** `host` now fails to resolve with `code` (a node:dns error code such as EAI_AGAIN). */
  fail(host: string, code = 'EAI_AGAIN'): this {
    this.answers.set(host.toLowerCase(), { failure: code });
    return this;
  }

  async resolve(host: string): Promise<ResolvedAddress[]> {
    this.lookups.push(host);
    const answer = this.answers.get(host.toLowerCase()) ?? { failure: 'ENOTFOUND' };
    if ('failure' in answer) throw new WebhookHostUnresolvedError(host, answer.failure);
    return answer.map((a) => ({ ...a }));
  }
}
