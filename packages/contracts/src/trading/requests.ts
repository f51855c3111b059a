import { z } from 'zod';
import { accountAddressSchema, addressSchema, conditionIdSchema, TOKEN_ID_PATTERN } from '../common/identifiers';
import { parseUnits } from '../common/decimal';
import { INT32_MAX, queryInt, queryOnce } from '../common/query';
import { cursorOffset } from '../clob/cursor';
import { MAX_BATCH_ORDERS, MAX_CANCEL_IDS, orderSubmission } from './order-submission';

/** Who is calling, as the gateway authenticated it (L2): the API key and the address it belongs to. */
export const caller = z.object({ apiKey: z.string().min(1).max(100), address: addressSchema });
export type Caller = z.output<typeof caller>;

/** Order ids are keccak hashes in lower-case hex; an upper-case one names the same order. */
export const orderIdSchema = z
  // A missing id says so: a misspelled field (`orderId` for `orderID`) read as a malformed id (a probe).
  .string({ error: (issue) => (issue.input === undefined ? 'is required (an order id, 0x + 64 hex)' : 'order id must be 0x + 64 hex') })
  .regex(/^0x[0-9a-fA-F]{64}$/, 'order id must be 0x + 64 hex')
  .transform((id) => id.toLowerCase());
const tokenId = z.string().regex(TOKEN_ID_PATTERN, 'must be a decimal token id');

/** An order whose signature the gateway verified: its hash, the recovered signer and the exchange domain. */
export const verifiedOrder = z.object({
  orderId: orderIdSchema,
  signer: addressSchema,
  exchange: z.enum(['standard', 'negRisk']),
  submission: orderSubmission,
});
export type VerifiedOrder = z.output<typeof verifiedOrder>;

/** The orders of one client request (`POST /order` or `POST /orders`). */
export const orderPlacement = z.object({
  caller,
  orders: z.array(verifiedOrder).min(1).max(MAX_BATCH_ORDERS),
});
export type OrderPlacement = z.output<typeof orderPlacement>;

/**
 * Orders in one NATS message at most (about 700 bytes each, well under NATS's 1 MB message limit).
 * The gateway sends the client requests that arrive while its previous request is answered together.
 */
export const MAX_ORDERS_PER_MESSAGE = 500;

/** Client requests placed together; the answer is each one's results, in the order given. */
export const placeOrdersRequest = z.object({
  placements: z
    .array(orderPlacement)
    .min(1)
    .refine((placements) => placements.reduce((n, p) => n + p.orders.length, 0) <= MAX_ORDERS_PER_MESSAGE, {
      message: `at most ${MAX_ORDERS_PER_MESSAGE} orders per message`,
    }),
});
export type PlaceOrdersRequest = z.output<typeof placeOrdersRequest>;

export const cancelOrdersRequest = z.object({ caller, orderIds: z.array(orderIdSchema).min(1).max(MAX_CANCEL_IDS) });
export type CancelOrdersRequest = z.output<typeof cancelOrdersRequest>;

/** A request that names only its caller (`DELETE /cancel-all`; a deleted key's heartbeat session, ended). */
export const callerRequest = z.object({ caller });
/**
 * Both filters are optional (none: every market, as upstream's guide has it), so an unknown key is
 * refused rather than dropped: a misspelled filter (`condition_id`) would otherwise cancel everything.
 */
export const cancelMarketRequest = z.strictObject({
  caller,
  market: conditionIdSchema.optional(),
  asset_id: tokenId.optional(),
});
export type CancelMarketRequest = z.output<typeof cancelMarketRequest>;

export const getOrderRequest = z.object({ caller, id: orderIdSchema });
/**
 * The trading lists' filters, each given once. An unknown key is refused rather than dropped, as for
 * cancels: a filter spelled otherwise (`market[]=`, as some clients write arrays) answered the whole
 * list (found by a probe).
 */
export const listOrdersRequest = z.strictObject({
  caller,
  id: queryOnce('id', orderIdSchema).optional(),
  market: queryOnce('market', conditionIdSchema).optional(),
  asset_id: queryOnce('asset_id', tokenId).optional(),
  next_cursor: queryOnce('next_cursor', cursorOffset).default(0),
});
export type ListOrdersRequest = z.output<typeof listOrdersRequest>;

const unixSeconds = (name: string) => queryInt(name, 0, 99_999_999_999);
const addressParam = (name: string) => queryOnce(name, addressSchema).optional();
export const listTradesRequest = z.strictObject({
  caller,
  // Trade ids are lower-case UUIDs; an upper-case one names the same trade, as order ids do.
  id: queryOnce(
    'id',
    z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'id must be a trade id (a UUID)')
      .transform((v) => v.toLowerCase()),
  ).optional(),
  taker: addressParam('taker'),
  maker: addressParam('maker'),
  maker_address: addressParam('maker_address'),
  market: queryOnce('market', conditionIdSchema).optional(),
  asset_id: queryOnce('asset_id', tokenId).optional(),
  before: unixSeconds('before').optional(),
  after: unixSeconds('after').optional(),
  // The market lists' cursor and texts (`LTE=` says it is the end; they differed until the twenty-second session).
  next_cursor: queryOnce('next_cursor', cursorOffset).default(0),
});
export type ListTradesRequest = z.output<typeof listTradesRequest>;

export const balanceRequest = z
  .object({
    caller,
    asset_type: queryOnce('asset_type', z.enum(['COLLATERAL', 'CONDITIONAL'], { error: 'asset_type must be COLLATERAL or CONDITIONAL' })),
    token_id: queryOnce('token_id', tokenId).optional(),
    signature_type: queryInt('signature_type', 0, 3).optional(),
  })
  .refine((r) => r.asset_type === 'COLLATERAL' || r.token_id !== undefined, 'token_id is required for CONDITIONAL');
export type BalanceRequest = z.output<typeof balanceRequest>;

export const heartbeatRequest = z.object({
  caller,
  heartbeat_id: z.string().max(64).nullish().transform((v) => v ?? ''),
  /** Upstream's legacy `POST /heartbeats` names no session: it beats the key's session, starting one if none. */
  legacy: z.boolean().optional(),
});
export type HeartbeatRequest = z.output<typeof heartbeatRequest>;

/**
 * A positive amount of collateral or shares as a decimal string, read into base units: exact integers
 * up to 2^53 - 1 (docs/trading.md, "Ledger").
 */
export const amountSchema = z.string({ error: 'amount must be a decimal string' }).transform((v, ctx) => {
  const units = parseUnits(v);
  if (units === null || units <= 0) {
    // Past the bound the digits were fine: the text named only decimals (found by a probe).
    ctx.addIssue({ code: 'custom', message: 'amount must be a positive decimal with at most 6 decimals, at most 9007199254.740991' });
    return z.NEVER;
  }
  return units;
});

/** The operator's name for one deposit or withdrawal (a bank transfer's or a transaction's id, say). */
export const moneyReferenceSchema = z
  .string({ error: 'reference must be a string' })
  .regex(/^[\x21-\x7e]{1,128}$/, 'reference must be 1 to 128 visible ASCII characters (no spaces)');

export const moneyMoveRequest = z.object({ address: accountAddressSchema, amount: amountSchema, reference: moneyReferenceSchema.optional() });
export type MoneyMoveRequest = z.output<typeof moneyMoveRequest>;

/** The operator's view of one account. */
export const accountRequest = z.object({ address: addressSchema });
export type AccountRequest = z.output<typeof accountRequest>;

/** The operator binds a deposit wallet (signature type 3) to the owner whose signatures it accepts. */
export const bindWalletRequest = z.object({ wallet: accountAddressSchema, owner: accountAddressSchema });
export type BindWalletRequest = z.output<typeof bindWalletRequest>;
export interface WalletBinding {
  wallet: string;
  owner: string;
}

export const MONEY_MOVE_KINDS = ['deposit', 'withdrawal', 'split', 'merge', 'redeem'] as const;

/** The operator's list of money moves, newest first, by limit and offset like the catalog's lists. */
export const moneyMovesRequest = z.object({
  address: addressSchema.optional(),
  kind: z.enum(MONEY_MOVE_KINDS, { error: `kind must be one of ${MONEY_MOVE_KINDS.join(', ')}` }).optional(),
  reference: moneyReferenceSchema.optional(),
  limit: queryInt('limit', 1, 500).default(100),
  offset: queryInt('offset', 0, INT32_MAX).default(0),
});
export type MoneyMovesRequest = z.output<typeof moneyMovesRequest>;

/**
 * Which of the caller's accounts a money move acts on, by signature type as balance queries name it:
 * 0 the key's address, 3 its deposit wallet (1 and 2 are refused by the engine, which knows no such wallets).
 */
const signatureType = z.number({ error: 'signatureType must be 0 or 3' }).int().min(0).max(3).optional();

/** `reference`: the trader's name for the move, so that a retry after a lost answer is not applied twice. */
export const splitMergeRequest = z.object({
  caller,
  conditionId: conditionIdSchema,
  amount: amountSchema,
  signatureType,
  reference: moneyReferenceSchema.optional(),
});
export type SplitMergeRequest = z.output<typeof splitMergeRequest>;

export const redeemRequest = z.object({ caller, conditionId: conditionIdSchema, signatureType });
export type RedeemRequest = z.output<typeof redeemRequest>;

export const resolveRequest = z.object({
  conditionId: conditionIdSchema,
  /** The outcome index (0 = first outcome, "Yes") or its name. */
  winningOutcome: z.union([z.literal(0), z.literal(1), z.string().min(1).max(100)]),
});
export type ResolveRequest = z.output<typeof resolveRequest>;

export const postOnlyModeRequest = z
  .object({
    enabled: z.boolean(),
    // How long it stays on; 0 is accepted when switching it off (nothing to time), as clients send it.
    retryAfterSeconds: z.number().int().min(0).max(86_400).default(120),
  })
  .refine((r) => !r.enabled || r.retryAfterSeconds >= 1, { message: 'retryAfterSeconds must be >= 1 when enabling', path: ['retryAfterSeconds'] });
export type PostOnlyModeRequest = z.output<typeof postOnlyModeRequest>;
