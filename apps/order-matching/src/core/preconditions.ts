import { PRICE_SCALE, PRICE_TICK, Side, type PlaceCommand } from './types';

/**
 * Throws a RangeError when a command breaks the core's preconditions (the service validates orders first,
 * so this only catches programming errors): a positive safe-integer size and id, a known side and time in
 * force, a GTC price on the tick grid inside (0, PRICE_SCALE), an FOK/FAK limit that is an integer in
 * [0, PRICE_SCALE]. Coded rejections (post-only, FOK, duplicate id) are results, not exceptions.
 */
export function checkCommand(cmd: PlaceCommand): void {
  const { id, side, price, size, tif } = cmd;
  if (!(size > 0) || !Number.isSafeInteger(size)) throw new RangeError(`order ${id}: size ${size} is not a positive integer`);
  if (!Number.isSafeInteger(id)) throw new RangeError(`order id ${id} is not an integer`);
  if (side !== Side.BID && side !== Side.ASK) throw new RangeError(`order ${id}: unknown side ${side}`);
  if (tif === 'GTC') {
    if (!(price > 0 && price < PRICE_SCALE) || price % PRICE_TICK !== 0) {
      throw new RangeError(`order ${id}: resting price ${price} is not on the ${PRICE_TICK} grid inside (0, ${PRICE_SCALE})`);
    }
  } else if (tif === 'FOK' || tif === 'FAK') {
    if (!(price >= 0 && price <= PRICE_SCALE) || !Number.isInteger(price)) {
      throw new RangeError(`order ${id}: limit ${price} is not an integer in [0, ${PRICE_SCALE}]`);
    }
  } else {
    throw new RangeError(`order ${id}: unknown time in force ${String(tif)}`);
  }
}
