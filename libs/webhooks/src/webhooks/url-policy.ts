export interface UrlPolicy {
  production: boolean;
  /**
   * Hosts exempt from the production rules: allowed over plain http and on any address (tests:
   * 127.0.0.1). Compared with the URL's host name as written, lower case, without brackets.
   */
  httpAllowlist: readonly string[];
}

export const MAX_URL_LENGTH = 2048;

/** The URL's host as Node normalised it (IPv4 in dotted decimal), lower case, without brackets. */
export const urlHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Whether `host` is on the allowlist (entries may be written with or without IPv6 brackets). */
export const isAllowlisted = (host: string, policy: UrlPolicy): boolean =>
  policy.httpAllowlist.some((entry) => entry.replace(/^\[(.*)\]$/, '$1').toLowerCase() === host);

/**
 * Why a webhook URL is refused, or undefined when it is acceptable: the checks that need no DNS.
 * In production a receiver must be https (the body carries workspace data and the signature only
 * proves origin, not secrecy). Where the host points (literal addresses included) is vetted by
 * vetTarget in webhook-target.ts, at registration and again before every delivery.
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
  const host = urlHost(url);
  if (host === '') return 'a host is required';
  if (!policy.production || isAllowlisted(host, policy)) return undefined;
  if (url.protocol !== 'https:') return 'https is required in production';
  return undefined;
}
