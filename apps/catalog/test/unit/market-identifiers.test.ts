import { concatBytes, fromHex, keccak256, toHex, uint256 } from '@exchange/chain';
import { deriveMarketIdentifiers, deriveNegRiskMarketId } from '../../src/identifiers/market-identifiers';

const settings = {
  namespace: 'prediction-exchange',
  oracle: '0x0000000000000000000000000000000000000a11',
  collateral: '0x0000000000000000000000000000000000000c01',
};

describe('deriveMarketIdentifiers', () => {
  const ids = deriveMarketIdentifiers(settings, 'will-it-rain-tomorrow');

  it('has the upstream formats: 0x + 64 hex condition id, decimal uint256 token ids', () => {
    expect(ids.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(ids.questionId).toMatch(/^0x[0-9a-f]{64}$/);
    for (const token of ids.tokenIds) {
      expect(token).toMatch(/^\d{1,78}$/);
      expect(BigInt(token) < 2n ** 256n).toBe(true);
    }
    expect(ids.tokenIds[0]).not.toBe(ids.tokenIds[1]);
  });

  it('is deterministic and depends on slug, namespace and oracle', () => {
    expect(deriveMarketIdentifiers(settings, 'will-it-rain-tomorrow')).toEqual(ids);
    expect(deriveMarketIdentifiers(settings, 'will-it-snow-tomorrow').conditionId).not.toBe(ids.conditionId);
    expect(deriveMarketIdentifiers({ ...settings, namespace: 'other' }, 'will-it-rain-tomorrow').conditionId).not.toBe(ids.conditionId);
    expect(
      deriveMarketIdentifiers({ ...settings, oracle: '0x0000000000000000000000000000000000000a12' }, 'will-it-rain-tomorrow')
        .conditionId,
    ).not.toBe(ids.conditionId);
  });

  it('follows the CTF construction: condition from oracle, question and two outcome slots', () => {
    const expected = toHex(keccak256(concatBytes(fromHex(settings.oracle), fromHex(ids.questionId), uint256(2n))));
    expect(ids.conditionId).toBe(expected);
    const collection = keccak256(concatBytes(fromHex(ids.conditionId), uint256(1n)));
    expect(BigInt(toHex(keccak256(concatBytes(fromHex(settings.collateral), collection)))).toString()).toBe(ids.tokenIds[0]);
  });

  it('pins one value so that a change of the derivation is noticed', () => {
    // Changing the derivation changes every market id of every running exchange: it must be deliberate.
    expect(ids).toEqual({
      questionId: '0xccb41b8a25733f58607b09bf27de2cf3833640be04975be577795e30d8f804be',
      conditionId: '0x1831be3736a4b2ab8a8456f21c1dc42b3bb5424a8670e0ec2abe1ce6498ab617',
      tokenIds: [
        '84633686888439034330685626305920404936285251366251520129321089241903742003733',
        '30049871760840257224901958568323927657515880859137817703369741326656209598289',
      ],
    });
  });

  it('derives neg-risk market ids per event', () => {
    expect(deriveNegRiskMarketId(settings, 'election')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(deriveNegRiskMarketId(settings, 'election')).not.toBe(deriveNegRiskMarketId(settings, 'election-2'));
  });
});
