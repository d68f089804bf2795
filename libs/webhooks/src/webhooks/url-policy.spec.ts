import { urlProblem } from './url-policy';

const development = { production: false, httpAllowlist: [] };
const production = { production: true, httpAllowlist: ['127.0.0.1'] };

describe('webhook URL policy', () => {
  it('accepts http and https outside production, nothing else', () => {
    expect(urlProblem('http://localhost:3000/hook', development)).toBeUndefined();
    expect(urlProblem('https://example.com/hook', development)).toBeUndefined();
    expect(urlProblem('ws://example.com', development)).toBe('only http and https URLs');
    expect(urlProblem('https://u:p@example.com', development)).toBe('no user name or password in the URL');
    expect(urlProblem(`https://example.com/${'a'.repeat(2048)}`, development)).toBe('at most 2048 characters');
  });

  it('in production requires https and refuses literal loopback, private and link-local hosts unless allowlisted', () => {
    expect(urlProblem('http://example.com', production)).toBe('https is required in production');
    for (const host of [
      '10.0.0.1',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '[::1]',
      '[fd00::1]',
      'app.localhost',
    ]) {
      expect(urlProblem(`https://${host}/x`, production)).toMatch(/refused in production/);
    }
    expect(urlProblem('https://172.32.0.1/x', production)).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:4000/x', production)).toBeUndefined();
  });
});
