import { checkCommand } from './preconditions';
import {
  NO_ASK,
  NO_BID,
  Side,
  type Fill,
  type MatchingBook,
  type PlaceCommand,
  type PlaceResult,
  type PriceLevel,
  type RestingOrder,
} from './types';

/**
 * The naive book, the test oracle for {@link OrderBook}: two arrays kept in priority order (bids by price
 * descending, asks by price ascending, arrival order inside a price) and linear scans for everything.
 * Written to be obviously right, not fast. Not used outside tests.
 */
export class ReferenceBook implements MatchingBook {
  private readonly bids: RestingOrder[] = [];
  private readonly asks: RestingOrder[] = [];

  get size(): number {
    return this.bids.length + this.asks.length;
  }

  bestBid(): number {
    return this.bids.length > 0 ? this.bids[0].price : NO_BID;
  }

  bestAsk(): number {
    return this.asks.length > 0 ? this.asks[0].price : NO_ASK;
  }

  place(cmd: PlaceCommand, out: Fill[]): PlaceResult {
    checkCommand(cmd);
    const rejected = (outcome: PlaceResult['outcome']): PlaceResult => ({ outcome, filled: 0, remaining: cmd.size, fills: 0 });
    if (this.order(cmd.id) !== undefined) return rejected('REJECTED_DUPLICATE_ID');

    const opposite = cmd.side === Side.BID ? this.asks : this.bids;
    const acceptable = (maker: RestingOrder): boolean => (cmd.side === Side.BID ? maker.price <= cmd.price : maker.price >= cmd.price);
    const crossing = opposite.filter(acceptable);

    if (cmd.postOnly && crossing.length > 0) return rejected('REJECTED_POST_ONLY');
    if (cmd.tif === 'FOK') {
      const available = crossing.reduce((sum, maker) => sum + maker.remaining, 0);
      if (available < cmd.size) return rejected('REJECTED_FOK');
    }
    if (cmd.maxFills !== undefined) {
      let needed = 0;
      for (let left = cmd.size, i = 0; left > 0 && i < crossing.length; i++, needed++) left -= crossing[i]!.remaining;
      if (needed > cmd.maxFills) return rejected('REJECTED_TOO_MANY_FILLS');
    }

    let left = cmd.size;
    let fills = 0;
    while (left > 0 && opposite.length > 0 && acceptable(opposite[0])) {
      const maker = opposite[0];
      const size = Math.min(left, maker.remaining);
      left -= size;
      maker.remaining -= size;
      out.push({ makerId: maker.id, price: maker.price, size, makerRemaining: maker.remaining });
      fills++;
      if (maker.remaining === 0) opposite.shift();
    }

    const filled = cmd.size - left;
    if (left === 0) return { outcome: 'FILLED', filled, remaining: 0, fills };
    if (cmd.tif !== 'GTC') return { outcome: 'CANCELLED_REST', filled, remaining: left, fills };

    const own = cmd.side === Side.BID ? this.bids : this.asks;
    const behind = (other: RestingOrder): boolean => (cmd.side === Side.BID ? other.price < cmd.price : other.price > cmd.price);
    const at = own.findIndex(behind);
    own.splice(at === -1 ? own.length : at, 0, { id: cmd.id, side: cmd.side, price: cmd.price, remaining: left });
    return { outcome: 'RESTING', filled, remaining: left, fills };
  }

  cancel(id: number): number {
    for (const list of [this.bids, this.asks]) {
      const at = list.findIndex((o) => o.id === id);
      if (at !== -1) return list.splice(at, 1)[0].remaining;
    }
    return 0;
  }

  levelSize(side: Side, price: number): number {
    const own = side === Side.BID ? this.bids : this.asks;
    return own.filter((o) => o.price === price).reduce((sum, o) => sum + o.remaining, 0);
  }

  depth(side: Side, maxLevels: number): PriceLevel[] {
    const levels: PriceLevel[] = [];
    for (const o of side === Side.BID ? this.bids : this.asks) {
      const last = levels[levels.length - 1];
      if (last !== undefined && last.price === o.price) last.size += o.remaining;
      else levels.push({ price: o.price, size: o.remaining });
    }
    return levels.slice(0, maxLevels);
  }

  order(id: number): RestingOrder | undefined {
    const o = this.bids.find((b) => b.id === id) ?? this.asks.find((a) => a.id === id);
    return o === undefined ? undefined : { ...o };
  }

  orders(): Iterable<RestingOrder> {
    return [...this.bids, ...this.asks].map((o) => ({ ...o }));
  }
}
