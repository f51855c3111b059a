import { createHash } from 'node:crypto';
import type { TradeEvent } from '@exchange/contracts';
import { bookSummary } from '../../src/books/book-summary';
import { L2Book } from '../../src/books/l2-book';
import { bestAsk, bestBid, lastTradeOf, midpointOf, spreadOf, tokenLevels, toLevels, yesTermsOf } from '../../src/books/token-view';

function aBook(): L2Book {
  const book = new L2Book();
  book.apply({
    bookSeq: 1,
    timestamp: 5,
    changes: [
      { side: 'BID', price: '380000', size: '2000000' },
      { side: 'BID', price: '400000', size: '10000000' },
      { side: 'ASK', price: '600000', size: '5000000' },
      { side: 'ASK', price: '650000', size: '7500000' },
    ],
  });
  return book;
}

describe('a token view of the one YES book', () => {
  it('shows the YES book as it is, best level last', () => {
    const { bids, asks } = tokenLevels(aBook(), 0);
    expect(toLevels(bids)).toEqual([
      { price: '0.38', size: '2' },
      { price: '0.4', size: '10' },
    ]);
    expect(toLevels(asks)).toEqual([
      { price: '0.65', size: '7.5' },
      { price: '0.6', size: '5' },
    ]);
  });

  it('mirrors it for the NO token at 1 - p: YES asks become NO bids, YES bids NO asks', () => {
    const { bids, asks } = tokenLevels(aBook(), 1);
    expect(toLevels(bids)).toEqual([
      { price: '0.35', size: '7.5' },
      { price: '0.4', size: '5' },
    ]);
    expect(toLevels(asks)).toEqual([
      { price: '0.62', size: '2' },
      { price: '0.6', size: '10' },
    ]);
    expect([bestBid(aBook(), 1), bestAsk(aBook(), 1)]).toEqual([400_000, 600_000]);
  });

  it('prices: midpoint, else last trade, else 0.5; spread with empty sides as 0 and 1', () => {
    const empty = new L2Book();
    expect(midpointOf(aBook(), undefined, 1)).toBe(500_000);
    expect(midpointOf(empty, undefined, 0)).toBe(500_000);
    expect(midpointOf(empty, { price: 700_000, side: 'BUY', seq: 1, time: 0 }, 1)).toBe(300_000);
    expect(spreadOf(aBook(), 0)).toBe(200_000);
    expect(spreadOf(empty, 0)).toBe(1_000_000);
  });

  it('takes a trade in YES terms from its last fill, and mirrors it back per token', () => {
    const trade = {
      tokenId: 'no',
      side: 'BUY',
      price: '440000',
      makers: [
        { tokenId: 'no', price: '430000' },
        { tokenId: 'yes', price: '550000' },
      ],
    } as unknown as TradeEvent;
    const yes = yesTermsOf(trade, 1);
    expect(yes).toEqual({ price: 550_000, side: 'SELL' });
    expect(lastTradeOf({ ...yes, seq: 1, time: 0 }, 1)).toEqual({ price: 450_000, side: 'BUY' });
  });
});

describe('book summary hash', () => {
  it('is the SHA-1 of the JSON with hash "", as upstream clients compute it, and follows the content', () => {
    const input = {
      market: '0xabc',
      assetId: '1',
      timestampMs: 1_700_000_000_000,
      bids: [{ price: '0.4', size: '10' }],
      asks: [],
      minOrderSize: '5',
      tickSize: '0.01',
      negRisk: false,
      lastTradePrice: '0.5',
    };
    const summary = bookSummary(input);
    const recomputed = createHash('sha1')
      .update(JSON.stringify({ ...JSON.parse(JSON.stringify(summary)), hash: '' }))
      .digest('hex');
    expect(summary.hash).toBe(recomputed);
    expect(Object.keys(summary)).toEqual(['market', 'asset_id', 'timestamp', 'hash', 'bids', 'asks', 'min_order_size', 'tick_size', 'neg_risk', 'last_trade_price']);
    expect(bookSummary(input).hash).toBe(summary.hash);
    expect(bookSummary({ ...input, bids: [{ price: '0.4', size: '11' }] }).hash).not.toBe(summary.hash);
  });
});
