import { holdsUnstorableText, mayHoldUnstorableText, urlHoldsNul } from '../../src/http/storable-text';

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

  it('needs the walk only for JSON texts with a \\u escape', () => {
    const walked = (json: string) => mayHoldUnstorableText(json) && holdsUnstorableText(JSON.parse(json));
    expect(walked('{"t":"a\\u0000"}')).toBe(true);
    expect(walked('{"t":"\\ud800"}')).toBe(true);
    expect(walked('{"t":"\\\\u0000"}')).toBe(false);
    expect(mayHoldUnstorableText('{"order":{"salt":1,"maker":"0xab"}}')).toBe(false);
  });

  it('finds a percent-encoded NUL in a URL', () => {
    expect(urlHoldsNul('/events?slug=a%00b')).toBe(true);
    expect(urlHoldsNul('/events/slug/%00')).toBe(true);
    expect(urlHoldsNul('/events?slug=%2500')).toBe(false);
  });
});
