import fc from 'fast-check';
import { OrderBook, Side, type Fill, type MatchingBook, type PlaceCommand, type PlaceResult, type TimeInForce } from '../../../src/core';
import { ReferenceBook } from '../../../src/core/reference-book';

/**
 * Differential property tests: random command streams go through the fast OrderBook and the naive
 * ReferenceBook; after every step the results, fills, best prices, depth and every resting order must be
 * the same, and the invariants must hold.
 */

type Step =
  | { kind: 'place'; side: Side; price: number; size: number; tif: TimeInForce; postOnly: boolean; reuse: number | null; maxFills?: number }
  | { kind: 'cancel'; pick: number; unknown: boolean };

const MID_LEVEL = 5_000; // 0.5000 in ticks of 100

/** Prices on the grid a few ticks around the middle, so orders cross often; takers sometimes off-grid or at 0/1. */
const placeStep: fc.Arbitrary<Step> = fc
  .record({
    side: fc.constantFrom(Side.BID, Side.ASK),
    level: fc.integer({ min: MID_LEVEL - 8, max: MID_LEVEL + 8 }),
    offGrid: fc.integer({ min: -99, max: 99 }),
    tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTC', 'GTC', 'FAK', 'FOK'),
    limitKind: fc.constantFrom('grid', 'grid', 'off', 'extreme'),
    size: fc.oneof(
      { weight: 20, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => n * 10_000) }, // 0.01-share multiples
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 45 }) }, // beyond 2^31
    ),
    postOnly: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
    reuseRoll: fc.integer({ min: 0, max: 19 }), // 1 in 20 places reuses an earlier id
    reusePick: fc.nat(),
    // 1 in 5 places may trade with at most 0-4 resting orders.
    maxFills: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 4 }) }),
  })
  .map(({ side, level, offGrid, tif, limitKind, size, postOnly, reuseRoll, reusePick, maxFills }) => {
    let price = level * 100;
    if (tif !== 'GTC' && limitKind === 'off') price += offGrid;
    if (tif !== 'GTC' && limitKind === 'extreme') price = side === Side.BID ? 1_000_000 : 0;
    return { kind: 'place' as const, side, price, size, tif, postOnly, reuse: reuseRoll === 0 ? reusePick : null, ...(maxFills === undefined ? {} : { maxFills }) };
  });

const cancelStep: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('cancel' as const),
  pick: fc.nat(),
  unknown: fc.integer({ min: 0, max: 9 }).map((n) => n < 1),
});

const streams = fc.array(fc.oneof({ weight: 3, arbitrary: placeStep }, { weight: 1, arbitrary: cancelStep }), {
  minLength: 1,
  maxLength: 150,
  size: 'max', // lengths spread over the whole range, not fast-check's short default
});

function same(what: string, fast: unknown, reference: unknown): void {
  const a = JSON.stringify(fast);
  const b = JSON.stringify(reference);
  if (a !== b) throw new Error(`${what} differ:\n  fast:      ${a}\n  reference: ${b}`);
}

/** Runs a stream through both books, comparing and checking invariants after every step. */
function runStream(steps: Step[], compareEvery = 1): void {
  const fast = new OrderBook();
  const reference = new ReferenceBook();
  const ids: number[] = []; // every id used so far
  let nextId = 1;
  // Size accounting: accepted = resting + 2 * traded + cancelled + dropped.
  let accepted = 0;
  let traded = 0;
  let cancelled = 0;
  let dropped = 0;

  steps.forEach((step, n) => {
    let touched: number;
    if (step.kind === 'place') {
      const id = step.reuse !== null && ids.length > 0 ? ids[step.reuse % ids.length] : nextId++;
      ids.push(id);
      touched = id;
      const cmd: PlaceCommand = { id, side: step.side, price: step.price, size: step.size, tif: step.tif, postOnly: step.postOnly, maxFills: step.maxFills };
      const fastFills: Fill[] = [];
      const referenceFills: Fill[] = [];
      const result = fast.place(cmd, fastFills);
      same(`step ${n} result`, result, reference.place(cmd, referenceFills));
      same(`step ${n} fills`, fastFills, referenceFills);
      checkResult(cmd, result, fastFills);
      for (const f of fastFills) {
        same(`step ${n} maker ${f.makerId} after its fill`, fast.order(f.makerId)?.remaining ?? 0, f.makerRemaining);
      }
      if (!result.outcome.startsWith('REJECTED')) {
        accepted += cmd.size;
        traded += result.filled;
        if (result.outcome === 'CANCELLED_REST') dropped += result.remaining;
      }
    } else {
      const id = step.unknown || ids.length === 0 ? 1_000_000_000 + step.pick : ids[step.pick % ids.length];
      touched = id;
      const left = fast.cancel(id);
      same(`step ${n} cancel ${id}`, left, reference.cancel(id));
      cancelled += left;
      if (fast.order(id) !== undefined) throw new Error(`step ${n}: ${id} still rests after its cancel`);
    }

    same(`step ${n} order ${touched}`, fast.order(touched), reference.order(touched));
    same(`step ${n} best`, [fast.bestBid(), fast.bestAsk()], [reference.bestBid(), reference.bestAsk()]);
    if (n % compareEvery !== 0 && n !== steps.length - 1) return;

    const resting = [...fast.orders()];
    same(`step ${n} orders`, resting, [...reference.orders()]);
    same(`step ${n} bid depth`, fast.depth(Side.BID, 10_001), reference.depth(Side.BID, 10_001));
    same(`step ${n} ask depth`, fast.depth(Side.ASK, 10_001), reference.depth(Side.ASK, 10_001));
    same(`step ${n} size`, fast.size, reference.size);
    checkBook(fast, resting, n);
    const restingSize = resting.reduce((sum, o) => sum + o.remaining, 0);
    same(`step ${n} conservation`, accepted, restingSize + 2 * traded + cancelled + dropped);
  });
}

/** A result agrees with its command and its fills. */
function checkResult(cmd: PlaceCommand, result: PlaceResult, fills: Fill[]): void {
  const fillSum = fills.reduce((sum, f) => sum + f.size, 0);
  if (result.fills !== fills.length || result.filled !== fillSum || result.filled + result.remaining !== cmd.size) {
    throw new Error(`inconsistent result ${JSON.stringify(result)} for ${JSON.stringify(cmd)}`);
  }
  for (const f of fills) {
    const acceptable = cmd.side === Side.BID ? f.price <= cmd.price : f.price >= cmd.price;
    if (!acceptable || f.size <= 0 || f.makerRemaining < 0) throw new Error(`bad fill ${JSON.stringify(f)} for ${JSON.stringify(cmd)}`);
  }
  const rejected = result.outcome.startsWith('REJECTED');
  if (rejected && (result.filled !== 0 || fills.length !== 0)) throw new Error(`a rejection traded: ${JSON.stringify(result)}`);
  if (result.outcome === 'RESTING' && cmd.tif !== 'GTC') throw new Error(`${cmd.tif} rested`);
  if (result.outcome === 'RESTING' && result.remaining <= 0) throw new Error('rested with nothing left');
  if (cmd.maxFills !== undefined && fills.length > cmd.maxFills) throw new Error(`${fills.length} fills past maxFills ${cmd.maxFills}`);
}

/** Book invariants: not crossed, nothing empty rests, levels add up, best prices are the depth's heads. */
function checkBook(book: MatchingBook, resting: ReturnType<MatchingBook['order']>[], n: number): void {
  if (!(book.bestBid() < book.bestAsk())) throw new Error(`step ${n}: crossed book ${book.bestBid()} >= ${book.bestAsk()}`);
  const levels = new Map<string, number>();
  for (const o of resting) {
    if (o === undefined || !(o.remaining > 0) || !Number.isSafeInteger(o.remaining)) throw new Error(`step ${n}: bad resting order ${JSON.stringify(o)}`);
    const key = `${o.side}:${o.price}`;
    levels.set(key, (levels.get(key) ?? 0) + o.remaining);
  }
  for (const side of [Side.BID, Side.ASK]) {
    const depth = book.depth(side, 10_001);
    for (const level of depth) same(`step ${n} level ${side}:${level.price}`, level.size, levels.get(`${side}:${level.price}`));
    for (const level of depth) same(`step ${n} levelSize ${side}:${level.price}`, book.levelSize(side, level.price), level.size);
    same(`step ${n} best of ${side}`, depth[0]?.price ?? (side === Side.BID ? 0 : 1_000_000), side === Side.BID ? book.bestBid() : book.bestAsk());
  }
  same(`step ${n} level count`, book.depth(Side.BID, 10_001).length + book.depth(Side.ASK, 10_001).length, levels.size);
}

describe('OrderBook against ReferenceBook on random command streams', () => {
  it('agrees after every step and keeps the invariants', () => {
    fc.assert(
      fc.property(streams, (steps) => runStream(steps)),
      { numRuns: 2_000 },
    );
  });

  it('agrees on long seeded streams that grow the book past its first capacity', () => {
    // Mostly GTC places over a wide band: the book grows past 1,024 orders (slot arrays and the id table grow).
    const wide = fc
      .record({
        side: fc.constantFrom(Side.BID, Side.ASK),
        level: fc.integer({ min: 1, max: 5_200 }),
        tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTC', 'GTC', 'GTC', 'GTC', 'GTC', 'FAK', 'FOK'),
        size: fc.integer({ min: 1, max: 1_000 }).map((n) => n * 10_000),
      })
      .map(({ side, level, tif, size }): Step => {
        // Bids in (0, 0.52], asks in [0.48, 1): the book fills up over the whole range and crosses in the middle.
        const price = (side === Side.BID ? level : 10_000 - level) * 100;
        return { kind: 'place', side, price, size, tif, postOnly: false, reuse: null };
      });
    const longStreams = fc.array(fc.oneof({ weight: 6, arbitrary: wide }, { weight: 1, arbitrary: cancelStep }), {
      minLength: 4_000,
      maxLength: 4_000,
    });
    fc.assert(
      fc.property(longStreams, (steps) => runStream(steps, 97)),
      { numRuns: 5, seed: 20_250_601, endOnFailure: true }, // shrinking 4,000-step streams takes too long
    );
  });
});
