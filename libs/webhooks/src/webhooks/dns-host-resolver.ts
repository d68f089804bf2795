import { lookup } from 'node:dns/promises';
import type { HostResolver, ResolvedAddress } from './host-resolver.port';
import { WebhookHostUnresolvedError } from './webhook-errors';

/**
 * The system resolver (getaddrinfo: /etc/hosts, then DNS), the one a plain connection would use,
 * so the addresses vetted are the addresses Node would connect to.
 */
export class DnsHostResolver implements HostResolver {
  async resolve(host: string): Promise<ResolvedAddress[]> {
    let answers: Array<{ address: string; family: number }>;
    try {
      answers = await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new WebhookHostUnresolvedError(host, typeof code === 'string' ? code : 'UNKNOWN');
    }
    if (answers.length === 0) throw new WebhookHostUnresolvedError(host, 'NO_ADDRESSES');
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  }
}
