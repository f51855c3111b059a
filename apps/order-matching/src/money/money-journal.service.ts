import { Injectable } from '@nestjs/common';
import { formatUnits, ok, type MoneyMoveRecord, type MoneyMovesRequest, type Reply } from '@exchange/contracts';
import { toChecksumAddress } from '@exchange/chain';
import { EngineService } from '../engine-host/engine.service';

interface MoveRow {
  id: string;
  kind: MoneyMoveRecord['kind'];
  address: string;
  condition_id: string;
  amount: string;
  payout: string;
  reference: string | null;
  batch_id: string;
  created_at: Date;
}

/** The operator's reading of the money-move journal (committed rows only), newest first. */
@Injectable()
export class MoneyJournalService {
  constructor(private readonly engine: EngineService) {}

  async list(request: MoneyMovesRequest): Promise<Reply<MoneyMoveRecord[]>> {
    // ORDER BY the table's id: a bare `id` would be the text column of the select list (999 before 1000).
    const rows = await this.engine.pool.query<MoveRow>(
      `SELECT id::text, kind, address, condition_id, amount::text, payout::text, reference, batch_id, created_at FROM money_moves
       WHERE ($1::text IS NULL OR address = $1) AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR reference = $3)
       ORDER BY money_moves.id DESC LIMIT $4 OFFSET $5`,
      [request.address?.toLowerCase() ?? null, request.kind ?? null, request.reference ?? null, request.limit, request.offset],
    );
    return ok(rows.rows.map(presentMove));
  }
}

function presentMove(row: MoveRow): MoneyMoveRecord {
  return {
    id: row.id,
    kind: row.kind,
    address: toChecksumAddress(row.address),
    condition_id: row.condition_id || null,
    amount: formatUnits(Number(row.amount)),
    payout: formatUnits(Number(row.payout)),
    reference: row.reference,
    transaction_hash: row.batch_id,
    created_at: row.created_at.toISOString(),
  };
}
