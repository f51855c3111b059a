import { Inject, Injectable } from '@nestjs/common';
import { verifyOrderV2, type ExchangeDomain } from '@exchange/chain';
import {
  describeIssues,
  orderSubmission,
  readOrderTerms,
  rejectedOrderResult,
  rejectionResult,
  Rejections,
  type OrderResult,
  type OrderSubmission,
  type VerifiedOrder,
} from '@exchange/contracts';
import { GATEWAY_ENV, type GatewayEnv } from '../config';
import { HotMetadata, type OrderSettings } from '../market-data/hot-metadata.service';

export type Checked = { verified: VerifiedOrder } | { failed: OrderResult };
type Exchange = VerifiedOrder['exchange'];

/** A submission of a V1 order: `nonce` or `feeRateBps`, which V2 took out of the signed order, and no V2 `timestamp`. */
function isV1Order(input: unknown): boolean {
  const order: unknown = typeof input === 'object' && input !== null ? (input as { order?: unknown }).order : undefined;
  return typeof order === 'object' && order !== null && ('nonce' in order || 'feeRateBps' in order) && !('timestamp' in order);
}

function failed(orderId: string, errorMsg: string): { failed: OrderResult } {
  return { failed: rejectedOrderResult(orderId, 'INVALID_ORDER_ERROR', errorMsg) };
}

/**
 * Checks an order submission at the edge: its shape; the market's settings from the hot metadata
 * (known token, open market, tick grid, minimum size, with the engine's texts); and its EIP-712
 * signature (native secp256k1) for the market's exchange, standard or neg-risk. The gateway scales
 * out; the single writer should not spend its time on signatures or on orders it would refuse.
 * The engine checks everything again: these settings may be a moment behind its own. Without hot
 * metadata for the token (Redis down, or a market market-data has not seen yet), the signature is
 * tried for both exchanges and the engine judges the rest.
 */
@Injectable()
export class OrderVerifier {
  private readonly domains: Record<Exchange, ExchangeDomain>;

  constructor(
    @Inject(GATEWAY_ENV) env: GatewayEnv,
    private readonly hot: HotMetadata,
  ) {
    this.domains = {
      standard: { chainId: env.CHAIN_ID, verifyingContract: env.EXCHANGE_ADDRESS },
      negRisk: { chainId: env.CHAIN_ID, verifyingContract: env.NEG_RISK_EXCHANGE_ADDRESS },
    };
  }

  async check(input: unknown): Promise<Checked> {
    if (isV1Order(input)) return { failed: rejectionResult('', Rejections.orderVersion()) };
    const parsed = orderSubmission.safeParse(input);
    if (!parsed.success) return failed('', `Invalid order payload: ${describeIssues(parsed.error)}`);
    const submission = parsed.data;
    const settings = await this.hot.orderSettings(submission.order.tokenId);
    // The market's own exchange first; the other one only to tell a wrong exchange from a bad signature.
    const exchanges: Exchange[] = settings?.negRisk ? ['negRisk', 'standard'] : ['standard', 'negRisk'];
    let orderId = '';
    for (const exchange of exchanges) {
      const verification = verifyOrderV2(submission.order, submission.order.signature, this.domains[exchange]);
      if (!verification) return failed('', 'Invalid order payload: malformed signed fields');
      orderId ||= verification.orderHash;
      if (!verification.owner) continue;
      if (settings === undefined) return { verified: { orderId: verification.orderHash, signer: verification.owner, exchange, submission } };
      if (exchange !== exchanges[0]) return { failed: rejectionResult(verification.orderHash, Rejections.wrongExchange()) };
      return this.refusal(verification.orderHash, submission, settings) ?? {
        verified: { orderId: verification.orderHash, signer: verification.owner, exchange, submission },
      };
    }
    return failed(orderId, 'invalid signature');
  }

  /** The engine's market checks, in its order, on the hot settings. */
  private refusal(orderId: string, submission: OrderSubmission, settings: OrderSettings): { failed: OrderResult } | undefined {
    if (!settings.acceptingOrders) return { failed: rejectionResult(orderId, Rejections.marketNotReady()) };
    const marketable = submission.orderType === 'FOK' || submission.orderType === 'FAK';
    const terms = readOrderTerms(orderId, submission.order, marketable, settings);
    return 'code' in terms ? { failed: rejectionResult(orderId, terms) } : undefined;
  }
}
