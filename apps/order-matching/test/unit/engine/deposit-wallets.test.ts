import { DepositWallets } from '../../../src/engine/deposit-wallets';

const [owner, wallet, other, third] = ['0x' + '1'.repeat(40), '0x' + '2'.repeat(40), '0x' + '3'.repeat(40), '0x' + '4'.repeat(40)];

describe('deposit wallet bindings', () => {
  let wallets: DepositWallets;

  beforeEach(() => {
    wallets = new DepositWallets();
    wallets.bind(wallet, owner);
  });

  it('keep a binding for good, the same one again accepted', () => {
    expect(wallets.refusal(wallet, owner)).toBeUndefined();
    expect(wallets.refusal(wallet, other)).toMatchObject({ status: 409, body: { error: expect.stringContaining('is bound to another owner') } });
  });

  it('give an owner one wallet', () => {
    expect(wallets.refusal(other, owner)).toMatchObject({ status: 409, body: { error: expect.stringContaining('(one per owner)') } });
  });

  it('keep wallets and owners apart: a contract wallet is not a key that signs', () => {
    // A wallet as another's owner, and an owner as another's wallet (the soak bound both: chains of accounts).
    expect(wallets.refusal(third, wallet)).toMatchObject({ status: 409, body: { error: expect.stringContaining('is itself the deposit wallet of') } });
    expect(wallets.refusal(owner, third)).toMatchObject({ status: 409, body: { error: expect.stringContaining('is itself the owner of deposit wallet') } });
    expect(wallets.refusal(third, third)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(wallets.refusal(third, other)).toBeUndefined();
  });
});
