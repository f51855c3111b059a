import {
  feeRateBps,
  formatUnits,
  readOrderTerms,
  rejectionResult,
  Rejections,
  type Caller,
  type OrderResult,
  type Rejection,
  type VerifiedOrder,
} from '@exchange/contracts';
import { Side, type Fill, type TimeInForce } from '../core';
import { bookSide, flipFor, SHARE_STEP, valueOf } from './book-terms';
import { recordBookChanges, recordOrderEvent, recordTradeEvent } from './engine-events';
import { DEFAULT_MAX_MAKERS_PER_ORDER, DEFAULT_MAX_OPEN_ORDERS_PER_ACCOUNT, type EngineState } from './engine-state';
import { FeeTally, makerFeeBetween } from './fees';
import { crossingOf, walkBudget } from './market-buy';
import { acceptableGtdExpiration } from './gtd-expiration';
import { COLLATERAL } from './ledger';
import type { MakerFill, MarketState, OrderState, TradeRecord } from './model';
import { keepMakerReserve, settleFill } from './settlement';

const TIF: Record<string, TimeInForce> = { GTC: 'GTC', GTD: 'GTC', FOK: 'FOK', FAK: 'FAK' };
const fills: Fill[] = [];

/**
 * Who may place this order: the API key's owner, signing for its own address or for a deposit wallet
 * the operator bound to it (`wallets`). Without that binding anyone could sign a type-3 order
 * naming any address as the wallet and spend its balance (found by a soak, 2026-11-26).
 */
function checkIdentity(state: EngineState, caller: Caller, verified: VerifiedOrder): Rejection | undefined {
  const { order, owner } = verified.submission;
  // Keys are matched in lower case, as the L2 header's (an upper-case owner was refused under a key it names).
  if (owner.toLowerCase() !== caller.apiKey.toLowerCase()) return Rejections.owner();
  if (order.signatureType === 1 || order.signatureType === 2) return Rejections.unsupportedSignatureType();
  const signer = order.signer.toLowerCase();
  const maker = order.maker.toLowerCase();
  const recovered = verified.signer.toLowerCase();
  if (order.signatureType === 0 && (signer !== maker || signer !== caller.address.toLowerCase() || recovered !== signer)) {
    return Rejections.signer();
  }
  // A bound deposit wallet trades by its owner's type-3 orders only, whoever holds a key of its address.
  if (order.signatureType === 0 && state.wallets.ownerOf(maker) !== undefined) return Rejections.depositWalletFlow();
  if (order.signatureType === 3) {
    if (signer !== maker || recovered !== caller.address.toLowerCase()) return Rejections.signer();
    if (state.wallets.ownerOf(maker) !== recovered) return Rejections.notOwnWallet(maker);
  }
  return undefined;
}

/**
 * Validates, reserves and matches one order (docs/trading.md, "Orders"). Returns its result; a rejection changes
 * nothing. `now` is milliseconds, stamped by the service.
 */
export function placeOrder(state: EngineState, caller: Caller, verified: VerifiedOrder, now: number): OrderResult {
  const { orderId, submission } = verified;
  const { order, orderType, postOnly } = submission;
  const reject = (rejection: Rejection) => rejectionResult(orderId, rejection);

  const identity = checkIdentity(state, caller, verified);
  if (identity) return reject(identity);
  const located = state.tokens.get(order.tokenId);
  if (!located) return reject(Rejections.unknownToken(order.tokenId));
  const { market, outcome } = located;
  if (order.conditionId && order.conditionId !== market.conditionId) return reject(Rejections.wrongMarket(market.conditionId));
  if ((verified.exchange === 'negRisk') !== market.negRisk) return reject(Rejections.wrongExchange());
  if (market.winningOutcome !== -1 || !market.acceptingOrders) return reject(Rejections.marketNotReady());
  if (now < state.postOnlyUntil && !postOnly) return reject(Rejections.postOnlyMode(Math.ceil((state.postOnlyUntil - now) / 1000)));
  const marketable = orderType === 'FOK' || orderType === 'FAK';
  if (postOnly && marketable) return reject(Rejections.postOnlyType());
  const expiration = Number(order.expiration);
  if (orderType === 'GTD' ? !acceptableGtdExpiration(expiration, now) : expiration !== 0) return reject(Rejections.expiration());
  if (state.orders.has(orderId) || state.pastIds.has(orderId)) return reject(Rejections.duplicated(orderId));
  const terms = readOrderTerms(orderId, order, marketable, market);
  if ('code' in terms) return reject(terms);

  const maker = order.maker.toLowerCase();
  const maxOpen = state.settings.maxOpenOrdersPerAccount ?? DEFAULT_MAX_OPEN_ORDERS_PER_ACCOUNT;
  if (!marketable && state.byMaker.of(maker).size >= maxOpen) return reject(Rejections.tooManyOpenOrders(maxOpen));
  const buy = terms.side === 'BUY';
  const side = bookSide(terms.side, outcome);
  // Its balance first, as for any other order: one short of both money and liquidity was told only that
  // the book could not fill it (found by a probe).
  if (marketable && buy && !state.ledger.covers(maker, COLLATERAL, terms.collateral)) return reject(Rejections.balance());
  // A marketable BUY spends its collateral amount, in whole hundredths of a share (docs/trading.md).
  const walk = marketable && buy ? walkBudget(market.book, side, terms.price, terms.collateral, market.fee) : undefined;
  if (walk && (walk.shares === 0 || (orderType === 'FOK' && !walk.spent))) {
    return reject(orderType === 'FOK' ? Rejections.fokNotFilled() : Rejections.fakNotFilled());
  }
  const shares = walk ? walk.shares : marketable ? terms.shares - (terms.shares % SHARE_STEP) : terms.shares;
  const reservedAsset = buy ? COLLATERAL : order.tokenId;
  // A marketable BUY holds its whole amount, as upstream refuses an order its balance does not cover,
  // and the taker fee of its walk at the prices it will pay; what the walk leaves unspent goes back
  // when it ends, at once.
  const reserved = !buy ? shares : walk ? terms.collateral + walk.fee : valueOf(shares, terms.price) + limitBuyFeeReserve(market, side, terms.price, shares, postOnly);
  if (!state.ledger.reserve(maker, reservedAsset, reserved)) return reject(Rejections.balance());

  const seq = state.nextSeq;
  const maxMakers = state.settings.maxMakersPerOrder ?? DEFAULT_MAX_MAKERS_PER_ORDER;
  fills.length = 0;
  const placed = market.book.place(
    {
      id: seq,
      side,
      price: flipFor(outcome, terms.price),
      size: shares,
      tif: TIF[orderType]!,
      postOnly,
      maxFills: maxMakers,
    },
    fills,
  );
  const refused =
    placed.outcome === 'REJECTED_POST_ONLY'
      ? Rejections.postOnlyCrosses()
      : placed.outcome === 'REJECTED_FOK'
        ? Rejections.fokNotFilled()
        : placed.outcome === 'CANCELLED_REST' && placed.filled === 0
          ? Rejections.fakNotFilled()
          : placed.outcome === 'REJECTED_DUPLICATE_ID'
            ? Rejections.duplicated(orderId)
            : placed.outcome === 'REJECTED_TOO_MANY_FILLS'
              ? Rejections.tooManyMakers(maxMakers)
              : undefined;
  if (refused) {
    state.ledger.release(maker, reservedAsset, reserved);
    return reject(refused);
  }

  const taker: OrderState = {
    id: orderId,
    seq,
    owner: caller.apiKey,
    maker,
    signer: order.signer.toLowerCase(),
    conditionId: market.conditionId,
    tokenId: order.tokenId,
    outcome,
    side: terms.side,
    price: terms.price,
    size: shares,
    matched: 0,
    status: 'LIVE',
    orderType,
    postOnly,
    expiration,
    createdAt: now,
    reservedAsset,
    reserved,
    costLeft: walk?.cost,
    tradeIds: [],
    journaled: false,
  };
  state.addOrder(taker);
  state.touch(taker);
  const changedLevels: [Side, number][] = [];
  if (placed.outcome === 'RESTING') changedLevels.push([side, flipFor(outcome, terms.price)]);

  const rateBps = feeRateBps(market.fee);
  const trade: TradeRecord | undefined = placed.fills
    ? {
        id: state.settings.newId(),
        conditionId: market.conditionId,
        takerOrderId: orderId,
        taker: maker,
        takerOwner: caller.apiKey,
        tokenId: order.tokenId,
        outcome,
        side: terms.side,
        shares: 0,
        collateral: 0,
        fee: 0,
        feeRateBps: rateBps,
        makerFeeRateBps: market.fee.takerOnly ? 0 : rateBps,
        matchTime: now,
        makers: [],
      }
    : undefined;
  const takerFees = new FeeTally(market.fee);
  for (let i = 0; i < placed.fills; i++) {
    const fill = fills[i]!;
    const resting = state.bySeq.get(fill.makerId)!;
    const settled = settleFill(state, market, taker, resting, fill.size, fill.price, takerFees);
    changedLevels.push([bookSide(resting.side, resting.outcome), fill.price]);
    const makerFill: MakerFill = {
      orderId: resting.id,
      maker: resting.maker,
      owner: resting.owner,
      tokenId: resting.tokenId,
      outcome: resting.outcome,
      side: resting.side,
      shares: fill.size,
      price: resting.price,
      fee: settled.makerFee,
      rebate: settled.rebate,
    };
    trade!.makers.push(makerFill);
    trade!.shares += fill.size;
    trade!.collateral += settled.takerValue;
    trade!.fee += settled.takerFee;
    resting.tradeIds.push(trade!.id);
    if (fill.makerRemaining === 0) finish(state, resting, 'MATCHED');
    state.touch(resting);
    recordOrderEvent(state, resting, 'UPDATE', now);
  }
  if (trade) {
    taker.tradeIds.push(trade.id);
    state.effects.trades.push(trade);
    recordTradeEvent(state, trade);
  }
  if (placed.outcome !== 'RESTING') finish(state, taker, taker.matched > 0 ? 'MATCHED' : 'CANCELED');
  else if (buy) keepMakerReserve(state, market, taker);
  recordOrderEvent(state, taker, 'PLACEMENT', now);
  recordBookChanges(state, market, changedLevels, now);

  const collateral = (trade?.collateral ?? 0) + (buy ? (trade?.fee ?? 0) : -(trade?.fee ?? 0));
  return {
    success: true,
    errorMsg: '',
    orderID: orderId,
    makingAmount: formatUnits(buy ? collateral : taker.matched),
    takingAmount: formatUnits(buy ? taker.matched : collateral),
    status: placed.outcome === 'RESTING' ? 'live' : 'matched',
    orderHash: orderId,
    code: '',
    retry_after_seconds: 0,
    transactionsHashes: [],
    tradeIDs: taker.tradeIds.slice(),
  };
}

/**
 * The fees a limit BUY may owe: as a taker for the shares the book holds at its price or better (none
 * when post-only), at the prices it would take them at; as a maker, at its own price, for the rest, when
 * makers pay.
 */
function limitBuyFeeReserve(market: MarketState, side: Side, price: number, shares: number, postOnly: boolean): number {
  const crossing = postOnly ? { shares: 0, fee: 0 } : crossingOf(market.book, side, price, shares, market.fee);
  return crossing.fee + makerFeeBetween(market.fee, price, crossing.shares, shares);
}

/** An order leaves the book: what it still holds reserved goes back to its owner. */
export function finish(state: EngineState, order: OrderState, status: OrderState['status']): void {
  order.status = status;
  state.retire(order);
  state.ledger.release(order.maker, order.reservedAsset, order.reserved);
  order.reserved = 0;
  state.touch(order);
}
