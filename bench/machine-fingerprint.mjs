// Three figures that tell machines of the same kind apart before a load test, printed with its results:
// the same code gave 3,100-3,600 accepted orders/s at saturation on one and 1,600-1,900 on another,
// while the matching core ran as fast on both (docs/performance.md, "fifth session").
//  - a wake-up round trip: one byte each way between two processes over named pipes, with blocking
//    reads (what `perf bench sched pipe` measures): every hop of the exchange pays such wake-ups;
//  - an idle wake-up: the CPU a Node.js TCP echo server spends per message when messages come 10 ms
//    apart, so that it sleeps between them as the exchange's processes do below saturation (219-305 µs
//    on the sixth session's machine, where a C echo server spent 41 µs: docs/performance.md, "sixth session");
//  - a secp256k1 public-key recovery (native addon), the gateway's largest single cost per order.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import secp256k1 from 'secp256k1';

const ROUND_TRIPS = 20_000;
const RECOVERIES = 2_000;
const IDLE_MESSAGES = 150;
const IDLE_GAP_MS = 10;

/** Median of a few repetitions of `measure`, which returns microseconds per operation. */
function median(measure, repetitions = 3) {
  const runs = Array.from({ length: repetitions }, measure).sort((a, b) => a - b);
  return runs[Math.floor(repetitions / 2)];
}

function wakeUpRoundTripMicros() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fingerprint-'));
  const ping = path.join(dir, 'ping');
  const pong = path.join(dir, 'pong');
  execFileSync('mkfifo', [ping, pong]);
  // The echo side answers each byte until the pipe closes.
  const echo = spawn(process.execPath, ['-e', `
    const fs = require('node:fs');
    const input = fs.openSync(${JSON.stringify(ping)}, 'r');
    const output = fs.openSync(${JSON.stringify(pong)}, 'w');
    const byte = Buffer.alloc(1);
    while (fs.readSync(input, byte) === 1) fs.writeSync(output, byte);`], { stdio: 'ignore' });
  // Each open waits for the other side's: the echo process opens them in the same order.
  const output = openSync(ping, 'w');
  const input = openSync(pong, 'r');
  const byte = Buffer.alloc(1);
  const micros = median(() => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < ROUND_TRIPS; i++) {
      writeSync(output, byte);
      readSync(input, byte);
    }
    return Number(process.hrtime.bigint() - started) / 1000 / ROUND_TRIPS;
  });
  closeSync(output);
  closeSync(input);
  // Its end is seen only now: nothing ran on the event loop since it was started.
  return new Promise((resolve) => {
    echo.on('exit', () => {
      rmSync(dir, { recursive: true });
      resolve(micros);
    });
  });
}

/** CPU time (ms) of every thread of a process so far, from the scheduler's own accounting. */
function runtimeMs(pid) {
  const tasks = readdirSync(`/proc/${pid}/task`);
  return tasks.reduce((sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
}

async function idleWakeUpMicros() {
  const echo = spawn(process.execPath, ['-e', `
    const server = require('node:net').createServer((s) => s.on('data', (d) => s.write(d)));
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`], { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = Number(await new Promise((resolve) => echo.stdout.once('data', resolve)));
  const socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  const message = Buffer.alloc(100, 1);
  const roundTrip = () => new Promise((resolve) => {
    socket.once('data', resolve);
    socket.write(message);
  });
  const pause = () => new Promise((resolve) => setTimeout(resolve, IDLE_GAP_MS));
  // A few messages first: the server's first ones also compile its code.
  for (let i = 0; i < 20; i++) await roundTrip().then(pause);
  const before = runtimeMs(echo.pid);
  for (let i = 0; i < IDLE_MESSAGES; i++) await roundTrip().then(pause);
  const micros = ((runtimeMs(echo.pid) - before) * 1000) / IDLE_MESSAGES;
  socket.destroy();
  echo.kill();
  return micros;
}

function recoveryMicros() {
  const key = randomBytes(32);
  const digest = randomBytes(32);
  const { signature, recid } = secp256k1.ecdsaSign(digest, key);
  return median(() => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < RECOVERIES; i++) secp256k1.ecdsaRecover(signature, recid, digest, false);
    return Number(process.hrtime.bigint() - started) / 1000 / RECOVERIES;
  });
}

/** The machine's wake-up round trip, idle wake-up and secp256k1 recovery, in microseconds. */
export async function machineFingerprint() {
  return { wakeUpRoundTrip: await wakeUpRoundTripMicros(), idleWakeUp: await idleWakeUpMicros(), recovery: recoveryMicros() };
}
