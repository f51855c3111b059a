import { Inject, Injectable } from '@nestjs/common';
import type { CancelResult, Caller } from '@exchange/contracts';
import { MATCHING_ENV, type MatchingEnv } from '../config';
import { callerOrderIds, cancelByIds, pullFromBooks } from '../engine/cancel-orders';
import type { EngineState } from '../engine/engine-state';
import type { OrderState } from '../engine/model';
import { EngineService } from './engine.service';

/**
 * A trader's cancels of many orders, cut into engine commands of at most CANCEL_STEP_ORDERS orders, each
 * committed before the next is run: other traders' commands run and commit between them. As one command,
 * a cancel-all of 10,000 orders held every other order for 630-700 ms (docs/trading.md, "Large cancels").
 * The first step chooses the orders and takes them all off the books at once (pullFromBooks), so that no
 * order trades with them from then on, as in one command; the steps end them and release what they hold.
 * Each step runs in the turn its predecessor's batch was written in, so the journal cannot be refusing it
 * (engine.service.ts run): short of a crash, which puts the orders back (restated-books.ts), every step runs.
 */
@Injectable()
export class SteppedCancels {
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

  private async inSteps(caller: Caller, choose: (state: EngineState) => string[]): Promise<CancelResult> {
    let ids: string[] = [];
    const { value: result } = await this.engine.run((state, now) => {
      ids = choose(state);
      if (ids.length > this.step) pullFromBooks(state, caller, ids, now);
      return cancelByIds(state, caller, ids.slice(0, this.step), now);
    });
    for (let from = this.step; from < ids.length; from += this.step) {
      const { value } = await this.engine.run((state, now) => cancelByIds(state, caller, ids.slice(from, from + this.step), now));
      result.canceled.push(...value.canceled);
      Object.assign(result.not_canceled, value.not_canceled);
    }
    return result;
  }
}
