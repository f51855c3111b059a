import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Who made an L2-authenticated request. */
export interface ApiCaller {
  apiKey: string;
  /** Lower-case 0x address the key belongs to. */
  address: string;
}

/** Who signed an L1 request, and for which nonce. */
export interface L1Signer {
  /** Lower-case 0x address. */
  address: string;
  /** uint256 in canonical decimal. */
  nonce: string;
}

/** What the guards leave on the request for the handlers. */
export interface AuthenticatedRequest {
  apiCaller?: ApiCaller;
  l1Signer?: L1Signer;
  /** A signed write's replay claim, with which its answer is kept if it fails (fastify-setup.ts). */
  replayClaim?: string;
}

/** The caller that L2AuthGuard authenticated: `@UseGuards(L2AuthGuard)` ... `handler(@ApiCaller() caller: ApiCaller)`. */
export const ApiCaller = createParamDecorator((_data: unknown, context: ExecutionContext): ApiCaller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().apiCaller;
  if (!caller) throw new Error('@ApiCaller() used on a route without L2AuthGuard');
  return caller;
});

/** The wallet that L1AuthGuard authenticated. */
export const L1Signer = createParamDecorator((_data: unknown, context: ExecutionContext): L1Signer => {
  const signer = context.switchToHttp().getRequest<AuthenticatedRequest>().l1Signer;
  if (!signer) throw new Error('@L1Signer() used on a route without L1AuthGuard');
  return signer;
});
