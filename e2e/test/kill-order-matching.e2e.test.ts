import { Pool } from 'pg';
import type { MatchingEvent, MatchingEventBatch } from '@exchange/contracts';
import { readStream, until, waitHealthy, type AppProcess } from '@exchange/testing';
import { json } from '../src/http';
import { expectLedgerBalanced } from '../src/ledger';
import { oneMarket } from '../src/markets';
import { startStack, type Stack } from '../src/stack';
import { Trader } from '../src/trader';

const u = (cents: number) => BigInt(cents) * 10_000n;

/**
 * order-matching is killed with SIGKILL in the middle of a stream of orders. Every acknowledged order
 * and trade must be there after the restart, the ledger must balance, and the rebuilt books must be the
 * ones the database holds.
 */
describe('SIGKILL of order-matching during a stream of orders', () => {
  let stack: Stack;
  const traders: Trader[] = [];
  let yes: string;
  /** The engine that took over in the second test. */
  let serving: AppProcess | undefined;

  beforeAll(async () => {
    stack = await startStack();
    const market = await oneMarket(stack, 'kill-test', { outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5', negRisk: false });
    yes = market.tokens[0];
    for (let i = 0; i < 2; i++) {
      const trader = new Trader(stack.base);
      await trader.deriveCredentials();
      const deposited = await stack.admin('POST', '/admin/deposits', { address: trader.address, amount: '100000' });
      expect({ status: deposited.status, body: await json(deposited) }).toMatchObject({ status: 200, body: { collateral: { available: '100000' } } });
      traders.push(trader);
    }
    // The engine learns of the market from the catalog's stream: the split is refused until it has.
    const { conditionId } = market;
    await until(
      async () => ((await traders[0]!.request('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${yes}`)).status === 200 ? true : undefined),
      20_000,
      'the engine knows the market',
    );
    expect(await traders[0]!.request('POST', '/split', { conditionId, amount: '50000' })).toMatchObject({ status: 200, body: { collateral: { available: '50000' } } });
    expect((await traders[0]!.request('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${yes}`)).body.balance).toBe('50000000000');
    await expectLedgerBalanced(stack);
  });
  afterAll(() => stack?.stop());

  const openOrders = async () => {
    const all = [];
    for (const trader of traders) {
      const page = await trader.request('GET', '/data/orders');
      all.push(...page.body.data.map((o: { id: string; size_matched: string; price: string; side: string }) => [o.id, o.side, o.price, o.size_matched]));
    }
    return all.sort();
  };

  it('keeps every acknowledged order and trade, and the ledger balanced', async () => {
    const acked: { trader: Trader; orderID: string; tradeIDs: string[] }[] = [];
    let sent = 0;
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; i < 40; i++) {
        const n = sent++;
        const trader = traders[n % 2]!;
        // Trader 0 sells above the middle, trader 1 buys around it: about a third cross.
        const cents = n % 2 === 0 ? 48 + (n % 5) : 46 + (n % 7);
        const side = n % 2 === 0 ? 'SELL' : 'BUY';
        const body = await trader.order({ tokenId: yes, side, shares: 5_000_000n, collateral: u(cents) * 5n });
        const response = await trader.request('POST', '/order', body).catch(() => undefined);
        if (response?.status === 200 && response.body.success) acked.push({ trader, orderID: response.body.orderID, tradeIDs: response.body.tradeIDs });
        if (!killed && w === 0 && i === 15) {
          killed = true;
          await stack.restart('order-matching', 'SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    expect(killed).toBe(true);
    expect(acked.length).toBeGreaterThan(100);
    // About a third cross: the trades below are checked only if there are some.
    const tradeCount = acked.reduce((n, a) => n + a.tradeIDs.length, 0);
    expect(tradeCount).toBeGreaterThan(0);

    for (const { trader, orderID, tradeIDs } of acked) {
      const order = await trader.request('GET', `/data/order/${orderID}`);
      expect(order.status).toBe(200);
      for (const id of tradeIDs) {
        const trades = await trader.request('GET', `/data/trades?id=${id}`);
        expect(trades.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
      }
    }
    const audit = await expectLedgerBalanced(stack);

    // The stream has every acknowledged order's placement once, and each book change once, in order:
    // rows published before the kill but not yet checkpointed were sent again and dropped as duplicates.
    const placed = new Set(acked.map((a) => a.orderID));
    let events: MatchingEvent[] = [];
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      events = (await readStream(stack.prefix, 'MATCHING')).flatMap((m) => (m.data as MatchingEventBatch).events);
      const seen = new Set(events.flatMap((e) => (e.type === 'order' && e.data.type === 'PLACEMENT' ? [e.data.id] : [])));
      if ([...placed].every((id) => seen.has(id))) break;
    }
    const placements = events.flatMap((e) => (e.type === 'order' && e.data.type === 'PLACEMENT' ? [e.data.id] : []));
    expect(new Set(placements).size).toBe(placements.length);
    expect(placements.filter((id) => placed.has(id)).length).toBe(placed.size);
    const bookSeqs = events.flatMap((e) => (e.type === 'book' ? [e.data.bookSeq] : []));
    expect(bookSeqs).toEqual(bookSeqs.map((_, i) => i + 1));

    // The books rebuilt from the database after another kill are the ones before it.
    const before = await openOrders();
    expect(before.length).toBeGreaterThan(0);
    await stack.restart('order-matching', 'SIGKILL');
    expect(await openOrders()).toEqual(before);
    expect(await expectLedgerBalanced(stack)).toEqual(audit);
  });

  it('a second engine started on the same database waits while the first runs, and takes over once the first is killed', async () => {
    const { app: second, health } = await stack.startAnother('order-matching');
    await until(async () => (second.output().includes("another engine writes this database's journal") ? true : undefined), 30_000, 'the second engine to wait');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await fetch(health).then((r) => r.status, () => 'not listening')).toBe('not listening');

    // The first still trades, and still learns of new markets: the second left its catalog consumer alone.
    const ask = await traders[0]!.request('POST', '/order', await traders[0]!.order({ tokenId: yes, side: 'SELL', shares: 5_000_000n, collateral: u(97) * 5n }));
    expect(ask.body).toMatchObject({ success: true, status: 'live' });
    const later = await oneMarket(stack, 'kill-test-later', { outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5', negRisk: false });
    await until(
      async () => ((await traders[0]!.request('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${later.tokens[0]}`)).status === 200 ? true : undefined),
      20_000,
      'the first engine to learn of a new market',
    );

    await stack.process('order-matching').stop('SIGKILL');
    await waitHealthy(health, second, 30_000);
    // The second holds the books (the ask rests there) and trades.
    expect((await traders[0]!.request('GET', `/data/order/${ask.body.orderID}`)).body).toMatchObject({ status: 'LIVE' });
    const bid = await traders[1]!.request('POST', '/order', await traders[1]!.order({ tokenId: yes, side: 'BUY', shares: 5_000_000n, collateral: u(97) * 5n }));
    expect(bid.body).toMatchObject({ success: true, status: 'matched' });
    await expectLedgerBalanced(stack);
    serving = second;
  });

  it('takes over from an engine that froze (its journal session ended), which exits when it wakes', async () => {
    // A partition as the new engine sees it: the old process stops (SIGSTOP) with its NATS connection
    // open, and its journal session is ended, as infra/README.md tells an operator to.
    const old = serving!;
    const { app: next, health } = await stack.startAnother('order-matching');
    await until(async () => (next.output().includes("another engine writes this database's journal") ? true : undefined), 30_000, 'the next engine to wait');
    old.child.kill('SIGSTOP');
    const db = new Pool({ connectionString: stack.databaseUrl('order-matching'), max: 1 });
    try {
      const ended = await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1', [
        `order-matching journal % pid ${old.child.pid}`,
      ]);
      expect(ended.rowCount).toBe(1);
      await waitHealthy(health, next, 30_000);
      old.child.kill('SIGCONT');
      await until(async () => (old.child.exitCode !== null ? true : undefined), 15_000, 'the old engine to exit');
      expect(old.child.exitCode).toBe(70);
    } finally {
      old.child.kill('SIGCONT');
      await db.end();
    }
    // The new engine serves everything, the book it loaded included.
    const ask = await traders[0]!.request('POST', '/order', await traders[0]!.order({ tokenId: yes, side: 'SELL', shares: 5_000_000n, collateral: u(95) * 5n }));
    expect(ask.body).toMatchObject({ success: true, status: 'live' });
    for (let i = 0; i < 4; i++) expect((await traders[i % 2]!.request('GET', '/balance-allowance?asset_type=COLLATERAL')).status).toBe(200);
    await expectLedgerBalanced(stack);
  });
});
