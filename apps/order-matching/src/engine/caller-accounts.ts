import { fail, ok, type Caller, type Reply } from '@exchange/contracts';
import type { EngineState } from './engine-state';

/**
 * The accounts a caller reaches (lower-case): its key's address, then the deposit wallet bound to it.
 * None when the key's address is itself a bound wallet: a wallet is reached through its owner's keys
 * only (a key of the wallet's address could otherwise read, cancel and move what its owner trades).
 */
export function callerAccounts(state: EngineState, caller: Caller): string[] {
  const address = caller.address.toLowerCase();
  if (state.wallets.ownerOf(address) !== undefined) return [];
  const wallet = state.wallets.walletOf(address);
  return wallet === undefined ? [address] : [address, wallet];
}

/**
 * The account a balance query or money move names by signature type, as upstream's clients name their
 * funder: 0 (or none) the key's address, 3 its deposit wallet. There are no type 1 or 2 wallets here.
 */
export function fundingAccount(state: EngineState, caller: Caller, signatureType = 0): Reply<string> {
  if (signatureType !== 0 && signatureType !== 3) {
    return fail('invalid_request', 'signature_type must be 0 (EOA) or 3 (deposit wallet): types 1 and 2 are not supported');
  }
  const [own, wallet] = callerAccounts(state, caller);
  if (own === undefined) return fail('forbidden', `${caller.address} is a deposit wallet: its owner's keys act for it (signature type 3)`);
  if (signatureType === 0) return ok(own);
  return wallet === undefined ? fail('wallet_not_found', `no deposit wallet is bound to ${caller.address}`) : ok(wallet);
}
