// What both load generators need to trade like a client: wallets with native secp256k1 keys, L1
// credentials, EIP-712 V2 signed orders and L2 HMAC headers. `call(method, path, headers, body)` is each
// script's own HTTP function (`{status, body}` with the body parsed).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const chain = require('../packages/chain/dist/index.js');
const secp = require('secp256k1');

export const CHAIN_ID = 137;
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
