// What the load generators need to trade like a client: an HTTP caller, a fresh market, wallets with
// native secp256k1 keys, L1 credentials, EIP-712 V2 signed orders and L2 HMAC headers.
// `call(method, path, headers, body)` is the caller of `httpCaller` (`{status, body, text}`, the body parsed).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const chain = require('../packages/chain/dist/index.js');
const secp = require('secp256k1');

export const CHAIN_ID = 137;
/** The operator's headers (`ADMIN_TOKEN`, the development token by default). */
export const ADMIN = { authorization: `Bearer ${process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me'}`, 'content-type': 'application/json' };
const EXCHANGE = chain.EXCHANGE_V2_CONTRACTS.standard;
const ZERO32 = `0x${'0'.repeat(64)}`;

export function wallet() {
  let key;
  do key = randomBytes(32);
  while (!secp.privateKeyVerify(key));
  const pub = secp.publicKeyCreate(key, false).slice(1);
  const address = chain.toChecksumAddress(`0x${Buffer.from(chain.keccak256(pub)).subarray(12).toString('hex')}`);
  const sign = (digest) => {
    const { signature, recid } = secp.ecdsaSign(digest, key);
    return `0x${Buffer.from(signature).toString('hex')}${(27 + recid).toString(16)}`;
  };
  return { address, sign };
}

/** `call(method, path, headers, body)` against the exchange at `base`: `{status, body, text}`, the body parsed when there is one. */
export function httpCaller(base) {
  return async (method, path, headers = {}, body) => {
    const response = await fetch(base + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
  };
}

/**
 * A fresh binary market of the benchmark `name` (ticks of 0.01, 5 shares at least): its condition id and
 * Yes token. Post-only mode is switched off first: a restarted exchange holds it for a while.
 */
export async function freshMarket(call, name) {
  await call('POST', '/admin/post-only-mode', ADMIN, JSON.stringify({ enabled: false }));
  const slug = `${name}-${randomBytes(4).toString('hex')}`;
  const created = await call('POST', '/admin/events', ADMIN, JSON.stringify({
    title: `Benchmark ${name}`, slug, description: '', endDate: '2030-01-01T00:00:00Z',
    markets: [{ question: `${name}?`, slug: `${slug}-m`, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5', negRisk: false }],
  }));
  if (created.status !== 201) throw new Error(`create market: ${created.status} ${created.text}`);
  const { conditionId, clobTokenIds } = created.body.markets[0];
  return { conditionId, yes: JSON.parse(clobTokenIds)[0] };
}

/** Splits `amount` of a trader's collateral into the market's shares, once order-matching knows the market (it learns it from the catalog's stream). */
export async function splitOnceKnown(call, trader, creds, conditionId, amount) {
  const body = JSON.stringify({ conditionId, amount });
  while ((await call('POST', '/split', l2Headers(trader, creds, body, '/split'), body)).status !== 200) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The API credentials of a wallet (its key of nonce 0). */
export async function credentials(call, trader) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const digest = chain.clobAuthDigestBytes({ address: trader.address, timestamp, nonce: 0n, chainId: CHAIN_ID });
  const headers = { POLY_ADDRESS: trader.address, POLY_SIGNATURE: trader.sign(digest), POLY_TIMESTAMP: timestamp, POLY_NONCE: '0' };
  const response = await call('GET', '/auth/derive-api-key', headers);
  if (response.status !== 200) throw new Error(`derive-api-key: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The JSON body of POST /order: a GTC order, or a GTD one with an `expiration` (unix s); BUY pays `collateral` for `shares`, SELL the reverse. */
export function orderBody(trader, creds, tokenId, side, shares, collateral, expiration = 0) {
  const [makerAmount, takerAmount] = side === 'BUY' ? [collateral, shares] : [shares, collateral];
  const order = {
    salt: randomBytes(6).readUIntBE(0, 6),
    maker: trader.address,
    signer: trader.address,
    tokenId,
    makerAmount: String(makerAmount),
    takerAmount: String(takerAmount),
    side,
    signatureType: 0,
    timestamp: String(Date.now()),
    expiration: String(expiration),
    metadata: ZERO32,
    builder: ZERO32,
  };
  const digest = chain.orderV2Digest(order, { chainId: CHAIN_ID, verifyingContract: EXCHANGE });
  return JSON.stringify({ order: { ...order, signature: trader.sign(digest) }, owner: creds.apiKey, orderType: expiration ? 'GTD' : 'GTC' });
}

/** Fresh L2 headers for a request of `body` to `path` (a POST unless `method` says otherwise). */
export function l2Headers(trader, creds, body, path, method = 'POST') {
  const timestamp = String(Date.now());
  return {
    'content-type': 'application/json',
    SVC_ADDRESS: trader.address,
    SVC_API_KEY: creds.apiKey,
    SVC_PASSPHRASE: creds.passphrase,
    SVC_TIMESTAMP: timestamp,
    SVC_SIGNATURE: chain.l2Signature(creds.secret, timestamp, method, path, body),
  };
}
