/**
 * When GTD orders end (UPSTREAM.md, "Expiration / GTD"): 60 s before the expiration they state, the
 * upstream exchange's security threshold, so that clients written for it (which send now + 60 + N for
 * N seconds) get the lifetime they asked for and not a minute more of a stale quote.
 */
const SECURITY_SECONDS = 60;

/** The latest expiration accepted: 9999-12-31T23:59:59Z. Anything later is no time at all (and beyond bigint). */
export const MAX_EXPIRATION_SECONDS = 253_402_300_799;

/** The second at which a GTD order with this expiration leaves the book. */
export function gtdEndSecond(expiration: number): number {
  return expiration - SECURITY_SECONDS;
}

/** A GTD expiration the engine takes: one that leaves the order some time on the book after `now` (ms). */
export function acceptableGtdExpiration(expiration: number, now: number): boolean {
  return expiration <= MAX_EXPIRATION_SECONDS && gtdEndSecond(expiration) * 1000 > now;
}
