import { Injectable } from '@nestjs/common';
import { ok, type BookSnapshotsPage, type BookSnapshotsRequest, type LastTradeFacts, type Reply } from '@exchange/contracts';
import { averagePrice } from '../engine/book-terms';
import { bookSnapshotsAfter } from '../engine/book-snapshots';
import { EngineService } from '../engine-host/engine.service';

interface LastTradeRow {
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

/**
 * The books as the engine holds them, for a market-data replica whose position in the MATCHING stream
 * has expired. Levels and book sequences come from the engine's memory, answered once what they include
 * is committed (a book sequence the journal would lose in a crash must not reach a consumer); the last
 * trade of each market from the trades table.
 */
@Injectable()
export class BookSnapshotsService {
  constructor(private readonly engine: EngineService) {}

  async page(request: BookSnapshotsRequest): Promise<Reply<BookSnapshotsPage>> {
    const { value } = await this.engine.run((state, now) => bookSnapshotsAfter(state, request.after?.toLowerCase() ?? '', now));
    const trades = await this.lastTrades(value.markets.map((m) => m.conditionId));
    for (const market of value.markets) market.lastTrade = trades.get(market.conditionId) ?? null;
    return ok(value);
  }

  private async lastTrades(conditionIds: string[]): Promise<Map<string, LastTradeFacts>> {
    if (conditionIds.length === 0) return new Map();
    // Trade ids are time-ordered: among trades of the same millisecond the higher id is the later one.
    const { rows } = await this.engine.pool.query<LastTradeRow>(
      `SELECT c.id AS condition_id, t.id, t.token_id, t.side, t.shares, t.collateral, t.match_time,
              m.token_id AS maker_token_id, m.price AS maker_price
       FROM unnest($1::text[]) AS c(id)
       CROSS JOIN LATERAL (SELECT * FROM trades WHERE condition_id = c.id ORDER BY match_time DESC, id DESC LIMIT 1) t
       LEFT JOIN LATERAL (SELECT token_id, price FROM trade_makers WHERE trade_id = t.id ORDER BY position DESC LIMIT 1) m ON true`,
      [conditionIds],
    );
    return new Map(
      rows.map((row) => [
        row.condition_id,
        {
          id: row.id,
          tokenId: row.token_id,
          side: row.side,
          price: String(averagePrice(Number(row.collateral), Number(row.shares))),
          matchTime: Number(row.match_time),
          makers: row.maker_token_id === null ? [] : [{ tokenId: row.maker_token_id, price: String(row.maker_price) }],
        },
      ]),
    );
  }
}
