import { rejectedOrderResult, type OrderResult } from './resources';

/**
 * In-band order rejections with the upstream error texts and codes (UPSTREAM.md section 3), so that
 * clients that match on them keep working.
 */
export interface Rejection {
  code: string;
  message: string;
  retryAfterSeconds?: number;
}

const reject = (code: string, message: string, retryAfterSeconds?: number): Rejection => ({ code, message, retryAfterSeconds });

export const Rejections = {
  unknownToken: (tokenId: string) => reject('INVALID_ORDER_ERROR', `invalid token id ${tokenId}`),
  wrongMarket: (conditionId: string) => reject('INVALID_ORDER_ERROR', `the order's conditionId is not its token's market, ${conditionId}`),
  wrongExchange: () => reject('INVALID_ORDER_ERROR', 'invalid signature: the order is not signed for this market\'s exchange'),
  // Upstream's one text for a market that takes no orders (closed, paused by the operator or resolved):
  // clients compare it. The catalog's market says which.
  marketNotReady: () => reject('MARKET_NOT_READY', 'the market is not yet ready to process new orders'),
  postOnlyMode: (retryAfterSeconds: number) =>
    reject('post_only_mode', 'post-only mode: only post-only orders and cancels are allowed', retryAfterSeconds),
  postOnlyType: () => reject('INVALID_POST_ONLY_ORDER_TYPE', 'invalid post-only order: only GTC and GTD orders can be post-only'),
  postOnlyCrosses: () => reject('INVALID_POST_ONLY_ORDER', 'invalid post-only order: order crosses book'),
  expiration: () => reject('INVALID_ORDER_EXPIRATION', 'invalid expiration'),
  duplicated: (id: string) => reject('INVALID_ORDER_DUPLICATED', `order ${id} is invalid. Duplicated.`),
  tick: (id: string, price: string, tick: string) =>
    reject('INVALID_ORDER_MIN_TICK_SIZE', `order ${id} is invalid. Price (${price}) breaks minimum tick size rule: ${tick}`),
  minSize: (id: string, size: string, min: string) =>
    reject('INVALID_ORDER_MIN_SIZE', `order ${id} is invalid. Size (${size}) lower than the minimum: ${min}`),
  /** A market BUY's amount is dollars, and its text says so (it said "Size (0.5)"; found by a probe). */
  minAmount: (id: string, amount: string) =>
    reject('INVALID_ORDER_MIN_SIZE', `order ${id} is invalid. Amount ($${amount}) lower than the minimum: $1`),
  /** `decimals`: of the collateral amount on the market's tick (4 on a 0.01 tick, upstream's text). */
  limitPrecision: (side: 'BUY' | 'SELL', decimals: number) =>
    reject(
      'INVALID_ORDER_ERROR',
      side === 'BUY'
        ? `invalid amounts, the buy orders maker amount supports a max accuracy of ${decimals} decimals, taker amount a max of 2 decimals`
        : `invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of ${decimals} decimals`,
    ),
  marketPrecision: (side: 'BUY' | 'SELL', decimals: number) =>
    reject(
      'INVALID_ORDER_ERROR',
      `invalid amounts, the market ${side === 'BUY' ? 'buy' : 'sell'} orders maker amount supports a max accuracy of 2 decimals, taker amount a max of ${decimals} decimals`,
    ),
  zeroAmounts: () => reject('INVALID_ORDER_ERROR', 'invalid amounts: maker and taker amounts must be positive'),
  /** Amounts are exact integers up to 2^53 − 1 base units (docs/trading.md, "Ledger"). */
  hugeAmounts: () => reject('INVALID_ORDER_ERROR', 'invalid amounts: maker and taker amounts must be at most 9007199254740991 base units'),
  balance: () => reject('INVALID_ORDER_NOT_ENOUGH_BALANCE', 'not enough balance / allowance'),
  /** Not upstream's: its limit on the resting orders one order may take (docs/trading.md, "Matching"). */
  tooManyMakers: (max: number) =>
    reject('INVALID_ORDER_ERROR', `the order would trade with more than ${max} resting orders, the most one order may: split it into smaller orders`),
  /** Not upstream's: its limit on an account's resting orders (docs/trading.md, "Matching"). */
  tooManyOpenOrders: (max: number) =>
    reject(
      'INVALID_ORDER_ERROR',
      `the account has ${max} open orders, the most it may have: cancel some before placing more (FOK and FAK orders still go)`,
    ),
  /**
   * An order of upstream's V1 exchange (nonce and fee in the signed struct, no timestamp). The stock
   * clients look for `order_version_mismatch` in the error, read `/version` again and rebuild the order
   * for it; a V1 body was refused as an invalid payload until the twenty-ninth session.
   */
  orderVersion: () => reject('order_version_mismatch', 'order_version_mismatch: invalid order version, please use the latest clob-client (this exchange takes V2 orders)'),
  fokNotFilled: () => reject('FOK_ORDER_NOT_FILLED_ERROR', "order couldn't be fully filled. FOK orders are fully filled or killed."),
  fakNotFilled: () =>
    reject(
      'FAK_ORDER_NOT_FILLED_ERROR',
      'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
    ),
  owner: () => reject('INVALID_ORDER_ERROR', 'the order owner has to be the owner of the API KEY'),
  signer: () => reject('INVALID_ORDER_ERROR', 'the order signer address has to be the address of the API KEY'),
  /** Proxy and Safe wallets have no binding to their signers here (docs/trading.md, "Orders"). */
  unsupportedSignatureType: () =>
    reject('INVALID_ORDER_ERROR', 'signature types 1 (proxy) and 2 (Safe) are not supported: sign as 0 (EOA) or 3 (deposit wallet)'),
  /** Upstream's answer to an EOA order of an account that must trade through its deposit wallet (UPSTREAM.md). */
  depositWalletFlow: () => reject('INVALID_ORDER_ERROR', 'maker address not allowed, please use the deposit wallet flow'),
  /**
   * A type-3 order signed by the key's owner for an address that is not its deposit wallet. The signer
   * text said the signer was wrong when it was the key's own address (found by a probe).
   */
  notOwnWallet: (maker: string) =>
    reject(
      'INVALID_ORDER_ERROR',
      `the order maker ${maker} is not a deposit wallet of the API KEY's address: type 3 orders are made by the wallet the operator bound to it (POST /admin/wallets)`,
    ),
} as const;

/** The order result of a rejected order. */
export function rejectionResult(orderId: string, rejection: Rejection): OrderResult {
  return rejectedOrderResult(orderId, rejection.code, rejection.message, rejection.retryAfterSeconds);
}
