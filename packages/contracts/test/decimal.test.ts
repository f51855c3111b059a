import { formatUnits, parseUnits } from '../src';

describe('decimal strings and base units', () => {
  it.each([
    ['5', 5_000_000],
    ['0.01', 10_000],
    ['0.0025', 2_500],
    ['4.333318', 4_333_318],
    ['0', 0],
  ])('parses %s', (text, units) => {
    expect(parseUnits(text)).toBe(units);
    expect(parseUnits(formatUnits(units))).toBe(units);
  });

  it.each(['-1', '1.0000001', '1e3', '', '.5', '1.', 'abc', '9999999999999999'])('refuses %s', (text) => {
    expect(parseUnits(text)).toBeNull();
  });

  it('formats the shortest decimal', () => {
    expect(formatUnits(5_200_000)).toBe('5.2');
    expect(formatUnits(10_000)).toBe('0.01');
    expect(formatUnits(-1_500_000)).toBe('-1.5');
  });
});
