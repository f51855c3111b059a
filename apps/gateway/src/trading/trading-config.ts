import { z } from 'zod';
import { EXCHANGE_V2_CONTRACTS } from '@exchange/chain';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address');

/** Where orders are signed for: the EIP-712 verifying contracts (defaults: the upstream Polygon ones). */
export const tradingEnvShape = {
  EXCHANGE_ADDRESS: address.default(EXCHANGE_V2_CONTRACTS.standard),
  NEG_RISK_EXCHANGE_ADDRESS: address.default(EXCHANGE_V2_CONTRACTS.negRisk),
  /**
   * Order placement requests to order-matching that may wait for their answers at once; placements that
   * arrive meanwhile leave together in the next request (docs/gateway.md, "Order placement").
   */
  PLACE_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Least time between the starts of two placement requests, in ms (0: none): placements arriving in
   * between wait and leave together (docs/gateway.md, "Order placement").
   */
  PLACE_REQUEST_INTERVAL_MS: z.coerce.number().int().min(0).max(100).default(3),
  /**
   * A placement request unanswered for this long, in ms, no longer holds the next one back: placements
   * sent while the engine is down learn it at once (docs/gateway.md, "Order placement").
   */
  PLACE_REQUEST_STALL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
};
