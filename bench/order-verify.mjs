// What the gateway spends on each order's signature before it reaches the engine: the EIP-712 struct
// hash, the order hash (the order id) and the whole check (hash, then native secp256k1 recovery of the
// signer), next to the bare native recovery. One process, no IO: µs per order, median of 5 rounds.
//
//   node order-verify.mjs [--orders 20000]
import { createRequire } from 'node:module';
import { orderBody, wallet } from './trading-client.mjs';

const require = createRequire(import.meta.url);
const chain = require('../packages/chain/dist/index.js');
const secp = require('secp256k1');

const flag = process.argv.indexOf('--orders');
const ORDERS = flag === -1 ? 20_000 : Number(process.argv[flag + 1]);
const DOMAIN = { chainId: 137, verifyingContract: chain.EXCHANGE_V2_CONTRACTS.standard };
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

const trader = wallet();
const orders = Array.from({ length: 1_000 }, (_, i) => {
  const { order } = JSON.parse(orderBody(trader, { apiKey: 'bench' }, TOKEN, i % 2 ? 'SELL' : 'BUY', 5_000_000, (40 + (i % 20)) * 50_000));
  return order;
});
if (chain.verifyOrderV2(orders[0], orders[0].signature, DOMAIN)?.owner !== trader.address.toLowerCase()) throw new Error('signature did not verify');
const digests = orders.map((o) => chain.orderV2Digest(o, DOMAIN));
const signatures = orders.map((o) => Buffer.from(o.signature.slice(2, 130), 'hex'));
const recids = orders.map((o) => parseInt(o.signature.slice(130), 16) - 27);

function timed(run) {
  const rounds = [];
  for (let round = 0; round < 6; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < ORDERS; i++) run(i % orders.length);
    const us = Number(process.hrtime.bigint() - started) / 1_000 / ORDERS;
    if (round > 0) rounds.push(us); // the first round warms the JIT up
  }
  return rounds.sort((a, b) => a - b)[2];
}

const figures = {
  'struct hash (orderV2StructHash)': timed((i) => chain.orderV2StructHash(orders[i])),
  'order hash (hashOrderV2)': timed((i) => chain.hashOrderV2(orders[i], DOMAIN)),
  'whole check (verifyOrderV2)': timed((i) => chain.verifyOrderV2(orders[i], orders[i].signature, DOMAIN)),
  'bare native recovery (ecdsaRecover)': timed((i) => secp.ecdsaRecover(signatures[i], recids[i], digests[i], false)),
};
for (const [name, us] of Object.entries(figures)) console.log(`${name.padEnd(38)} ${us.toFixed(1).padStart(7)} µs/order`);
