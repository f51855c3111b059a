import { Injectable } from '@nestjs/common';
import type { MarketSnapshot, Rewards } from '@exchange/contracts';
import type { Outcome } from '../books/token-view';

export const NO_REWARDS: Rewards = { rates: [], min_size: 0, max_spread: 0 };

/** One market as the catalog last published it, with the rewards the operator set. */
export interface MarketRecord {
  /** Lower case: lookups are case-insensitive. */
  conditionId: string;
  snapshot: MarketSnapshot;
  rewards: Rewards;
}

/**
 * Every market's CLOB settings in memory, by condition id and by token id, loaded from the database at
 * start and kept by the catalog's events. Requests read only this.
 */
@Injectable()
export class MarketRegistry {
  private readonly markets = new Map<string, MarketRecord>();
  private readonly tokens = new Map<string, { market: MarketRecord; outcome: Outcome }>();
  private ordered?: MarketRecord[];
  /** Set once the streams' backlogs are applied at start-up; reads answer 503 before. */
  ready = false;

  /** Stores a snapshot unless the one held is newer (a replayed message); answers what it replaced. */
  put(snapshot: MarketSnapshot, rewards?: Rewards): { record: MarketRecord; previous?: MarketRecord } | undefined {
    const conditionId = snapshot.conditionId.toLowerCase();
    const previous = this.markets.get(conditionId);
    if (previous && Date.parse(previous.snapshot.updatedAt) > Date.parse(snapshot.updatedAt)) return undefined;
    const record: MarketRecord = { conditionId, snapshot, rewards: rewards ?? previous?.rewards ?? NO_REWARDS };
    this.markets.set(conditionId, record);
    snapshot.tokenIds.forEach((tokenId, outcome) => this.tokens.set(tokenId, { market: record, outcome: outcome as Outcome }));
    this.ordered = undefined;
    return { record, previous };
  }

  setRewards(conditionId: string, rewards: Rewards): MarketRecord | undefined {
    const record = this.markets.get(conditionId.toLowerCase());
    if (!record) return undefined;
    return this.put(record.snapshot, rewards)?.record;
  }

  get(conditionId: string): MarketRecord | undefined {
    return this.markets.get(conditionId.toLowerCase());
  }

  byToken(tokenId: string): { market: MarketRecord; outcome: Outcome } | undefined {
    return this.tokens.get(tokenId);
  }

  /** Every market, in the catalog's id order (the order of the CLOB lists). */
  list(): readonly MarketRecord[] {
    return (this.ordered ??= [...this.markets.values()].sort((a, b) => a.snapshot.id - b.snapshot.id));
  }

  get size(): number {
    return this.markets.size;
  }
}
