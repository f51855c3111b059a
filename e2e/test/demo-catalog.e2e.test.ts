import { json } from '../src/http';
import { startStack, type Stack } from '../src/stack';

interface ListedEvent {
  id: string;
  slug: string;
  markets: { id: string; conditionId: string; clobTokenIds: string }[];
}

async function allEvents(base: string, query = ''): Promise<ListedEvent[]> {
  const events: ListedEvent[] = [];
  for (let offset = 0; ; offset += 100) {
    const page: ListedEvent[] = await json(await fetch(`${base}/events?limit=100&offset=${offset}${query}`));
    events.push(...page);
    if (page.length < 100) return events;
  }
}

describe('a newcomer starts the exchange on an empty database', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ demo: true });
  });
  afterAll(() => stack?.stop());

  it('sees a live demo catalog at once', async () => {
    const five = await json(await fetch(`${stack.base}/events?limit=5`));
    expect(five).toHaveLength(5);

    const events = await allEvents(stack.base);
    expect(events.length).toBeGreaterThanOrEqual(20);
    expect(events.flatMap((e) => e.markets).length).toBeGreaterThanOrEqual(60);
    const tags = await json(await fetch(`${stack.base}/tags?limit=500`));
    expect(tags.length).toBeGreaterThan(5);
    const withSeries = await Promise.all(
      events.map(async (e) => (await json(await fetch(`${stack.base}/events/${e.id}`))).series as { slug: string }[]),
    );
    expect(new Set(withSeries.flat().map((s) => s.slug)).size).toBe(2);
    const sites = await json(await stack.admin('GET', '/admin/sites'));
    expect(sites).toHaveLength(2);
    for (const site of sites) {
      const visible = await allEvents(stack.base, `&creator=${site.id}`);
      expect(visible.length).toBeGreaterThan(0);
      expect(visible.length).toBeLessThan(events.length);
    }
  });

  it('keeps the same catalog and ids across a restart, without loading the demo twice', async () => {
    const before = await allEvents(stack.base);
    await stack.restart('catalog');
    await stack.restart('gateway');
    const after = await allEvents(stack.base);
    expect(after).toEqual(before);
  });
});
