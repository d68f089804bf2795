import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './address-class';
import type { HostResolver, ResolvedAddress } from './host-resolver.port';
import { WebhookHostUnresolvedError } from './webhook-errors';
import { isAllowlisted, urlHost, type UrlPolicy } from './url-policy';

export type TargetVetting =
  /** Outside production, or an allowlisted host: no rule applies and nothing is resolved. */
  | { kind: 'unchecked'; host: string }
  /** Every address is public; a delivery connects to one of these and nothing else. */
  | { kind: 'allowed'; host: string; addresses: ResolvedAddress[] }
  | { kind: 'forbidden'; host: string; address: string; addressClass: AddressClass };

/**
 * Where a webhook URL points, checked the way the connection will see it. In production a
 * receiver must not be loopback, private, link-local, carrier-grade NAT, a cloud metadata
 * endpoint or any other non-public address (address-class.ts), so a tenant cannot aim deliveries
 * at the cluster's own services. A literal IP is classified as Node's URL parser normalised it;
 * a name is resolved and refused when any of its addresses is not public (a name with one
 * private record is as dangerous as one with only private records). `localhost` names are
 * loopback by definition (RFC 6761) and are refused without asking DNS.
 *
 * Called at registration (WebhookService) and before each delivery (stream-turn.ts), which then
 * connects to the vetted address only (http-transport.ts), so a name that resolves differently
 * at delivery time (DNS rebinding) is caught. Throws WebhookHostUnresolvedError when DNS fails.
 */
export async function vetTarget(rawUrl: string, policy: UrlPolicy, resolver: HostResolver): Promise<TargetVetting> {
  const host = urlHost(new URL(rawUrl));
  if (!policy.production || isAllowlisted(host, policy)) return { kind: 'unchecked', host };
  const family = isIP(host);
  if (family !== 0) return vetAddresses(host, [{ address: host, family: family === 6 ? 6 : 4 }]);
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.' || host.endsWith('.localhost.')) {
    return { kind: 'forbidden', host, address: host, addressClass: 'loopback' };
  }
  return vetAddresses(host, await resolver.resolve(host));
}

function vetAddresses(host: string, addresses: ResolvedAddress[]): TargetVetting {
  // The port promises at least one address; an empty answer must not pass as "all public".
  if (addresses.length === 0) throw new WebhookHostUnresolvedError(host, 'NO_ADDRESSES');
  for (const { address } of addresses) {
    const addressClass = classifyAddress(address);
    if (addressClass !== 'public') return { kind: 'forbidden', host, address, addressClass };
  }
  return { kind: 'allowed', host, addresses };
}
