import { classifyAddress, type AddressClass } from './address-class';

describe('classifyAddress', () => {
  const table: ReadonlyArray<readonly [string, AddressClass]> = [
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['192.169.0.1', 'public'],
    ['169.254.169.254', 'metadata'],
    ['169.254.0.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['100.128.0.1', 'public'],
    ['100.63.255.255', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    // IPv6
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2::255', 'private'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['[2606:4700:4700::1111]', 'public'],
    ['4000::1', 'reserved'],
    // IPv4 inside IPv6: classified by the IPv4 address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['::127.0.0.1', 'reserved'],
    // not addresses
    ['example.com', 'not-an-ip'],
    ['', 'not-an-ip'],
    ['256.0.0.1', 'not-an-ip'],
  ];

  it.each(table)('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  // Node's URL parser turns every IPv4 spelling into dotted decimal; the classifier sees that.
  const urlForms: ReadonlyArray<readonly [string, string, AddressClass]> = [
    ['http://2130706433/', '127.0.0.1', 'loopback'],
    ['http://0x7f.1/', '127.0.0.1', 'loopback'],
    ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
    ['http://017700000001/', '127.0.0.1', 'loopback'],
    ['http://127.1/', '127.0.0.1', 'loopback'],
    ['http://0xa.0.0.1/', '10.0.0.1', 'private'],
    ['http://167772161/', '10.0.0.1', 'private'],
    ['http://0xa9fea9fe/', '169.254.169.254', 'metadata'],
    ['http://0/', '0.0.0.0', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', 'loopback'],
    ['http://[0:0::1]/', '[::1]', 'loopback'],
  ];

  it.each(urlForms)('the URL host of %s is %s, %s', (url, hostname, expected) => {
    const host = new URL(url).hostname;
    expect(host).toBe(hostname);
    expect(classifyAddress(host)).toBe(expected);
  });
});
