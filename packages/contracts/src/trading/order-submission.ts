import { z } from 'zod';
import { ADDRESS_PATTERN, CONDITION_ID_PATTERN, TOKEN_ID_PATTERN } from '../common/identifiers';

/** The signed CLOB V2 order as clients send it (UPSTREAM.md section 1). */
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x + 64 hex');
const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;
/** metadata and builder: the zero hash when unused, which upstream's API example writes as "". */
const optionalBytes32 = bytes32
  .or(z.literal('').transform(() => ZERO_BYTES32))
  .default(ZERO_BYTES32);
const uintString = (name: string) => z.string().regex(/^\d{1,78}$/, `${name} must be a decimal integer string`);

export const signedOrder = z.object({
  salt: z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), uintString('salt')]),
  maker: z.string().regex(ADDRESS_PATTERN, 'maker must be an address'),
  signer: z.string().regex(ADDRESS_PATTERN, 'signer must be an address'),
  tokenId: z.string().regex(TOKEN_ID_PATTERN, 'tokenId must be a decimal token id'),
  /**
   * Not signed (the stock clients leave it out); when given, it must be the token's market: an order
   * naming another market was placed in its token's (found by fuzzing).
   */
  conditionId: z
    .string()
    .regex(CONDITION_ID_PATTERN, 'conditionId must be 0x + 64 hex')
    .transform((id) => id.toLowerCase())
    .nullish(),
  makerAmount: uintString('makerAmount'),
  takerAmount: uintString('takerAmount'),
  side: z.enum(['BUY', 'SELL'], { error: 'side must be BUY or SELL' }),
  signatureType: z.number().int().min(0).max(3),
  timestamp: uintString('timestamp'),
  expiration: uintString('expiration').default('0'),
  metadata: optionalBytes32,
  builder: optionalBytes32,
  signature: z.string().regex(/^0x[0-9a-fA-F]*$/, 'signature must be hex').max(4_000),
});
export type SignedOrder = z.output<typeof signedOrder>;

export const ORDER_TYPES = ['GTC', 'GTD', 'FOK', 'FAK'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const orderSubmission = z.object({
  order: signedOrder,
  owner: z.string().min(1).max(100),
  orderType: z.enum(ORDER_TYPES, { error: 'orderType must be GTC, GTD, FOK or FAK' }).default('GTC'),
  postOnly: z.boolean().default(false),
  deferExec: z.boolean().default(false),
});
export type OrderSubmission = z.output<typeof orderSubmission>;

export const MAX_BATCH_ORDERS = 15;
export const MAX_CANCEL_IDS = 1_000;
