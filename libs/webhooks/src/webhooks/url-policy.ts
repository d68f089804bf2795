import { isIP } from 'node:net';

export interface UrlPolicy {
  production: boolean;
  /** Hosts allowed over plain http and exempt from the private-address rule (tests: 127.0.0.1). */
  httpAllowlist: readonly string[];
}

export const MAX_URL_LENGTH = 2048;

/**
 * Why a webhook URL is refused, or undefined when it is acceptable. In production a receiver must
 * be https (the body carries workspace data and the signature only proves origin, not secrecy),
 * and literal loopback/private addresses are refused so a tenant cannot aim deliveries at the
 * cluster's own services. Host names that resolve to private addresses are not checked here.
 */
export function urlProblem(raw: string, policy: UrlPolicy): string | undefined {
  if (raw.length > MAX_URL_LENGTH) return `at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs';
  // Credentials in the URL would be shown back in every list of webhooks.
  if (url.username !== '' || url.password !== '') return 'no user name or password in the URL';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === '') return 'a host is required';
  if (!policy.production || policy.httpAllowlist.includes(host)) return undefined;
  if (url.protocol !== 'https:') return 'https is required in production';
  if (isPrivateHost(host)) return 'loopback, private and link-local addresses are refused in production';
  return undefined;
}

function isPrivateHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 4) {
    const [a, b] = host.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (family === 6) {
    return (
      host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:')
    );
  }
  return false;
}
