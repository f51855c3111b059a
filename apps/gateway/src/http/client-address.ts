import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a request came from, as the limits count it: the socket's, or, behind `trustedHops` proxies
 * that each append the address they received from to X-Forwarded-For, the one the outermost trusted proxy
 * saw. Entries to the left of it were written by the client and are not believed. See `limitedAddress`.
 */
export function clientAddress(request: IncomingMessage, trustedHops: number): string {
  const socketAddress = request.socket.remoteAddress ?? 'unknown';
  if (trustedHops === 0) return limitedAddress(socketAddress);
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chain = [...forwarded, socketAddress];
  return limitedAddress(chain[Math.max(0, chain.length - 1 - trustedHops)]!);
}

/**
 * An IPv4 address as it is (also when mapped into IPv6); an IPv6 address as its /64 network
 * (`2001:db8:0:1::/64`): one subscriber gets a whole /64 and may use any address of it, so per address
 * a client could leave every limit behind by changing its last 64 bits (a security probe). Anything else
 * (an unknown proxy's value) as written.
 */
export function limitedAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const plain = address.replace(/%.*$/, '');
  if (!isIPv6(plain)) return address;
  const [head = '', tail] = plain.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
