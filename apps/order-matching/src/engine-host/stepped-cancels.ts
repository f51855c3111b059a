import { Inject, Injectable, Logger } from '@nestjs/common';
import { ok, type CancelResult, type Caller, type Reply } from '@exchange/contracts';
import { errorMessage, isDatabaseUnavailable, NothingDoneError, OutcomeUnknownError } from '@exchange/service-kit';
import { MATCHING_ENV, type MatchingEnv } from '../config';
import { callerOpenOrders, callerOrderIds, cancelByIds, pullOffBooks } from '../engine/cancel-orders';
import { endResolvedOrders, resolve } from '../engine/money';
import type { EngineState } from '../engine/engine-state';
import type { OrderState } from '../engine/model';
import { EngineService } from './engine.service';

/**
 * A trader's cancels of many orders, cut into engine commands of at most CANCEL_STEP_ORDERS orders, each
 * committed before the next is run: other traders' commands run and commit between them. As one command,
 * a cancel-all of 10,000 orders held every other order for 630-700 ms (docs/trading.md, "Large cancels").
 * The first step chooses the orders and takes them all off the books at once (pullOffBooks), so that no
 * order trades with them from then on, as in one command; the steps end them and release what they hold.
 * Each step runs in the turn its predecessor's batch was written in, so the journal cannot be refusing it
 * (engine.service.ts run): short of a crash, which puts the orders back (restated-books.ts), every step runs.
 */
@Injectable()
export class SteppedCancels {
  private readonly logger = new Logger(SteppedCancels.name);
  private readonly step: number;

  constructor(
    private readonly engine: EngineService,
    @Inject(MATCHING_ENV) env: MatchingEnv,
  ) {
    this.step = env.CANCEL_STEP_ORDERS;
  }

  /** The caller's orders named by id (duplicates once); ids of others' orders read as not found. */
  byIds(caller: Caller, ids: string[]): Promise<CancelResult> {
    return this.inSteps(caller, () => [...new Set(ids)]);
  }

  /** Every resting order of the caller's that `keep` accepts, oldest first. */
  where(caller: Caller, keep: (order: OrderState) => boolean): Promise<CancelResult> {
    return this.inSteps(caller, (state) => callerOrderIds(state, caller, keep));
  }

  /**
   * An operator's resolution (engine/money.ts resolve): the market closes in the first step, which takes
   * all its orders off the book, and they end in the steps after it. Answered once the first step is
   * durable, with how many resting orders it took off: waiting for the last step, a market of 100,000
   * orders would outlast the gateway's 5 s timeout, and a retry would only be told it is resolved.
   */
  async resolve(conditionId: string, winner: 0 | 1): Promise<Reply<{ canceled: number }>> {
    const { value } = await this.engine.run((state, now) => resolve(state, conditionId, winner, now, this.step));
    if (!value.ok) return value;
    this.laterSteps(value.data.later, 0, endResolvedOrders).catch((error: unknown) =>
      // Only a fatal journal failure (a step runs as its predecessor's batch is written): the process
      // ends, and its next start ends the rest (engine.service.ts).
      this.logger.error(`resolution of ${conditionId}: its later steps failed: ${errorMessage(error)}`),
    );
    return ok({ canceled: value.data.canceled + value.data.later.length });
  }

  private async inSteps(caller: Caller, choose: (state: EngineState) => string[]): Promise<CancelResult> {
    let ids: string[] = [];
    const { value: result } = await this.engine.run((state, now) => {
      ids = choose(state);
      if (ids.length > this.step) pullOffBooks(state, callerOpenOrders(state, caller, ids).open, now);
      return cancelByIds(state, caller, ids.slice(0, this.step), now);
    });
    const later = await this.laterSteps(ids, this.step, (state, slice, now) => cancelByIds(state, caller, slice, now)).catch((error: unknown) => {
      // The first step is durable: a later one refused with nothing done (the journal failing) leaves the
      // cancel done in part, which "nothing was done, retry" would deny.
      if (error instanceof NothingDoneError || isDatabaseUnavailable(error)) {
        throw new OutcomeUnknownError('ended only some of its orders before the journal failed', { cause: error });
      }
      throw error;
    });
    for (const value of later) {
      result.canceled.push(...value.canceled);
      Object.assign(result.not_canceled, value.not_canceled);
    }
    return result;
  }

  /** Runs `end` on the ids from `from` on, a step at a time, each command after the previous one's commit. */
  private async laterSteps<T>(ids: string[], from: number, end: (state: EngineState, slice: string[], now: number) => T): Promise<T[]> {
    const values: T[] = [];
    for (let at = from; at < ids.length; at += this.step) {
      const slice = ids.slice(at, at + this.step);
      values.push((await this.engine.run((state, now) => end(state, slice, now))).value);
    }
    return values;
  }
}
