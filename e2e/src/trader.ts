import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { l2Signature, ORDER_V2_TYPED_DATA_TYPES } from '@exchange/chain';
import { json, type Json } from './http';

const CHAIN_ID = 137;
export const STANDARD_EXCHANGE = '0xE111180000d2663C0091e4f400237545B87B996B';
const ZERO32 = `0x${'0'.repeat(64)}` as const;

interface Credentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/**
 * A fresh wallet talking to the exchange over HTTP the way Polymarket clients do: an L1 ClobAuth
 * signature for credentials, L2 HMAC headers on every trading request, EIP-712 V2 signed orders.
 */
export class Trader {
  readonly account: PrivateKeyAccount;
  credentials!: Credentials;

  /** A fresh wallet, or one whose key a test also gives to another client. */
  constructor(
    private readonly base: string,
    privateKey = generatePrivateKey(),
  ) {
    this.account = privateKeyToAccount(privateKey);
  }

  get address(): `0x${string}` {
    return this.account.address;
  }

  async deriveCredentials(nonce = 0): Promise<Credentials> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = await this.account.signTypedData({
      domain: { name: 'ClobAuthDomain', version: '1', chainId: CHAIN_ID },
      types: {
        ClobAuth: [
          { name: 'address', type: 'address' },
          { name: 'timestamp', type: 'string' },
          { name: 'nonce', type: 'uint256' },
          { name: 'message', type: 'string' },
        ],
      },
      primaryType: 'ClobAuth',
      message: { address: this.address, timestamp, nonce: BigInt(nonce), message: 'This message attests that I control the given wallet' },
    });
    const response = await fetch(`${this.base}/auth/derive-api-key`, {
      headers: { POLY_ADDRESS: this.address, POLY_SIGNATURE: signature, POLY_TIMESTAMP: timestamp, POLY_NONCE: String(nonce) },
    });
    if (response.status !== 200) throw new Error(`derive-api-key: ${response.status} ${await response.text()}`);
    this.credentials = await json(response);
    return this.credentials;
  }

  /** An L2-signed request; `path` may carry a query string, which is not signed. The body is parsed when it is JSON. */
  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const response = await this.send(method, path, body);
    // `DELETE /auth/api-key` answers the text OK, as upstream.
    const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
    return { status: response.status, body: isJson ? await json(response) : await response.text() };
  }

  /** The L2-signed request itself, for a test that reads the headers of the answer. */
  send(method: string, path: string, body?: unknown): Promise<Response> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const timestamp = String(Date.now());
    const signature = l2Signature(this.credentials.secret, timestamp, method, path.split('?')[0]!, text);
    return fetch(this.base + path, {
      method,
      headers: {
        SVC_ADDRESS: this.address,
        SVC_API_KEY: this.credentials.apiKey,
        SVC_PASSPHRASE: this.credentials.passphrase,
        SVC_TIMESTAMP: timestamp,
        SVC_SIGNATURE: signature,
        ...(text === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: text,
    });
  }

  /** A signed order submission: BUY pays `collateral` for `shares`, SELL the reverse (base units). */
  async order(o: { tokenId: string; side: 'BUY' | 'SELL'; shares: bigint; collateral: bigint; orderType?: string; postOnly?: boolean; expiration?: number }) {
    const [makerAmount, takerAmount] = o.side === 'BUY' ? [o.collateral, o.shares] : [o.shares, o.collateral];
    const message = {
      salt: BigInt(randomBytes(6).readUIntBE(0, 6)),
      maker: this.address,
      signer: this.address,
      tokenId: BigInt(o.tokenId),
      makerAmount,
      takerAmount,
      side: o.side === 'BUY' ? 0 : 1,
      signatureType: 0,
      timestamp: BigInt(Date.now()),
      metadata: ZERO32,
      builder: ZERO32,
    };
    const signature = await this.account.signTypedData({
      domain: { name: 'Polymarket CTF Exchange', version: '2', chainId: CHAIN_ID, verifyingContract: STANDARD_EXCHANGE },
      types: ORDER_V2_TYPED_DATA_TYPES,
      primaryType: 'Order',
      message,
    });
    return {
      order: {
        salt: Number(message.salt),
        maker: this.address,
        signer: this.address,
        tokenId: o.tokenId,
        makerAmount: String(makerAmount),
        takerAmount: String(takerAmount),
        side: o.side,
        signatureType: 0,
        timestamp: String(message.timestamp),
        expiration: String(o.expiration ?? 0),
        metadata: ZERO32,
        builder: ZERO32,
        signature,
      },
      owner: this.credentials.apiKey,
      orderType: o.orderType ?? 'GTC',
      postOnly: o.postOnly ?? false,
    };
  }
}
