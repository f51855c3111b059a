import { headers } from 'nats';
import { rowIdOf, RowIdWatch } from '../../src/books/outbox-row-ids';

describe('outbox row ids of MATCHING messages', () => {
  it('reads the row id of both message id forms, and none without one', () => {
    const withId = (id: string) => {
      const h = headers();
      h.set('Nats-Msg-Id', id);
      return { headers: h };
    };
    expect(rowIdOf(withId('matching.evt.batch.v1:42:0123456789abcdef'))).toBe(42n);
    expect(rowIdOf(withId('matching.evt.batch.v1:43'))).toBe(43n);
    expect(rowIdOf({ headers: undefined })).toBeUndefined();
  });

  it('reports a regression once, and goes on from the id that went back', () => {
    const watch = new RowIdWatch(10n);
    expect(watch.regression(11n)).toBeUndefined();
    expect(watch.regression(undefined)).toBeUndefined();
    expect(watch.regression(11n)).toBe(11n);
    expect(watch.regression(5n)).toBe(11n);
    expect(watch.regression(6n)).toBeUndefined();
    expect(new RowIdWatch().regression(1n)).toBeUndefined();
  });
});
