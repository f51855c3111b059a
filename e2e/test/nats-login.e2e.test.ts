import { connect } from 'nats';
import { startPrivateNats, until, type PrivateNats } from '@exchange/testing';
import { json } from '../src/http';
import { expectLedgerBalanced } from '../src/ledger';
import { oneMarket } from '../src/markets';
import { startStack, type Stack } from '../src/stack';
import { Trader } from '../src/trader';

const u = (cents: number) => BigInt(cents) * 10_000n;

/**
 * The whole exchange on a NATS server that asks for a user and a password, given in NATS_URL's user part
 * as an operator writes it, the user in a NATS account of its own (as docs/architecture.md, "Prefix",
 * advises for deployments that must not reach each other): requests, JetStream streams and consumers all
 * log in. Before, nats.js dropped the URL's user part and no app could start on such a server.
 */
describe('an exchange whose NATS asks for credentials', () => {
  let nats: PrivateNats;
  let stack: Stack;

  beforeAll(async () => {
    nats = await startPrivateNats({ jetstream: true, login: { user: 'exchange', pass: 'n@ts/p:ss', account: 'EXCHANGE' } });
    stack = await startStack({ natsUrl: nats.url.replace('nats://', 'nats://exchange:n%40ts%2Fp%3Ass@') });
  });
  afterAll(async () => {
    await stack?.stop();
    await nats?.close();
  });

  it('trades, publishes its events and serves market data as on an open one', async () => {
    await expect(connect({ servers: nats.url })).rejects.toThrow(/Authorization Violation/i);
    const { tokens } = await oneMarket(stack, 'login-test', { outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5', negRisk: false });
    const [yes, no] = tokens;
    const [maker, taker] = [new Trader(stack.base), new Trader(stack.base)];
    for (const trader of [maker, taker]) {
      await trader.deriveCredentials();
      expect((await stack.admin('POST', '/admin/deposits', { address: trader.address, amount: '100' })).status).toBe(200);
    }
    // The engine learns of the market from the catalog's stream.
    const resting = await until(async () => {
      const placed = await maker.request('POST', '/order', await maker.order({ tokenId: yes, side: 'BUY', shares: 10_000_000n, collateral: u(40) * 10n }));
      return placed.status === 200 ? placed : undefined;
    }, 20_000, 'the engine knows the market');
    expect(resting.body).toMatchObject({ success: true, status: 'live' });

    // Market data reads the engine's stream: the bid shows in the book.
    await until(async () => {
      const book = await fetch(`${stack.base}/book?token_id=${yes}`).then((r) => json(r));
      return book.bids?.some((level: { price: string; size: string }) => level.price === '0.4' && level.size === '10') ? true : undefined;
    }, 10_000, 'the bid in the book');

    // A bid for No at 0.60 meets the bid for Yes at 0.40: a mint.
    const crossing = await taker.request('POST', '/order', await taker.order({ tokenId: no, side: 'BUY', shares: 10_000_000n, collateral: u(60) * 10n }));
    expect(crossing).toMatchObject({ status: 200, body: { success: true, status: 'matched' } });
    await until(async () => ((await maker.request('GET', '/data/trades')).body.data.length === 1 ? true : undefined), 10_000, "the maker's trade");
    await expectLedgerBalanced(stack);
  });
});
