import { concatBytes, fromHex, keccak256, toHex, uint256 } from '@exchange/chain';

export interface IdentifierSettings {
  namespace: string;
  oracle: string;
  collateral: string;
}

export interface MarketIdentifiers {
  questionId: string;
  conditionId: string;
  /** Decimal uint256 strings, outcome 0 (Yes) first. */
  tokenIds: [string, string];
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * Derives a market's identifiers from its slug, the way the Conditional Token Framework derives them
 * from a question: questionId from the namespace and slug; conditionId = keccak(oracle, questionId,
 * outcomeSlotCount = 2); one collection per outcome = keccak(conditionId, indexSet); tokenId =
 * keccak(collateral, collectionId) as a uint256. Slugs are unique and never change, so the ids are
 * stable across restarts and reproducible from the catalog alone (docs/identifiers.md).
 */
export function deriveMarketIdentifiers(settings: IdentifierSettings, marketSlug: string): MarketIdentifiers {
  const questionId = keccak256(utf8(`${settings.namespace}:question:${marketSlug}`));
  const conditionId = keccak256(concatBytes(fromHex(settings.oracle), questionId, uint256(2n)));
  const tokenId = (indexSet: bigint) => {
    const collectionId = keccak256(concatBytes(conditionId, uint256(indexSet)));
    return BigInt(toHex(keccak256(concatBytes(fromHex(settings.collateral), collectionId)))).toString(10);
  };
  return { questionId: toHex(questionId), conditionId: toHex(conditionId), tokenIds: [tokenId(1n), tokenId(2n)] };
}

/** The id that groups the mutually exclusive markets of one neg-risk event. */
export function deriveNegRiskMarketId(settings: IdentifierSettings, eventSlug: string): string {
  return toHex(keccak256(utf8(`${settings.namespace}:neg-risk:${eventSlug}`)));
}
