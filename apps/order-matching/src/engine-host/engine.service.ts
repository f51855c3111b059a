import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import type { Pool, PoolClient } from 'pg';
import { MATCHING_STREAM } from '@exchange/contracts';
import {
  errorMessage,
  DistinctFailures,
  HealthChecks,
  inTransaction,
  MESSAGING_ENV,
  NATS_CONNECTION,
  NothingDoneError,
  OutboxRelay,
  pgPool,
  recoveryLine,
  TableVacuum,
  untilDatabaseAvailable,
  type BaseEnv,
} from '@exchange/service-kit';
import { MATCHING_ENV, type MatchingEnv } from '../config';
import { expireOrders } from '../engine/cancel-orders';
import { endOrdersOfResolvedMarkets } from '../engine/money';
import { restateBooks } from '../engine/restated-books';
import { runAt } from '../engine/run-at';
import { EngineState } from '../engine/engine-state';
import { FATAL_EXIT_DELAY_MS, GroupCommit } from '../journal/group-commit';
import { JournalSession, JournalTakenError, SESSION_KEEPALIVES, sessionName } from '../journal/journal-session';
import { loadState } from '../journal/state-loader';
import { UuidV7Source } from '../journal/time-ordered-ids';
import { ExpiryTimer } from './expiry-timer';
import { MatchingOutboxStore } from './matching-outbox';

/**
 * Updated order rows after which the engine vacuums `orders`: each update of a resting order (a fill, its
 * end) leaves a dead row version, never a HOT one (`status` is in the partial indexes' predicates).
 */
export const ORDERS_VACUUM_AFTER_ROWS = 1_000;

export const FATAL_HANDLER = Symbol('FATAL_HANDLER');
export type FatalHandler = (error: unknown) => void;

/**
 * Hosts the engine: takes the journal (one engine per database: JournalSession), loads the engine from
 * the database (waiting for the database while it is unavailable, each attempt into a fresh state),
 * runs each command against it in arrival order (one writer), and answers only after the command's
 * effects are committed (group commit).
 */
@Injectable()
export class EngineService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EngineService.name);
  /** One line per outage, not one a second (a probe read 17 in 17 s while PostgreSQL was out of connections), and one when it ends. */
  private readonly checkpointFailures = new DistinctFailures(
    (why) => this.logger.warn(`outbox checkpoint failed, will retry: ${why}`),
    (recovery) => this.logger.log(recoveryLine('outbox checkpoints written', recovery)),
  );
  /** Empty until the load succeeds. */
  private current: EngineState;
  private readonly newState: () => EngineState;
  readonly pool: Pool;
  private readonly journal: JournalSession;
  private readonly commits: GroupCommit;
  private relay?: OutboxRelay;
  private outbox?: MatchingOutboxStore;
  private readonly ordersVacuum: TableVacuum;
  private timer?: NodeJS.Timeout;
  private markLoaded!: () => void;
  /** Resolves once this engine holds the journal and has loaded its state (the heartbeat sessions wait for it). */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));
  /** Tasks run once a second (the outbox's checkpoint, heartbeats). */
  private readonly ticks: ((now: number) => void)[] = [];
  private readonly expiry = new ExpiryTimer(
    () => this.state.nextExpiry(),
    (now) => {
      if (expireOrders(this.state, now).length) void this.commit();
    },
  );

  constructor(
    @Inject(MATCHING_ENV) private readonly env: MatchingEnv,
    @Inject(MESSAGING_ENV) private readonly messaging: BaseEnv,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(FATAL_HANDLER) private readonly onFatal: FatalHandler,
    health: HealthChecks,
  ) {
    const tradeIds = new UuidV7Source();
    this.newState = () =>
      new EngineState({
        feeAccount: env.FEE_ACCOUNT,
        newId: () => tradeIds.next(),
        maxMakersPerOrder: env.MAX_MAKERS_PER_ORDER,
        maxOpenOrdersPerAccount: env.MAX_OPEN_ORDERS_PER_ACCOUNT,
        maxFeeRateBps: env.MAX_FEE_RATE_BPS,
      });
    this.current = this.newState();
    const holder = `${hostname()} pid ${process.pid}`;
    // Named for an operator ending a lost node's sessions; a transaction left open by a frozen process
    // (a fenced write holds the journal's epoch) ends after 30 s, so a takeover does not wait for good.
    this.pool = pgPool('queries', {
      connectionString: env.DATABASE_URL,
      max: env.DB_POOL_SIZE,
      application_name: sessionName('queries', holder),
      options: `${SESSION_KEEPALIVES} -c idle_in_transaction_session_timeout=30000`,
    });
    this.journal = new JournalSession(env.DATABASE_URL, holder);
    this.commits = new GroupCommit(this.journal, onFatal);
    this.ordersVacuum = new TableVacuum(this.pool, 'orders', ORDERS_VACUUM_AFTER_ROWS);
    health.add('journal', () => (this.commits.failing === undefined ? undefined : `cannot write, trying again: ${errorMessage(this.commits.failing)}`));
    health.add('outbox', () => this.relay?.failing);
  }

  get state(): EngineState {
    return this.current;
  }

  async onModuleInit(): Promise<void> {
    // Before anything is read or written, the catalog's consumer included (it starts after this).
    await untilDatabaseAvailable(this.logger, 'taking the journal', () => this.journal.claim());
    const { state, loaded } = await untilDatabaseAvailable(this.logger, 'loading the engine', async () => {
      const fresh = this.newState();
      return { state: fresh, loaded: await loadState(this.pool, fresh) };
    });
    this.current = state;
    if (loaded.restarted && this.env.POST_ONLY_AFTER_RESTART_SECONDS > 0) {
      this.state.postOnlyUntil = Date.now() + this.env.POST_ONLY_AFTER_RESTART_SECONDS * 1000;
    }
    this.logger.log(`engine loaded: ${this.state.markets.size} markets, ${loaded.openOrders} resting orders`);
    this.markLoaded();
    this.outbox = new MatchingOutboxStore(this.pool, (work) => this.fencedWrite(work));
    this.relay = new OutboxRelay(this.nc, this.messaging.NATS_PREFIX, this.outbox, {
      ...MATCHING_STREAM,
      limits: { maxAgeSeconds: this.env.MATCHING_STREAM_MAX_AGE_HOURS * 3_600 },
    });
    await this.relay.start();
    this.onTick(() => void this.checkpoint());
    this.commits.onCommitted = ({ outbox, updatedOrders }) => {
      // Rows of a batch whose answer was lost are unknown here: the relay reads them back, in order.
      if (outbox === undefined) void this.relay?.kick();
      else if (outbox.length) void this.relay?.offer(outbox);
      this.ordersVacuum.note(updatedOrders).catch((error: unknown) => this.logger.warn(`VACUUM orders failed: ${errorMessage(error)}`));
    };
    if (loaded.restarted) {
      await this.run((state, now) => {
        endOrdersOfResolvedMarkets(state, now);
        restateBooks(state, now);
      });
    }
    this.expiry.arm();
    this.timer = setInterval(() => this.ticks.forEach((tick) => tick(Date.now())), 1_000);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.expiry.stop();
    await this.relay?.stop();
    await this.checkpoint();
    await Promise.all([this.pool.end(), this.journal.end()]);
  }

  private async checkpoint(): Promise<void> {
    try {
      await this.outbox?.checkpoint();
      this.checkpointFailures.cleared();
    } catch (error) {
      this.checkpointFailures.failed(String(error));
    }
  }

  /**
   * Runs a write on the query pool (not the journal: deposit wallet bindings, heartbeat sessions, catalog
   * markets, the outbox's checkpoint) in a transaction fenced by the journal's epoch
   * (JournalSession.holdEpoch). After another engine took over, it writes nothing: it fails as nothing
   * done and the process exits, once the answer has left. A probe froze an engine (SIGSTOP), let a second
   * take over and resumed the first, which then wrote its outbox checkpoint.
   */
  fencedWrite<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      if (!(await this.journal.holdEpoch(client))) {
        const taken = new JournalTakenError('another engine took the journal');
        setTimeout(() => this.onFatal(taken), FATAL_EXIT_DELAY_MS);
        throw new NothingDoneError('the matching engine restarts: another engine writes its database', { cause: taken });
      }
      return work(client);
    });
  }

  onTick(task: (now: number) => void): void {
    this.ticks.push(task);
  }

  /**
   * Runs a command now and resolves with its value once its effects are durable. While the journal
   * cannot write, no command is run: it fails with why (`GroupCommit.failing`: the database's error, or
   * after a fatal write a `NothingDoneError`, each a 503 on its route), rather than pile up in memory for
   * a batch nobody can write.
   */
  async run<T>(command: (state: EngineState, now: number) => T): Promise<{ value: T; batchId: string }> {
    if (this.commits.failing !== undefined) throw this.commits.failing;
    const value = runAt(this.state, Date.now(), command);
    this.expiry.arm();
    const batchId = await this.commit();
    return { value, batchId };
  }

  private commit(): Promise<string> {
    return this.commits.commit(this.state.takeEffects());
  }
}
