/** Prisma's `contains` becomes LIKE '%text%' without escaping: % and _ in user text must not act as wildcards. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
