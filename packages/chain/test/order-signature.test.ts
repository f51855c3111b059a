import { OrderBuilder, orderToJsonV2, Side, SignatureTypeV2, type SignedOrder } from '@polymarket/clob-client-v2';
import { Wallet } from 'ethers';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseErc7739Signature } from '../src/erc7739';
import { EXCHANGE_V2_CONTRACTS, hashOrderV2, ORDER_V2_TYPE, type SignedOrderV2 } from '../src/order-v2';
import { verifyOrderSignature, verifyOrderV2 } from '../src/order-signature';
import { ORDER_TYPES, sampleOrder, ZERO32 } from './support/orders';

// Publicly known development keys (hardhat/anvil accounts 0 and 1).
const OWNER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OWNER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9c86dae88c7a7aea6d1d3a8e53f3a1';
const WALLET = '0x1111111111111111111111111111111111111111';
const POLYGON = { chainId: 137, verifyingContract: EXCHANGE_V2_CONTRACTS.standard };
const NEG_RISK = { chainId: 137, verifyingContract: EXCHANGE_V2_CONTRACTS.negRisk };

function walletClient(key: `0x${string}`) {
  // Signing typed data with a local account never uses the transport.
  return createWalletClient({ account: privateKeyToAccount(key), transport: http('http://127.0.0.1:9') });
}

/** An order built and signed by the upstream TypeScript client, as its JSON body carries it. */
async function upstreamOrder(options: { signatureType: SignatureTypeV2; funder?: string; negRisk?: boolean; side?: Side; key?: `0x${string}` }) {
  const builder = new OrderBuilder(walletClient(options.key ?? OWNER_KEY), 137, options.signatureType, options.funder);
  const signed = (await builder.buildOrder(
    { tokenID: '71321045679252212594626385532706912750332728571942532289631379312455583992563', price: 0.52, size: 10, side: options.side ?? Side.BUY },
    { tickSize: '0.01', negRisk: options.negRisk ?? false },
    2,
  )) as SignedOrder;
  return orderToJsonV2(signed as never, 'owner-api-key', 'GTC' as never).order as unknown as SignedOrderV2;
}

describe('order signatures (CLOB V2)', () => {
  it('verifies EOA orders signed by the upstream client (type 0), standard and neg-risk', async () => {
    for (const negRisk of [false, true]) {
      for (const side of [Side.BUY, Side.SELL]) {
        const order = await upstreamOrder({ signatureType: SignatureTypeV2.EOA, negRisk, side });
        expect(order.signatureType).toBe(0);
        expect(typeof order.salt).toBe('number');
        expect(order.makerAmount).toBe(side === Side.BUY ? '5200000' : '10000000');
        const domain = negRisk ? NEG_RISK : POLYGON;
        expect(verifyOrderSignature(order, order.signature, domain)).toBe(OWNER);
        // Signed for one exchange, it is not valid for the other.
        expect(verifyOrderSignature(order, order.signature, negRisk ? POLYGON : NEG_RISK)).toBeNull();
        expect(verifyOrderSignature(order, order.signature, { ...domain, chainId: 80002 })).toBeNull();
      }
    }
  });

  it('verifies EOA orders signed with viem and ethers, and refuses tampered ones', async () => {
    const order = sampleOrder();
    const message = { ...order, side: 0 };
    const domain = { name: 'Polymarket CTF Exchange', version: '2', chainId: 137, verifyingContract: POLYGON.verifyingContract as `0x${string}` };
    const viemSig = await privateKeyToAccount(OWNER_KEY).signTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: message as never });
    const ethersSig = await new Wallet(OWNER_KEY).signTypedData(domain, ORDER_TYPES, message);
    for (const signature of [viemSig, ethersSig]) {
      expect(verifyOrderV2(order, signature, POLYGON)).toEqual({ orderHash: hashOrderV2(order, POLYGON), owner: OWNER });
      // `expiration` is not signed: changing it changes nothing.
      expect(verifyOrderSignature({ ...order, expiration: '1900000000' } as SignedOrderV2, signature, POLYGON)).toBe(OWNER);
      for (const change of [{ makerAmount: '5200001' }, { side: 'SELL' as const }, { salt: 1 }, { timestamp: '1710000000001' }, { builder: ZERO32 }]) {
        expect(verifyOrderSignature({ ...order, ...change }, signature, POLYGON)).toBeNull();
      }
    }
  });

  it('requires signer == maker == the recovered key for type 0', async () => {
    const order = await upstreamOrder({ signatureType: SignatureTypeV2.EOA, key: OTHER_KEY });
    expect(verifyOrderSignature(order, order.signature, POLYGON)).toBe(order.signer.toLowerCase());
    expect(verifyOrderSignature({ ...order, maker: WALLET }, order.signature, POLYGON)).toBeNull();
    expect(verifyOrderSignature({ ...order, signer: OWNER }, order.signature, POLYGON)).toBeNull();
  });

  it('answers the signer EOA for proxy and Safe orders (types 1 and 2); the wallet binding is left to the caller', async () => {
    for (const signatureType of [SignatureTypeV2.POLY_PROXY, SignatureTypeV2.POLY_GNOSIS_SAFE]) {
      const order = await upstreamOrder({ signatureType, funder: WALLET });
      expect(order.maker.toLowerCase()).toBe(WALLET);
      expect(order.signer.toLowerCase()).toBe(OWNER);
      expect(verifyOrderSignature(order, order.signature, POLYGON)).toBe(OWNER);
    }
  });

  it('unwraps deposit-wallet orders (type 3, ERC-7739) built by the upstream client', async () => {
    for (const negRisk of [false, true]) {
      const order = await upstreamOrder({ signatureType: SignatureTypeV2.POLY_1271, funder: WALLET, negRisk });
      expect(order.maker).toBe(WALLET);
      expect(order.signer).toBe(WALLET);
      expect(order.signature.length).toBe(2 + 2 * (65 + 32 + 32 + ORDER_V2_TYPE.length + 2));
      const envelope = parseErc7739Signature(order.signature)!;
      expect(envelope.contentsType).toBe(ORDER_V2_TYPE);
      const domain = negRisk ? NEG_RISK : POLYGON;
      expect(verifyOrderSignature(order, order.signature, domain)).toBe(OWNER);
      expect(verifyOrderSignature(order, order.signature, negRisk ? POLYGON : NEG_RISK)).toBeNull();
    }
  });

  it('refuses deposit-wallet orders whose envelope does not match the order', async () => {
    const order = await upstreamOrder({ signatureType: SignatureTypeV2.POLY_1271, funder: WALLET });
    const sig = order.signature.slice(2);
    const flip = (at: number) => '0x' + sig.slice(0, at) + (sig[at] === '0' ? '1' : '0') + sig.slice(at + 1);
    // Another amount: the contents hash no longer matches.
    expect(verifyOrderSignature({ ...order, makerAmount: '1' }, order.signature, POLYGON)).toBeNull();
    // Another wallet: the TypedDataSign digest names the wallet, so the owner would not recover.
    const otherWallet = '0x2222222222222222222222222222222222222222';
    expect(verifyOrderSignature({ ...order, maker: otherWallet, signer: otherWallet }, order.signature, POLYGON)).not.toBe(OWNER);
    // signer != maker is refused on chain for type 3.
    expect(verifyOrderSignature({ ...order, signer: OWNER }, order.signature, POLYGON)).toBeNull();
    // Tampered app domain separator, contents hash, contents type or length suffix.
    expect(verifyOrderSignature(order, flip(2 * 65 + 3), POLYGON)).toBeNull();
    expect(verifyOrderSignature(order, flip(2 * 97 + 3), POLYGON)).toBeNull();
    expect(verifyOrderSignature(order, '0x' + sig.slice(0, -4) + '00b9', POLYGON)).toBeNull();
    expect(verifyOrderSignature(order, '0x' + sig.slice(0, 130), POLYGON)).toBeNull();
    // A tampered inner signature recovers someone else, or no one.
    expect(verifyOrderSignature(order, flip(10), POLYGON)).not.toBe(OWNER);
    // A plain 65-byte signature is not a deposit-wallet signature.
    expect(verifyOrderSignature(order, '0x' + sig.slice(0, 130), POLYGON)).toBeNull();
    // Unknown signature types and malformed orders verify nothing.
    expect(verifyOrderSignature({ ...order, signatureType: 4 }, order.signature, POLYGON)).toBeNull();
    expect(verifyOrderV2({ ...order, tokenId: 'abc' }, order.signature, POLYGON)).toBeNull();
  });

  it('matches the py-clob-client-v2 deposit-wallet test vector', () => {
    // tests/order_utils/test_exchange_order_builder_v2.py of Polymarket/py-clob-client-v2 (Amoy).
    const order = {
      salt: '479249096354',
      maker: WALLET,
      signer: WALLET,
      tokenId: '1234',
      makerAmount: '100000000',
      takerAmount: '50000000',
      side: 'BUY' as const,
      signatureType: 3,
      timestamp: '1710000000000',
      metadata: ZERO32,
      builder: ZERO32,
    };
    const signature =
      '0x' +
      [
        'a3a093c83b6c20c83355c16ce94c92e6e9fcbdeb840618cc74f6c57a42ad145b',
        '2b98db73d2c73cbf1f2b6af288566ae81960ddbc3a13921027358a8bff3be6ff1c',
        'a440cbd865bc0c6243d7a8df9a8bf48a8827b0a4abbb61c30e96d305423af148',
        'd23d42d3ad94e65d78258cecaf8dcbaddac0f73dc085040f2c12bb595dd83804',
        '4f726465722875696e743235362073616c742c61646472657373206d616b65722c',
        '61646472657373207369676e65722c75696e7432353620746f6b656e49642c75',
        '696e74323536206d616b6572416d6f756e742c75696e743235362074616b6572',
        '416d6f756e742c75696e743820736964652c75696e7438207369676e61747572',
        '65547970652c75696e743235362074696d657374616d702c6279746573333220',
        '6d657461646174612c62797465733332206275696c6465722900ba',
      ].join('');
    const amoy = { chainId: 80002, verifyingContract: EXCHANGE_V2_CONTRACTS.standard };
    expect(verifyOrderV2(order, signature, amoy)).toEqual({
      orderHash: '0x2afca94626db91b2d556c351584a4cd93e13da32e377dc48c7983e43afa5ab47',
      owner: OWNER,
    });
  });
});
