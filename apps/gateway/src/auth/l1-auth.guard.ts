import type { IncomingMessage } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isAddress, verifyClobAuth } from '@exchange/chain';
import { ApiError } from '../http/api-error';
import { RateLimiter } from '../rate-limits/rate-limiter';
import type { AuthenticatedRequest, L1Signer } from './api-caller';
import { authHeader, isFresh, type RequestHeaders } from './auth-headers';
import { AuthResources, type AuthSettings } from './auth-resources';

const NONCE = /^[0-9]{1,78}$/;
const UINT256_LIMIT = 1n << 256n;

/**
 * L1: the request carries a ClobAuth EIP-712 signature of the wallet in `*_ADDRESS` over `*_TIMESTAMP`
 * (fresh within the window) and `*_NONCE` (default 0). Returns who signed, or null.
 */
export function verifyL1Headers(headers: RequestHeaders, settings: AuthSettings, nowMs: number): L1Signer | null {
  const address = authHeader(headers, 'address');
  const signature = authHeader(headers, 'signature');
  const timestamp = authHeader(headers, 'timestamp');
  const nonceHeader = authHeader(headers, 'nonce') ?? '0';
  if (!address || !isAddress(address) || !signature || !timestamp) return null;
  if (!isFresh(timestamp, nowMs, settings.maxSkewMs)) return null;
  if (!NONCE.test(nonceHeader) || BigInt(nonceHeader) >= UINT256_LIMIT) return null;
  const nonce = BigInt(nonceHeader);
  if (!verifyClobAuth({ address, signature, timestamp, nonce, chainId: settings.chainId })) return null;
  return { address: address.toLowerCase(), nonce: nonce.toString() };
}

/**
 * Refuses a request without a valid L1 signature (401); leaves the signer for `@L1Signer()`. Each check
 * costs a signature recovery, so failures count against the client's address as L2 failures do
 * (`RateLimiter`): an address with too many is refused with 429 before the recovery.
 */
@Injectable()
export class L1AuthGuard implements CanActivate {
  constructor(
    private readonly resources: AuthResources,
    private readonly limiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { headers: RequestHeaders; raw: IncomingMessage }>();
    // Always the address: a key header must not spare an L1 request's recovery the address's count.
    const party = this.limiter.clientOf(request.raw);
    this.limiter.refuseFailing(party);
    const signer = verifyL1Headers(request.headers, this.resources.settings, Date.now());
    if (!signer) {
      this.limiter.authFailed(party);
      throw ApiError.of('unauthorized', 'Invalid L1 Request headers');
    }
    request.l1Signer = signer;
    return true;
  }
}
