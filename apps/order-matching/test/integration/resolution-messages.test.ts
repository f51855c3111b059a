import { readStream, until } from '@exchange/testing';
import {
  MATCHING_BATCH_SUBJECT,
  MATCHING_MARKET_RESOLVED_SUBJECT,
  type MarketResolvedMessage,
  type MatchingEventBatch,
} from '@exchange/contracts';
import { Effects } from '../../src/engine/effects';
import { writeBatch } from '../../src/journal/journal-sql';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';
import { freshDatabase } from '../support/fresh-database';

const CONDITION = `0x${'cd'.repeat(32)}`;
const BATCH = `0x${'0b'.repeat(32)}`;

/** A resolution is journaled and published twice: in its batch's message and on a subject of its own. */
describe('market resolutions on their own subject', () => {
  describe('the journal statement (fresh database, no engine)', () => {
    const db = freshDatabase('resolution', 2);

    const outboxRows = async () =>
      (await db.pool.query<{ id: string; subject: string; payload: string }>('SELECT id::text, subject, payload FROM outbox ORDER BY id')).rows;

    it('writes one more outbox row, with its subject, after the batch message, and answers the same subjects', async () => {
      const effects = new Effects();
      effects.events.push({ type: 'book', data: { conditionId: CONDITION, bookSeq: 1, changes: [], timestamp: 1 } });
      effects.events.push({ type: 'market-resolved', data: { conditionId: CONDITION, winningOutcome: 1, resolvedAt: 1_700_000_000_000 } });
      const { outbox: records } = await writeBatch(db.pool, BATCH, 1, [effects]);

      expect(records.map((r) => r.subject)).toEqual([MATCHING_BATCH_SUBJECT, MATCHING_MARKET_RESOLVED_SUBJECT]);
      const rows = await outboxRows();
      expect(rows.map((r) => [BigInt(r.id), r.subject, r.payload])).toEqual(records.map((r) => [r.id, r.subject, 'json' in r ? r.json : '']));
      expect((JSON.parse(rows[0]!.payload) as MatchingEventBatch).events.map((e) => e.type)).toEqual(['book', 'market-resolved']);
      const resolution: MarketResolvedMessage = { conditionId: CONDITION, winningOutcome: 1, resolvedAt: 1_700_000_000_000, batchId: BATCH };
      expect(JSON.parse(rows[1]!.payload)).toEqual(resolution);
    });

    it('writes a batch without resolutions as before: its messages, all on the batch subject', async () => {
      await db.pool.query('DELETE FROM outbox');
      const effects = new Effects();
      effects.events.push({ type: 'book', data: { conditionId: CONDITION, bookSeq: 2, changes: [], timestamp: 2 } });
      const { outbox: records } = await writeBatch(db.pool, `0x${'0c'.repeat(32)}`, 1, [effects]);
      expect(records.map((r) => r.subject)).toEqual([MATCHING_BATCH_SUBJECT]);
      expect((await outboxRows()).map((r) => r.subject)).toEqual([MATCHING_BATCH_SUBJECT]);
    });
  });

  describe('order-matching (real PostgreSQL and NATS)', () => {
    let om: MatchingUnderTest;

    beforeAll(async () => {
      om = await startMatching();
      await om.publishMarket(aMarketSnapshot(CONDITION, ['303', '404']));
    });
    afterAll(() => om.stop());

    it('publishes the resolution on matching.evt.market-resolved.v1 after its batch message', async () => {
      const resolved = await om.data('matching.admin.resolve.v1', { conditionId: CONDITION, winningOutcome: 'No' });
      expect(resolved).toMatchObject({ conditionId: CONDITION, winningOutcome: 1 });

      const messages = await until(async () => {
        const all = await readStream(om.prefix, 'MATCHING');
        return all.some((m) => m.subject === MATCHING_MARKET_RESOLVED_SUBJECT) ? all : undefined;
      }, 10_000, 'the resolution published');
      const own = messages.filter((m) => m.subject === MATCHING_MARKET_RESOLVED_SUBJECT);
      expect(own).toHaveLength(1);
      const message = own[0]!.data as MarketResolvedMessage;
      expect(message).toEqual({ conditionId: CONDITION, winningOutcome: 1, resolvedAt: expect.any(Number), batchId: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      // The batch's own message still holds the market-resolved event (market-data reads it there), first.
      const batch = messages.find((m) => m.subject === MATCHING_BATCH_SUBJECT && (m.data as MatchingEventBatch).batchId === message.batchId)!;
      expect((batch.data as MatchingEventBatch).events).toContainEqual({
        type: 'market-resolved',
        data: { conditionId: CONDITION, winningOutcome: 1, resolvedAt: message.resolvedAt },
      });
      expect(batch.seq).toBeLessThan(own[0]!.seq);
    });

    it("refuses a second Yes in a neg-risk event, from the catalog's snapshots and after a restart", async () => {
      const group = `0x${'ee'.repeat(32)}`;
      const [first, second] = [`0x${'e1'.repeat(32)}`, `0x${'e2'.repeat(32)}`];
      await om.publishMarket(aMarketSnapshot(first, ['611', '612'], { negRisk: true, negRiskMarketId: group }));
      await om.publishMarket(aMarketSnapshot(second, ['621', '622'], { negRisk: true, negRiskMarketId: group }));
      expect(await om.data('matching.admin.resolve.v1', { conditionId: first, winningOutcome: 'Yes' })).toMatchObject({ winningOutcome: 0 });
      await om.restart();
      expect(await om.request('matching.admin.resolve.v1', { conditionId: second, winningOutcome: 'Yes' })).toMatchObject({ ok: false, status: 409, body: { code: 'conflict' } });
      expect(await om.data('matching.admin.resolve.v1', { conditionId: second, winningOutcome: 'No' })).toMatchObject({ winningOutcome: 1 });
    });
  });
});
