import { json } from './http';
import type { Stack } from './stack';

/** An event of one market (the market's settings as given, the catalog's defaults for the rest): its condition id and YES, NO tokens. */
export async function oneMarket(stack: Stack, slug: string, market: Record<string, unknown> = {}): Promise<{ conditionId: string; tokens: [string, string] }> {
  const created = await json(
    await stack.admin('POST', '/admin/events', { title: slug, slug, description: '', endDate: '2027-06-30T00:00:00Z', markets: [{ question: `${slug}?`, slug: `${slug}-market`, ...market }] }),
  );
  return { conditionId: created.markets[0].conditionId, tokens: JSON.parse(created.markets[0].clobTokenIds) };
}
