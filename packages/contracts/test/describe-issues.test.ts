import { batchPricesHistoryRequest, describeIssues, tokenIdSchema } from '../src';
import { z } from 'zod';

const TOKEN = '21742633143463906290569050155826241533067272736897614950488156847949938836455';

describe('describeIssues', () => {
  it('says only that a field has the wrong type, not what its checks make of the wrong value', () => {
    const parsed = batchPricesHistoryRequest.safeParse({ markets: TOKEN, interval: '1d' });
    expect(parsed.success || describeIssues(parsed.error)).toBe('markets must be an array of token ids');
  });

  it('still names every broken field, up to three', () => {
    const parsed = batchPricesHistoryRequest.safeParse({ markets: Array.from({ length: 21 }, () => TOKEN), fidelity: 0, interval: 'decade' });
    const message = parsed.success ? '' : describeIssues(parsed.error);
    expect(message.split('; ')).toHaveLength(3);
    expect(message).toContain('at most 20 markets per request');
  });

  it("says upstream's own texts as they are, without the field's name, and once", () => {
    const one = z.object({ token_id: tokenIdSchema }).safeParse({ token_id: '0xabc' });
    expect(one.success || describeIssues(one.error)).toBe('Invalid token id');
    const many = z.array(z.object({ token_id: tokenIdSchema })).safeParse([{ token_id: 'x' }, { token_id: 'y' }]);
    expect(many.success || describeIssues(many.error)).toBe('Invalid token id');
  });
});
