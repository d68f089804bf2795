import { urlProblem } from './url-policy';

const development = { production: false, httpAllowlist: [] };
const production = { production: true, httpAllowlist: ['127.0.0.1', '[::1]'] };

describe('webhook URL policy (the checks that need no DNS)', () => {
  it('accepts http and https outside production, nothing else', () => {
    expect(urlProblem('http://localhost:3000/hook', development)).toBeUndefined();
    expect(urlProblem('https://example.com/hook', development)).toBeUndefined();
    expect(urlProblem('ws://example.com', development)).toBe('only http and https URLs');
    expect(urlProblem('https://u:p@example.com', development)).toBe('no user name or password in the URL');
    expect(urlProblem(`https://example.com/${'a'.repeat(2048)}`, development)).toBe('at most 2048 characters');
    expect(urlProblem('/relative', development)).toBe('not an absolute URL');
  });

  it('in production requires https unless the host is allowlisted (with or without IPv6 brackets)', () => {
    expect(urlProblem('http://example.com', production)).toBe('https is required in production');
    expect(urlProblem('http://10.0.0.1/x', production)).toBe('https is required in production');
    expect(urlProblem('https://example.com', production)).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:4000/x', production)).toBeUndefined();
    expect(urlProblem('http://[::1]:4000/x', production)).toBeUndefined();
  });
});
