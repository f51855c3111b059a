import { toChecksumAddress } from '@exchange/chain';
import { formatUnits, type OpenOrder, type Trade } from '@exchange/contracts';
import { averagePrice } from '../engine/book-terms';

export interface OrderRow {
  id: string;
  status: OpenOrder['status'];
  owner: string;
  maker: string;
  condition_id: string;
  token_id: string;
  outcome: number;
  side: 'BUY' | 'SELL';
  price: number;
  size: string;
  matched: string;
  order_type: string;
  expiration: string;
  created_at: string;
  trade_ids: string[];
  outcomes: string[];
}

export function presentOrder(row: OrderRow): OpenOrder {
  return {
    id: row.id,
    status: row.status,
    owner: row.owner,
    maker_address: toChecksumAddress(row.maker),
    market: row.condition_id,
    asset_id: row.token_id,
    side: row.side,
    original_size: formatUnits(Number(row.size)),
    size_matched: formatUnits(Number(row.matched)),
    price: formatUnits(row.price),
    outcome: row.outcomes[row.outcome] ?? '',
    expiration: row.expiration,
    order_type: row.order_type,
    associate_trades: row.trade_ids,
    created_at: Math.floor(Number(row.created_at) / 1000),
  };
}

export interface TradeRow {
  id: string;
  batch_id: string;
  condition_id: string;
  taker_order_id: string;
  taker: string;
  taker_owner: string;
  token_id: string;
  outcome: number;
  side: string;
  shares: string;
  collateral: string;
  fee_rate_bps: number;
  maker_fee_rate_bps: number;
  match_time: string;
  outcomes: string[];
  makers: {
    order_id: string;
    maker: string;
    owner: string;
    token_id: string;
    outcome: number;
    side: string;
    shares: string;
    price: number;
  }[];
}

/** A trade as the caller sees it: TAKER when one of its accounts placed the taker order, MAKER otherwise. */
export function presentTrade(row: TradeRow, accounts: string[]): Trade {
  const shares = Number(row.shares);
  const price = averagePrice(Number(row.collateral), shares);
  const time = new Date(Number(row.match_time)).toISOString();
  const side = accounts.includes(row.taker) ? 'TAKER' : 'MAKER';
  return {
    id: row.id,
    taker_order_id: row.taker_order_id,
    market: row.condition_id,
    asset_id: row.token_id,
    side: row.side,
    size: formatUnits(shares),
    fee_rate_bps: String(row.fee_rate_bps),
    price: formatUnits(price),
    status: 'MATCHED',
    match_time: time,
    match_time_nano: String(BigInt(row.match_time) * 1_000_000n),
    last_update: time,
    outcome: row.outcomes[row.outcome] ?? '',
    bucket_index: 0,
    owner: row.taker_owner,
    maker_address: toChecksumAddress(row.taker),
    transaction_hash: row.batch_id,
    err_msg: '',
    type: side,
    trader_side: side,
    maker_orders: row.makers.map((m) => ({
      order_id: m.order_id,
      maker_address: toChecksumAddress(m.maker),
      owner: m.owner,
      matched_amount: formatUnits(Number(m.shares)),
      // What the maker paid: 0 on a taker-only schedule (the taker's rate is the trade's own).
      fee_rate_bps: String(row.maker_fee_rate_bps),
      price: formatUnits(m.price),
      asset_id: m.token_id,
      outcome: row.outcomes[m.outcome] ?? '',
      side: m.side,
    })),
  };
}
