import { fail, ok, type Caller, type Reply } from '@exchange/contracts';
import type { EngineState } from './engine-state';

/** The accounts a caller reaches (lower-case): its key's address, then the deposit wallet bound to it. */
export function callerAccounts(state: EngineState, caller: Caller): string[] {
  const address = caller.address.toLowerCase();
  const wallet = state.wallets.walletOf(address);
  return wallet === undefined ? [address] : [address, wallet];
}

/**
 * The account a balance query or money move names by signature type, as upstream's clients name their
 * funder: 0 (or none) the key's address, 3 its deposit wallet. There are no type 1 or 2 wallets here.
 */
export function fundingAccount(state: EngineState, caller: Caller, signatureType = 0): Reply<string> {
  const address = caller.address.toLowerCase();
  if (signatureType === 0) return ok(address);
  if (signatureType !== 3) return fail('invalid_request', 'signature_type must be 0 (EOA) or 3 (deposit wallet): types 1 and 2 are not supported');
  const wallet = state.wallets.walletOf(address);
  return wallet === undefined ? fail('wallet_not_found', `no deposit wallet is bound to ${caller.address}`) : ok(wallet);
}
