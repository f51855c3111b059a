import { connect } from 'nats';
import { CATALOG_STREAM } from '@exchange/contracts';
import { TEST_NATS_URL, until } from '@exchange/testing';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'7e'.repeat(32)}`;

/** order-matching's catalog feed ending under it (real PostgreSQL, NATS and JetStream). */
describe('order-matching whose catalog consumer is deleted while it runs', () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching();
  });
  // Fails if the fatal handler was called without a test taking it (a shutdown must not call it).
  afterAll(() => om.stop());

  const stream = () => `${om.prefix}_${CATALOG_STREAM.name}`;

  it('calls its fatal handler (an exit: its supervisor starts it again) when its consumer is deleted, and learns markets again after the start', async () => {
    await om.restart();
    const nc = await connect({ servers: TEST_NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      const [consumer] = await jsm.consumers.list(stream()).next();
      await jsm.consumers.delete(stream(), consumer!.name);
    } finally {
      await nc.close();
    }
    const fatal = await until(async () => {
      const taken = om.takeFatal();
      return taken.length ? taken : undefined;
    }, 10_000, 'the fatal handler called');
    expect(fatal.map(String)).toEqual(['Error: the catalog feed ended']);
    // What the supervisor does; the new start makes the consumer again and learns of a new market.
    await om.restart();
    await om.publishMarket(aMarketSnapshot(CONDITION, ['701', '702']));
  });
});
