import { createL1Headers } from '@polymarket/clob-client-v2';
import { Wallet } from 'ethers';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CLOB_AUTH_MESSAGE, verifyClobAuth } from '../src/clob-auth';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('L1 ClobAuth', () => {
  it('matches the py-clob-client test vector (chain 80001, timestamp 10000000, nonce 23)', () => {
    // tests/signing/test_eip712.py of Polymarket/py-clob-client, from when its test chain was Mumbai (80001).
    const signature =
      '0xd91760ebcb14e814e9e12600b9bc7cd6bf13ebc175f6a28538b4925763f94f90012da34dd71290d441c28bc4f9b2281d3eb9ecfd1c9a63db1ce9ca85c89c914c1b';
    expect(verifyClobAuth({ address: ADDRESS, signature, timestamp: '10000000', nonce: 23, chainId: 80001 })).toBe(true);
    expect(verifyClobAuth({ address: ADDRESS, signature, timestamp: '10000000', nonce: 24, chainId: 80001 })).toBe(false);
    expect(verifyClobAuth({ address: ADDRESS, signature, timestamp: '10000000', nonce: 23, chainId: 137 })).toBe(false);
  });

  it('verifies the L1 headers of the upstream TypeScript client', async () => {
    const signer = createWalletClient({ account: privateKeyToAccount(KEY), transport: http('http://127.0.0.1:9') });
    for (const nonce of [undefined, 0, 7]) {
      const headers = await createL1Headers(signer, 137, nonce);
      expect(headers.POLY_ADDRESS).toBe(ADDRESS);
      const fields = { address: headers.POLY_ADDRESS, signature: headers.POLY_SIGNATURE, timestamp: headers.POLY_TIMESTAMP, chainId: 137 };
      expect(verifyClobAuth({ ...fields, nonce: headers.POLY_NONCE })).toBe(true);
      expect(verifyClobAuth({ ...fields, address: ADDRESS.toLowerCase(), nonce: headers.POLY_NONCE })).toBe(true);
      expect(verifyClobAuth({ ...fields, nonce: Number(headers.POLY_NONCE) + 1 })).toBe(false);
      expect(verifyClobAuth({ ...fields, timestamp: String(Number(headers.POLY_TIMESTAMP) + 1), nonce: headers.POLY_NONCE })).toBe(false);
      expect(verifyClobAuth({ ...fields, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', nonce: headers.POLY_NONCE })).toBe(false);
    }
  });

  it('verifies a ClobAuth signed with ethers v6', async () => {
    const wallet = new Wallet(KEY);
    const signature = await wallet.signTypedData(
      { name: 'ClobAuthDomain', version: '1', chainId: 137 },
      {
        ClobAuth: [
          { name: 'address', type: 'address' },
          { name: 'timestamp', type: 'string' },
          { name: 'nonce', type: 'uint256' },
          { name: 'message', type: 'string' },
        ],
      },
      { address: ADDRESS, timestamp: '1700000000', nonce: 0, message: CLOB_AUTH_MESSAGE },
    );
    expect(verifyClobAuth({ address: ADDRESS, signature, timestamp: '1700000000', nonce: 0n, chainId: 137 })).toBe(true);
    expect(verifyClobAuth({ address: ADDRESS, signature: signature.slice(0, 20), timestamp: '1700000000', nonce: 0n, chainId: 137 })).toBe(false);
    expect(verifyClobAuth({ address: 'not an address', signature, timestamp: '1700000000', nonce: 0n, chainId: 137 })).toBe(false);
    expect(verifyClobAuth({ address: ADDRESS, signature, timestamp: '1700000000', nonce: 'x', chainId: 137 })).toBe(false);
  });
});
