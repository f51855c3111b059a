/**
 * What market-data publishes on JetStream (stream MARKETDATA, subjects `marketdata.evt.>`).
 */
export interface TickSizeChangedEvent {
  conditionId: string;
  tokenIds: [string, string];
  /** Decimal strings, as `/tick-size` shows them ("0.01"). */
  oldTickSize: string;
  newTickSize: string;
  /** Milliseconds. */
  timestamp: number;
}

export const MARKETDATA_STREAM = { name: 'MARKETDATA', subjects: 'marketdata.evt.>' } as const;
export const MARKETDATA_SUBJECTS = {
  tickSizeChanged: 'marketdata.evt.tick-size-changed.v1',
  rewardsChanged: 'marketdata.evt.rewards-changed.v1',
} as const;
