import { SLUG_PATTERN } from '@exchange/contracts';
import { slugify } from '../../src/admin/tag-resolver';

describe('slugify (tag slugs made from labels)', () => {
  it.each([
    ['Finance & Stocks', 'finance-stocks'],
    ['  Élection présidentielle ', 'election-presidentielle'],
    ['--US--', 'us'],
  ])('makes %j a slug', (label, slug) => {
    expect(slugify(label)).toBe(slug);
  });

  it('cuts at 200 characters without leaving a dash at the end (a probe: "⒇" expands to "(20)")', () => {
    const slug = slugify(`a${'\u2487'.repeat(99)}`);
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug).toMatch(SLUG_PATTERN);
    expect(slug.startsWith('a-20-20')).toBe(true);
  });

  it('is empty for a label with no letter or digit', () => {
    expect(slugify('!!!')).toBe('');
  });
});
