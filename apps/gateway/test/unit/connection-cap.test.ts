import { defaultConnectionCap, openFilesLimit } from '../../src/http/connection-cap';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             unlimited            unlimited            processes
Max open files            1024                 1048576              files
Max locked memory         8388608              8388608              bytes
`;

describe('the cap on client connections', () => {
  it("reads the process's soft limit of open files", () => {
    expect(openFilesLimit(() => LIMITS)).toBe(1024);
    expect(openFilesLimit(() => LIMITS.replace('1024 ', 'unlimited '))).toBeUndefined();
    expect(openFilesLimit(() => 'no such line')).toBeUndefined();
    expect(
      openFilesLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
    // This machine's own, which Linux always has.
    expect(openFilesLimit()).toBeGreaterThan(0);
  });

  it('keeps an eighth of the limit, at least 128 descriptors, for the gateway itself', () => {
    expect(defaultConnectionCap(1024)).toBe(896);
    expect(defaultConnectionCap(65_536)).toBe(57_344);
    expect(defaultConnectionCap(200)).toBe(72);
    expect(defaultConnectionCap(100)).toBe(64);
    expect(defaultConnectionCap(undefined)).toBeUndefined();
  });
});
