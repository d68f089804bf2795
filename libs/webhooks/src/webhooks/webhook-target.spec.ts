import { FakeHostResolver } from '../testing/fake-host-resolver';
import { WebhookHostUnresolvedError } from './webhook-errors';
import { vetTarget } from './webhook-target';

const production = { production: true, httpAllowlist: ['127.0.0.1', 'dev.example.test'] };
const development = { production: false, httpAllowlist: [] };

describe('vetTarget: where a webhook URL points, as the connection will see it', () => {
  it('in production refuses a name when any address it resolves to is not public', async () => {
    const dns = new FakeHostResolver()
      .set('loop.example.test', '127.0.0.1')
      .set('inside.example.test', '10.0.0.1')
      .set('mixed.example.test', '93.184.216.34', '192.168.1.5')
      .set('meta.example.test', 'fd00:ec2::254')
      .set('mapped.example.test', '::ffff:169.254.169.254');
    const vet = (host: string) => vetTarget(`https://${host}/hook`, production, dns);
    await expect(vet('loop.example.test')).resolves.toMatchObject({ kind: 'forbidden', address: '127.0.0.1' });
    await expect(vet('inside.example.test')).resolves.toMatchObject({ kind: 'forbidden', addressClass: 'private' });
    await expect(vet('mixed.example.test')).resolves.toMatchObject({ kind: 'forbidden', address: '192.168.1.5' });
    await expect(vet('meta.example.test')).resolves.toMatchObject({ kind: 'forbidden', addressClass: 'metadata' });
    await expect(vet('mapped.example.test')).resolves.toMatchObject({ kind: 'forbidden', addressClass: 'metadata' });
  });

  it('in production allows a name whose addresses are all public, and returns them to connect to', async () => {
    const dns = new FakeHostResolver().set('hooks.example.test', '93.184.216.34', '2606:4700:4700::1111');
    await expect(vetTarget('https://hooks.example.test/x', production, dns)).resolves.toEqual({
      kind: 'allowed',
      host: 'hooks.example.test',
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
    });
  });

  it('classifies literal IPs in any spelling Node normalises, without asking DNS', async () => {
    const dns = new FakeHostResolver();
    const strict = { production: true, httpAllowlist: [] };
    for (const url of [
      'https://0x7f.1/x',
      'https://2130706433/x',
      'https://0xa.0.0.1/x',
      'https://[::ffff:10.0.0.1]/x',
    ]) {
      await expect(vetTarget(url, strict, dns)).resolves.toMatchObject({ kind: 'forbidden' });
    }
    // The allowlist compares the normalised host: 0x7f.1 is 127.0.0.1.
    await expect(vetTarget('http://0x7f.1:4000/x', production, dns)).resolves.toMatchObject({ kind: 'unchecked' });
    await expect(vetTarget('https://8.8.8.8/x', production, dns)).resolves.toMatchObject({
      kind: 'allowed',
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
    await expect(vetTarget('https://app.localhost/x', production, dns)).resolves.toMatchObject({
      kind: 'forbidden',
      addressClass: 'loopback',
    });
    expect(dns.lookups).toEqual([]);
  });

  it('checks nothing for allowlisted hosts in production, nor for any host outside production', async () => {
    const dns = new FakeHostResolver().set('dev.example.test', '10.0.0.1');
    await expect(vetTarget('http://127.0.0.1:4000/x', production, dns)).resolves.toMatchObject({ kind: 'unchecked' });
    await expect(vetTarget('https://dev.example.test/x', production, dns)).resolves.toMatchObject({
      kind: 'unchecked',
    });
    await expect(vetTarget('https://10.0.0.1/x', development, dns)).resolves.toMatchObject({ kind: 'unchecked' });
    expect(dns.lookups).toEqual([]);
  });

  it('a name that does not resolve is a retriable WebhookHostUnresolvedError', async () => {
    const dns = new FakeHostResolver().fail('flaky.example.test', 'EAI_AGAIN');
    const error = await vetTarget('https://flaky.example.test/x', production, dns).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookHostUnresolvedError);
    expect(error).toMatchObject({ code: 'WEBHOOK_HOST_UNRESOLVED', retriable: true, dnsCode: 'EAI_AGAIN' });
  });
});
