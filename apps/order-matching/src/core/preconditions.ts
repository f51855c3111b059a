import { PRICE_SCALE, PRICE_TICK, Side, type PlaceCommand } from './types';

/**
 * Throws a RangeError when a command breaks the core's preconditions (the service validates orders first,
 * so this only catches programming errors): a positive safe-integer size, a safe-integer id, a known side
 * and time in force, a GTC price on the tick grid inside (0, PRICE_SCALE), an FOK/FAK limit that is an
 * integer in [0, PRICE_SCALE], a non-negative safe-integer maxFills if any. Coded rejections (post-only, FOK,
 * duplicate id, too many fills) are results, not exceptions.
 *
 * It runs on every place(), so the common case is a few comparisons (no `%`, which is slow on doubles);
 * the message is only worked out when a check fails.
 */
export function checkCommand(cmd: PlaceCommand): void {
  const { size, price, tif, maxFills } = cmd;
  if ((maxFills === undefined || (maxFills >= 0 && Number.isSafeInteger(maxFills))) && size > 0 && size <= Number.MAX_SAFE_INTEGER && Math.floor(size) === size && Number.isSafeInteger(cmd.id) && (cmd.side === Side.BID || cmd.side === Side.ASK)) {
    if (tif === 'GTC') {
      const level = price / PRICE_TICK;
      if (level >= 1 && level < PRICE_SCALE / PRICE_TICK && Math.floor(level) === level && Math.floor(price) === price) return;
    } else if (tif === 'FAK' || tif === 'FOK') {
      if (price >= 0 && price <= PRICE_SCALE && Math.floor(price) === price) return;
    }
  }
  throw new RangeError(describeBreach(cmd));
}

function describeBreach({ id, side, price, size, tif, maxFills }: PlaceCommand): string {
  if (maxFills !== undefined && !(maxFills >= 0 && Number.isSafeInteger(maxFills))) return `order ${id}: maxFills ${maxFills} is not a non-negative safe integer`;
  if (!(size > 0) || !Number.isSafeInteger(size)) return `order ${id}: size ${size} is not a positive safe integer`;
  if (!Number.isSafeInteger(id)) return `order id ${id} is not a safe integer`;
  if (side !== Side.BID && side !== Side.ASK) return `order ${id}: unknown side ${String(side)}`;
  if (tif === 'GTC') return `order ${id}: resting price ${price} is not on the ${PRICE_TICK} grid inside (0, ${PRICE_SCALE})`;
  if (tif === 'FAK' || tif === 'FOK') return `order ${id}: limit ${price} is not an integer in [0, ${PRICE_SCALE}]`;
  return `order ${id}: unknown time in force ${String(tif)}`;
}
