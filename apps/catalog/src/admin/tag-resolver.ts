import { SLUG_PATTERN } from '@exchange/contracts';
import type { Prisma } from '../generated/prisma/client';

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 200)
    // After the cut, which may end on a dash (a probe's "⒇" expands to "(20)").
    .replace(/-+$/, '');
}

/**
 * Tags are given by slug or by label: an existing tag with that slug or label is reused, otherwise one
 * is created. Returns tag ids in the order given, without repeats; null for a name that has no slug.
 */
export async function resolveTags(tx: Prisma.TransactionClient, names: string[]): Promise<number[] | null> {
  const ids: number[] = [];
  for (const name of names) {
    const slug = SLUG_PATTERN.test(name) ? name : slugify(name);
    if (!slug) return null;
    const existing =
      (await tx.tag.findUnique({ where: { slug } })) ??
      (await tx.tag.findFirst({ where: { label: { equals: name, mode: 'insensitive' } } }));
    const label = SLUG_PATTERN.test(name) ? name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, ' ') : name;
    const tag = existing ?? (await tx.tag.create({ data: { label, slug } }));
    if (!ids.includes(tag.id)) ids.push(tag.id);
  }
  return ids;
}
