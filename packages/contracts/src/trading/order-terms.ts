import { formatUnits, UNIT as MICRO } from '../common/decimal';
import { Rejections, type Rejection } from './order-rejections';
import type { SignedOrder } from './order-submission';

const CENT_SHARE = 10_000; // 0.01 share or 0.01 collateral

/**
 * Decimals of a collateral amount on a market of this tick (base units): the tick's own decimals plus
 * the two of a share amount, as upstream's clients round (UPSTREAM.md, "Rounding vs tick": 0.1 → 3,
 * 0.01 → 4, 0.005 and 0.001 → 5, 0.0025 and 0.0001 → 6).
 */
export function amountDecimals(tickSize: number): number {
  let decimals = 0;
  while (decimals < 6 && tickSize % 10 ** (6 - decimals) !== 0) decimals++;
  return Math.min(6, decimals + 2);
}

export interface OrderTerms {
  side: 'BUY' | 'SELL';
  /** Shares the order trades at most (base units). */
  shares: number;
  /** BUY: collateral it pays at most; SELL: collateral it receives at least. */
  collateral: number;
  /** Limit price in its own token's terms (base units); for FOK/FAK a worst-price cap, maybe off the grid. */
  price: number;
}

/**
 * Reads a signed order's amounts (CTF exchange convention: BUY makerAmount = collateral, takerAmount =
 * shares; SELL the other way round) into shares, collateral and a limit price, and checks precision,
 * tick grid and minimum size (docs/trading.md, "Orders"). The engine decides; the gateway runs the same checks
 * on its copy of the market's settings to refuse bad orders early.
 */
export function readOrderTerms(
  orderId: string,
  order: SignedOrder,
  marketable: boolean,
  market: { tickSize: number; minOrderSize: number },
): OrderTerms | Rejection {
  const makerAmount = Number(order.makerAmount);
  const takerAmount = Number(order.takerAmount);
  if (makerAmount <= 0 || takerAmount <= 0) return Rejections.zeroAmounts();
  if (!Number.isSafeInteger(makerAmount) || !Number.isSafeInteger(takerAmount)) return Rejections.hugeAmounts();
  const buy = order.side === 'BUY';
  const shares = buy ? takerAmount : makerAmount;
  const collateral = buy ? makerAmount : takerAmount;

  const decimals = amountDecimals(market.tickSize);
  const amountStep = 10 ** (6 - decimals);
  if (!marketable) {
    // Limit orders: shares to 0.01, collateral to the tick's amount decimals, and the implied price exactly on the grid.
    if (shares % CENT_SHARE !== 0) return Rejections.limitPrecision(order.side, decimals);
    // BigInt: collateral × 10^6 passes 2^53 for orders above about $9,000.
    const scaled = BigInt(collateral) * BigInt(MICRO);
    const exact = scaled % BigInt(shares) === 0n;
    const price = Number(scaled / BigInt(shares));
    // An exact price off the grid is the tick's refusal even when the collateral has more decimals than
    // the tick allows: those follow from the price. A maker quoting at a tick the market left heard
    // about its amounts' decimals instead, and did not read the tick again (a probe).
    if (!exact && collateral % amountStep !== 0) return Rejections.limitPrecision(order.side, decimals);
    if (!exact || price % market.tickSize !== 0 || price < market.tickSize || price > MICRO - market.tickSize) {
      return Rejections.tick(orderId, exact ? formatUnits(price) : inexactPrice(scaled, shares), formatUnits(market.tickSize));
    }
    if (shares < market.minOrderSize) return Rejections.minSize(orderId, formatUnits(shares), formatUnits(market.minOrderSize));
    return { side: order.side, shares, collateral, price };
  }

  // Marketable orders: the maker amount to 0.01, the taker amount to the tick's amount decimals; the price is a cap.
  if (makerAmount % CENT_SHARE !== 0 || takerAmount % amountStep !== 0) return Rejections.marketPrecision(order.side, decimals);
  const scaled = BigInt(collateral) * BigInt(MICRO);
  const quotient = Number(scaled / BigInt(shares));
  const exact = scaled % BigInt(shares) === 0n;
  const price = buy || exact ? quotient : quotient + 1;
  if (price <= 0 || price >= MICRO) return Rejections.tick(orderId, formatUnits(price), formatUnits(market.tickSize));
  if (buy && collateral < MICRO) return Rejections.minAmount(orderId, formatUnits(collateral));
  if (!buy && shares < market.minOrderSize) return Rejections.minSize(orderId, formatUnits(shares), formatUnits(market.minOrderSize));
  return { side: order.side, shares, collateral, price };
}

/**
 * A price that is not a whole number of base units, for a refusal's text: to 18 decimals (cut), enough to
 * show a single base unit over 2^53 of shares, since cut to 6 it could read as a price on the grid
 * ("Price (0.1) breaks … 0.0001" for 0.1000002; found by a probe).
 */
function inexactPrice(scaledCollateral: bigint, shares: number): string {
  const digits = String((scaledCollateral * 1_000_000_000_000n) / BigInt(shares)).padStart(19, '0');
  return `${digits.slice(0, -18)}.${digits.slice(-18).replace(/0+$/, '')}`;
}
