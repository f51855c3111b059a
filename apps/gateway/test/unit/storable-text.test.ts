import { holdsUnstorableText } from '@exchange/contracts';
import { mayHoldUnstorableText, urlHoldsNul } from '../../src/http/storable-text';

describe('storable text at the HTTP edge', () => {
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
