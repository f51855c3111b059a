import type { IncomingMessage } from 'node:http';

/**
 * The address a request came from: the socket's, or, behind `trustedHops` proxies that each append the
 * address they received from to X-Forwarded-For, the one the outermost trusted proxy saw. Entries to the
 * left of it were written by the client and are not believed.
 */
export function clientAddress(request: IncomingMessage, trustedHops: number): string {
  const socketAddress = request.socket.remoteAddress ?? 'unknown';
  if (trustedHops === 0) return socketAddress;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chain = [...forwarded, socketAddress];
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}
