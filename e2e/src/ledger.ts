import { parseUnits } from '@exchange/contracts';
import { json, type Json } from './http';
import type { Stack } from './stack';

/** A decimal amount ("6.5") in integer base units (6 decimals), read from its digits: never through a float. */
export function units(decimal: string): bigint {
  const parsed = parseUnits(decimal);
  if (parsed === null) throw new Error(`not an amount of at most 6 decimals: ${decimal}`);
  return BigInt(parsed);
}

/** The operator's ledger audit (GET /admin/ledger/audit): totals in base units as decimal strings. */
export interface LedgerAudit {
  deposits: string;
  withdrawals: string;
  collateral: string;
  backing: string;
  unbalancedMarkets: unknown[];
  balanced: boolean;
}

/** Every money move of the journal (GET /admin/money-moves), page by page. */
async function allMoneyMoves(stack: Stack): Promise<Json[]> {
  const moves: Json[] = [];
  for (let offset = 0; ; offset += 500) {
    const response = await stack.admin('GET', `/admin/money-moves?limit=500&offset=${offset}`);
    if (response.status !== 200) throw new Error(`GET /admin/money-moves: ${response.status} ${await response.text()}`);
    const page: Json[] = await json(response);
    moves.push(...page);
    if (page.length < 500) return moves;
  }
}

/**
 * Conservation of collateral and shares: the engine's audit says every market's YES and NO shares are
 * backed by the collateral split into them (no unbalanced market), and the collateral held plus that
 * backing is exactly what came in less what went out; the totals it counts agree with the journal of
 * deposits and withdrawals the operator reads. Answers the audit, for comparisons across a restart.
 */
export async function expectLedgerBalanced(stack: Stack): Promise<LedgerAudit> {
  const response = await stack.admin('GET', '/admin/ledger/audit');
  expect(response.status).toBe(200);
  const audit: LedgerAudit = await json(response);
  expect(audit).toMatchObject({ balanced: true, unbalancedMarkets: [] });
  expect(BigInt(audit.collateral) + BigInt(audit.backing)).toBe(BigInt(audit.deposits) - BigInt(audit.withdrawals));
  const moves = await allMoneyMoves(stack);
  const total = (kind: string) => moves.filter((m) => m.kind === kind).reduce((sum, m) => sum + units(m.amount), 0n);
  expect({ deposits: BigInt(audit.deposits), withdrawals: BigInt(audit.withdrawals) }).toEqual({ deposits: total('deposit'), withdrawals: total('withdrawal') });
  return audit;
}
