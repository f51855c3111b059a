import { holdsUnstorableText, storableText } from '../src';

describe('storable text', () => {
  it('finds a NUL or an unpaired surrogate in any string of a JSON value, keys included', () => {
    for (const value of ['a\0b', { title: '\0' }, { ['k\0']: 1 }, [1, ['x', { deep: ['\ud800'] }]], 'end\udbff', '\udc00start', 'x\udfffy']) {
      expect(holdsUnstorableText(value)).toBe(true);
    }
  });

  it('passes well-formed text, surrogate pairs and non-strings', () => {
    for (const value of ['plain', '\ud83d\ude00 pair', '\\u0000 as six characters', { a: [1, null, true, { b: 'ü' }] }, 7, null, undefined]) {
      expect(holdsUnstorableText(value)).toBe(false);
    }
  });

  it('walks arrays nested 100,000 deep without running out of stack', () => {
    const nested = (inner: string) => JSON.parse(`{"a":${'['.repeat(100_000)}"${inner}"${']'.repeat(100_000)}}`);
    expect(holdsUnstorableText(nested('\\u0000'))).toBe(true);
    expect(holdsUnstorableText(nested('fine'))).toBe(false);
  });

  it('makes text storable by putting U+FFFD for each NUL and unpaired surrogate, keeping pairs', () => {
    // V8's JSON.parse message quotes the input cut in half an emoji.
    expect(storableText('Unexpected token \'\ud83d\', "\ud83d\ude00" is not valid JSON')).toBe('Unexpected token \'\ufffd\', "\ud83d\ude00" is not valid JSON');
    expect(storableText('a\0b\udc00c\udbff')).toBe('a\ufffdb\ufffdc\ufffd');
    expect(holdsUnstorableText(storableText('\ud800\ud800\udc00\0'))).toBe(false);
    expect(storableText('\ud800\ud800\udc00')).toBe('\ufffd\ud800\udc00');
  });
});
