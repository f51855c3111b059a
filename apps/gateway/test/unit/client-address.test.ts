import type { IncomingMessage } from 'node:http';
import { clientAddress, limitedAddress } from '../../src/http/client-address';

describe('clientAddress', () => {
  const request = (forwardedFor?: string | string[], remoteAddress = '10.0.0.9') =>
    ({ socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

  it('is the socket address unless proxies are trusted', () => {
    expect(clientAddress(request('1.2.3.4'), 0)).toBe('10.0.0.9');
  });

  it('takes the address the outermost trusted proxy saw, not what the client wrote', () => {
    expect(clientAddress(request('1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientAddress(request('6.6.6.6, 1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientAddress(request(['6.6.6.6', '1.2.3.4, 10.1.1.1']), 2)).toBe('1.2.3.4');
    expect(clientAddress(request(), 1)).toBe('10.0.0.9');
    expect(clientAddress(request('1.2.3.4'), 5)).toBe('1.2.3.4');
  });

  it('counts an IPv6 client by its /64, from the socket or a trusted proxy', () => {
    expect(clientAddress(request(undefined, '2001:db8:0:1:aaaa::1'), 0)).toBe('2001:db8:0:1::/64');
    expect(clientAddress(request('2001:db8:0:1:ffff:ffff:ffff:ffff'), 1)).toBe('2001:db8:0:1::/64');
    expect(clientAddress(request(undefined, '::ffff:10.0.0.9'), 0)).toBe('10.0.0.9');
  });
});

describe('limitedAddress', () => {
  it('keeps IPv4 as it is, mapped or not', () => {
    expect(limitedAddress('192.0.2.7')).toBe('192.0.2.7');
    expect(limitedAddress('::FFFF:192.0.2.7')).toBe('192.0.2.7');
  });

  it('gives every address of one /64 the same key, however it is written, and others another', () => {
    const spellings = ['2001:db8:0:1::1', '2001:0db8:0000:0001:0000:0000:0000:0002', '2001:DB8:0:1:1:2:3:4', '2001:db8:0:1::9%eth0'];
    expect(new Set(spellings.map(limitedAddress))).toEqual(new Set(['2001:db8:0:1::/64']));
    expect(limitedAddress('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(limitedAddress('::1')).toBe('0:0:0:0::/64');
    expect(limitedAddress('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('leaves what is not an address as written (an unknown proxy value)', () => {
    expect(limitedAddress('unknown')).toBe('unknown');
    expect(limitedAddress('not-an-ip')).toBe('not-an-ip');
  });
});
