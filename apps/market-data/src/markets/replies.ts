import { fail } from '@exchange/contracts';

/** Answers shared by the read services. */
export const UNKNOWN_TOKEN = fail('orderbook_not_found', 'No orderbook exists for the requested token id');
export const UNKNOWN_MARKET = fail('market_not_found', 'market not found');
/** Before the read models caught up with the streams at start-up. */
export const NOT_READY = fail('service_unavailable', 'market data is loading', 1);
