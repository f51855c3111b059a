import { randomBytes } from 'node:crypto';
import { parseUnits, type Caller, type OrderType, type VerifiedOrder } from '@exchange/contracts';
import { OrderBook } from '../../src/core';
import { EngineState } from '../../src/engine/engine-state';
import type { FeeSchedule } from '../../src/engine/fees';
import type { MarketState, OrderState } from '../../src/engine/model';
import { audit, deposit } from '../../src/engine/money';

export const FEE_ACCOUNT = '0x00000000000000000000000000000000000fee00';
export const CONDITION = `0x${'c0'.repeat(32)}`;
export const YES = '1111';
export const NO = '2222';
/** The time of the fixture's commands (ms) when a test does not care which. */
export const NOW = 1_700_000_000_000;
export const NO_FEES: FeeSchedule = { ratePpm: 0, exponent: 1, takerOnly: true, rebateRatePpm: 0 };

export function traderOf(n: number): Caller {
  return { apiKey: `key-${n}`, address: `0x${String(n).padStart(40, '0')}` };
}

export function newEngine(fee: FeeSchedule = NO_FEES, market: Partial<MarketState> = {}): EngineState {
  let next = 0;
  const state = new EngineState({ feeAccount: FEE_ACCOUNT, newId: () => `trade-${++next}` });
  state.addMarket(aMarket({ fee, ...market }));
  return state;
}

/** The fixture's market (CONDITION, YES/NO, no fees) with any setting changed. */
export function aMarket(market: Partial<MarketState> = {}): MarketState {
  return {
    conditionId: CONDITION,
    tokenIds: [YES, NO],
    outcomes: ['Yes', 'No'],
    tickSize: 10_000,
    minOrderSize: 5_000_000,
    negRisk: false,
    negRiskMarketId: '',
    fee: NO_FEES,
    acceptingOrders: true,
    winningOutcome: -1,
    book: new OrderBook(),
    ...market,
  };
}

export function fund(state: EngineState, trader: Caller, amount: string): void {
  deposit(state, { address: trader.address, amount: parseUnits(amount)! }, NOW);
}

/** A signed order as a client builds it: BUY pays collateral for shares, SELL the reverse. */
export function anOrder(
  trader: Caller,
  o: { token?: string; side: 'BUY' | 'SELL'; price: string; size: string; type?: OrderType; postOnly?: boolean; expiration?: number; collateral?: string },
): VerifiedOrder {
  const shares = parseUnits(o.size)!;
  const collateral = o.collateral ? parseUnits(o.collateral)! : Number((BigInt(shares) * BigInt(parseUnits(o.price)!)) / 1_000_000n);
  const [makerAmount, takerAmount] = o.side === 'BUY' ? [collateral, shares] : [shares, collateral];
  return {
    orderId: `0x${randomBytes(32).toString('hex')}`,
    signer: trader.address,
    exchange: 'standard',
    submission: {
      owner: trader.apiKey,
      orderType: o.type ?? 'GTC',
      postOnly: o.postOnly ?? false,
      deferExec: false,
      order: {
        salt: 1,
        maker: trader.address,
        signer: trader.address,
        tokenId: o.token ?? YES,
        makerAmount: String(makerAmount),
        takerAmount: String(takerAmount),
        side: o.side,
        signatureType: 0,
        timestamp: '1',
        expiration: String(o.expiration ?? 0),
        metadata: `0x${'0'.repeat(64)}`,
        builder: `0x${'0'.repeat(64)}`,
        signature: '0x',
      },
    },
  };
}

/** A deposit wallet's order (signature type 3): the wallet signs and makes it, its owner's signature recovered. */
export function aWalletOrder(owner: Caller, wallet: string, o: Parameters<typeof anOrder>[1]): VerifiedOrder {
  const order = anOrder(owner, o);
  return { ...order, submission: { ...order.submission, order: { ...order.submission.order, signatureType: 3, maker: wallet, signer: wallet } } };
}

/** Conservation of collateral and shares (ARCHITECTURE.md), checked after every operation in tests. */
export function expectConserved(state: EngineState): void {
  const result = audit(state);
  expect(result.unbalancedMarkets).toEqual([]);
  expect(result.collateral + result.backing).toBe(result.deposits - result.withdrawals);
  // One expectation for all orders: property tests run this after each of thousands of commands.
  expect([...state.orders.values()].filter((order) => !(order.reserved >= 0)).map((order) => order.id)).toEqual([]);
}

export function balanceOf(state: EngineState, trader: Caller, asset: string) {
  return state.ledger.get(trader.address, asset);
}

/** The per-owner, per-maker and per-market indexes hold exactly the resting orders, each under its own key. */
export function expectIndexesAgree(state: EngineState): void {
  expect(state.bySeq.size).toBe(state.orders.size);
  for (const [index, keyOf] of [
    [state.byOwner, (o: OrderState) => o.owner],
    [state.byMaker, (o: OrderState) => o.maker],
    [state.byMarket, (o: OrderState) => o.conditionId],
  ] as const) {
    let indexed = 0;
    for (const [key, group] of index.entries()) {
      expect(group.size).toBeGreaterThan(0);
      for (const order of group) {
        expect(keyOf(order)).toBe(key);
        expect(state.orders.get(order.id)).toBe(order);
      }
      indexed += group.size;
    }
    expect(indexed).toBe(state.orders.size);
  }
}
