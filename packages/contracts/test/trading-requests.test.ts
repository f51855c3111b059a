import { balanceRequest, bindWalletRequest, cancelOrdersRequest, describeIssues, listOrdersRequest, listTradesRequest, moneyMoveRequest } from '../src';

const caller = { apiKey: 'key', address: `0x${'1'.repeat(40)}` };
const id = `0x${'ab'.repeat(32)}`;

describe('trading requests', () => {
  it('read an order id in either case as the lower-case hash', () => {
    expect(cancelOrdersRequest.parse({ caller, orderIds: [id.toUpperCase().replace('0X', '0x'), id] }).orderIds).toEqual([id, id]);
    expect(cancelOrdersRequest.safeParse({ caller, orderIds: [`${id}0`] }).success).toBe(false);
  });

  it('read a trade id filter in either case, and refuse what is not a trade id', () => {
    const trade = '019ac0de-0000-7000-8000-00000000abcd';
    expect(listTradesRequest.parse({ caller, id: trade.toUpperCase() }).id).toBe(trade);
    // An empty id (`?id=`) listed nothing, where every other empty filter is a 400.
    for (const id of ['', ' ', 'trade-1']) expect(listTradesRequest.safeParse({ caller, id }).success).toBe(false);
  });

  it('refuse a filter of the trading lists spelled otherwise, rather than answer the whole list', () => {
    const market = `0x${'cd'.repeat(32)}`;
    expect(listOrdersRequest.parse({ caller, market }).market).toBe(market);
    for (const key of ['market[]', 'market[0]', 'condition_id']) {
      expect(listOrdersRequest.safeParse({ caller, [key]: market }).success).toBe(false);
      expect(listTradesRequest.safeParse({ caller, [key]: market }).success).toBe(false);
    }
  });

  const balance = { asset_type: 'CONDITIONAL', token_id: '1' };
  it.each([
    ['/data/orders', 'market', listOrdersRequest, {}, `0x${'cd'.repeat(32)}`],
    ['/data/orders', 'id', listOrdersRequest, {}, id],
    ['/data/orders', 'next_cursor', listOrdersRequest, {}, 'MA=='],
    ['/data/trades', 'maker_address', listTradesRequest, {}, caller.address],
    ['/data/trades', 'asset_id', listTradesRequest, {}, '123'],
    ['/balance-allowance', 'asset_type', balanceRequest, balance, 'COLLATERAL'],
    ['/balance-allowance', 'token_id', balanceRequest, balance, '1'],
  ] as const)('say on %s that %s given twice must be given once', (_route, name, schema, rest, value) => {
    const parsed = schema.safeParse({ caller, ...rest, [name]: [value, value] });
    expect(describeIssues(parsed.error!)).toBe(`${name} must be given once`);
  });

  it('call a time filter of any number of digits out of range, not "not an integer"', () => {
    const after = (value: string) => describeIssues(listTradesRequest.safeParse({ caller, after: value }).error!);
    expect(after('99999999999999999')).toBe('after must be <= 99999999999');
    expect(after('9'.repeat(400))).toBe('after must be <= 99999999999');
    expect(after('-99999999999999999')).toBe('after must be >= 0');
    expect(after('1.5')).toBe('after must be an integer');
    expect(listTradesRequest.parse({ caller, after: '99999999999' }).after).toBe(99_999_999_999);
  });

  it('read an amount into base units up to 2^53 - 1, and name that bound when refusing one past it', () => {
    const move = (amount: string) => moneyMoveRequest.safeParse({ address: caller.address, amount });
    expect(move('9007199254.740991').data?.amount).toBe(Number.MAX_SAFE_INTEGER);
    for (const amount of ['9007199254.740992', '0', '1.0000001', '1e6', '-1']) {
      expect(move(amount).error?.issues[0]?.message).toBe('amount must be a positive decimal with at most 6 decimals, at most 9007199254.740991');
    }
  });

  it('refuse the zero address as an account that money moves to or as a wallet or its owner', () => {
    const zero = `0x${'0'.repeat(40)}`;
    const text = 'must not be the zero address: nobody can sign for it';
    expect(moneyMoveRequest.safeParse({ address: zero, amount: '1' }).error?.issues[0]?.message).toBe(text);
    expect(bindWalletRequest.safeParse({ wallet: zero, owner: caller.address }).error?.issues[0]?.message).toBe(text);
    expect(bindWalletRequest.safeParse({ wallet: caller.address.replace('1', '2'), owner: zero }).error?.issues[0]?.message).toBe(text);
    expect(moneyMoveRequest.safeParse({ address: caller.address, amount: '1' }).success).toBe(true);
  });

  it.each(['0xfeed-transfer-1', 'a', '~'.repeat(128), 'wire/2026:11#7'])('take the money reference %s', (reference) => {
    expect(moneyMoveRequest.parse({ address: caller.address, amount: '1', reference }).reference).toBe(reference);
  });

  it.each(['', 'two words', 'x'.repeat(129), 'tab\there', 'café', '\u0000'])('refuse the money reference %j', (reference) => {
    const parsed = moneyMoveRequest.safeParse({ address: caller.address, amount: '1', reference });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/reference/);
  });
});
