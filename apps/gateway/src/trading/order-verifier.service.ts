import { Inject, Injectable } from '@nestjs/common';
import { verifyOrderV2, type ExchangeDomain } from '@exchange/chain';
import { describeIssues, orderSubmission, rejectedOrderResult, type OrderResult, type VerifiedOrder } from '@exchange/contracts';
import { GATEWAY_ENV, type GatewayEnv } from '../config';

export type Checked = { verified: VerifiedOrder } | { failed: OrderResult };

function failed(orderId: string, errorMsg: string): { failed: OrderResult } {
  return { failed: rejectedOrderResult(orderId, 'INVALID_ORDER_ERROR', errorMsg) };
}

/**
 * Checks an order submission at the edge: its shape, and its EIP-712 signature (native secp256k1) for
 * the standard exchange, or else for the neg-risk exchange; order-matching then checks that the market
 * is of that kind. The gateway scales out; the single writer should not spend its time on signatures.
 */
@Injectable()
export class OrderVerifier {
  private readonly domains: [VerifiedOrder['exchange'], ExchangeDomain][];

  constructor(@Inject(GATEWAY_ENV) env: GatewayEnv) {
    this.domains = [
      ['standard', { chainId: env.CHAIN_ID, verifyingContract: env.EXCHANGE_ADDRESS }],
      ['negRisk', { chainId: env.CHAIN_ID, verifyingContract: env.NEG_RISK_EXCHANGE_ADDRESS }],
    ];
  }

  check(input: unknown): Checked {
    const parsed = orderSubmission.safeParse(input);
    if (!parsed.success) return failed('', `Invalid order payload: ${describeIssues(parsed.error)}`);
    const submission = parsed.data;
    let orderId = '';
    for (const [exchange, domain] of this.domains) {
      const verification = verifyOrderV2(submission.order, submission.order.signature, domain);
      if (!verification) return failed('', 'Invalid order payload: malformed signed fields');
      orderId ||= verification.orderHash;
      if (verification.owner) return { verified: { orderId: verification.orderHash, signer: verification.owner, exchange, submission } };
    }
    return failed(orderId, 'invalid signature');
  }
}
