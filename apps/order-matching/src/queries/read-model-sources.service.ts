import { Injectable } from '@nestjs/common';
import {
  ok,
  type BookSnapshotsPage,
  type BookSnapshotsRequest,
  type Reply,
  type TradeFacts,
  type TradeHistoryPage,
  type TradeHistoryRequest,
} from '@exchange/contracts';
import { averagePrice } from '../engine/book-terms';
import { bookSnapshotsAfter } from '../engine/book-snapshots';
import { EngineService } from '../engine-host/engine.service';

/** Trades of the history as a consumer needs them: about 200 bytes each, far below 1 MB a message. */
const TRADES_PAGE = 2_000;

interface TradeRow {
  condition_id: string;
  id: string;
  token_id: string;
  side: 'BUY' | 'SELL';
  shares: string;
  collateral: string;
  match_time: string;
  maker_token_id: string | null;
  maker_price: number | null;
}

/** The trade's columns and its last fill's maker (whose price is the trade's), for `FROM ... t`. */
const TRADE_FACTS = `t.condition_id, t.id, t.token_id, t.side, t.shares, t.collateral, t.match_time,
  m.token_id AS maker_token_id, m.price AS maker_price`;
const LAST_MAKER = `LEFT JOIN LATERAL (SELECT token_id, price FROM trade_makers WHERE trade_id = t.id ORDER BY position DESC LIMIT 1) m ON true`;

/**
 * What a market-data replica whose position in the MATCHING stream has expired rebuilds from: the
 * books, and the trades for its price history. Levels and book sequences come from the engine's memory,
 * answered once what they include is committed (a book sequence the journal would lose in a crash must
 * not reach a consumer); trades from the trades table.
 */
@Injectable()
export class ReadModelSources {
  constructor(private readonly engine: EngineService) {}

  async books(request: BookSnapshotsRequest): Promise<Reply<BookSnapshotsPage>> {
    const { value } = await this.engine.run((state) => bookSnapshotsAfter(state, request.after?.toLowerCase() ?? ''));
    const trades = await this.lastTrades(value.markets.map((m) => m.conditionId));
    for (const market of value.markets) market.lastTrade = trades.get(market.conditionId) ?? null;
    return ok(value);
  }

  /** Trade ids are unique and indexed (the primary key): pages go in their order, whatever it means. */
  async trades(request: TradeHistoryRequest): Promise<Reply<TradeHistoryPage>> {
    const { rows } = await this.engine.pool.query<TradeRow>(
      `SELECT ${TRADE_FACTS} FROM (SELECT * FROM trades WHERE $1::text IS NULL OR id > $1 ORDER BY id LIMIT $2) t ${LAST_MAKER} ORDER BY t.id`,
      [request.after ?? null, TRADES_PAGE],
    );
    const trades = rows.map(tradeFacts);
    return ok({ trades, next: trades.length === TRADES_PAGE ? trades[trades.length - 1]!.id : null });
  }

  private async lastTrades(conditionIds: string[]): Promise<Map<string, TradeFacts>> {
    if (conditionIds.length === 0) return new Map();
    // Trade ids are time-ordered: among trades of the same millisecond the higher id is the later one.
    const { rows } = await this.engine.pool.query<TradeRow>(
      `SELECT ${TRADE_FACTS} FROM unnest($1::text[]) AS c(id)
       CROSS JOIN LATERAL (SELECT * FROM trades WHERE condition_id = c.id ORDER BY match_time DESC, id DESC LIMIT 1) t ${LAST_MAKER}`,
      [conditionIds],
    );
    return new Map(rows.map((row) => [row.condition_id, tradeFacts(row)]));
  }
}

function tradeFacts(row: TradeRow): TradeFacts {
  return {
    id: row.id,
    conditionId: row.condition_id,
    tokenId: row.token_id,
    side: row.side,
    size: row.shares,
    price: String(averagePrice(Number(row.collateral), Number(row.shares))),
    collateral: row.collateral,
    matchTime: Number(row.match_time),
    makers: row.maker_token_id === null ? [] : [{ tokenId: row.maker_token_id, price: String(row.maker_price) }],
  };
}
