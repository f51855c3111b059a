// The plain-socket HTTP/1.1 client of the load generators: keep-alive connections, a request written as
// one prepared string, and a parser that reads the status line and Content-Length only (the exchange's
// answers always carry one). undici and autocannon spend several times its CPU per request, and the
// generator shares the two cores with the exchange it measures.
import net from 'node:net';

const HEADER_END = '\r\n\r\n';
// A connection idle this long before the server's keep-alive timeout ends is not reused: a request
// written as the server closes it would fail for nothing (Node's own agent does the same).
const KEEP_ALIVE_MARGIN_MS = 1_000;

/** One keep-alive connection, one request at a time; `onAnswer(connection, sentAt, status)`, status 0 when the connection broke. */
export class Connection {
  constructor(host, port, onAnswer) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.setEncoding('latin1');
    this.buffer = '';
    this.pending = undefined;
    /** When the last answer came, and how long the server keeps an idle connection (its `Keep-Alive` hint). */
    this.idleSince = performance.now();
    this.keepAliveMs = Infinity;
    this.socket.on('data', (chunk) => {
      this.buffer += chunk;
      this.parse(onAnswer);
    });
    // An error is followed by 'close'; a request in flight then counts as failed (status 0).
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.broken = true;
      const sentAt = this.pending;
      this.pending = undefined;
      if (sentAt !== undefined) onAnswer(this, sentAt, 0);
    });
  }

  /** Whether the server may close the connection before a request written now reaches it. */
  stale(now = performance.now()) {
    return this.broken || now - this.idleSince > this.keepAliveMs - KEEP_ALIVE_MARGIN_MS;
  }

  /** `sentAt` is what latency is measured from: the scheduled time in an open loop. */
  send(request, sentAt) {
    this.pending = sentAt;
    this.socket.write(request);
  }

  parse(onAnswer) {
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.buffer.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < end + 4 + length) return;
    const status = Number(head.slice(9, 12));
    const keepAliveSeconds = /\r\nkeep-alive: *timeout=(\d+)/i.exec(head)?.[1];
    if (keepAliveSeconds !== undefined) this.keepAliveMs = Number(keepAliveSeconds) * 1_000;
    this.idleSince = performance.now();
    this.buffer = this.buffer.slice(end + 4 + length);
    const sentAt = this.pending;
    this.pending = undefined;
    onAnswer(this, sentAt, status);
  }
}

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * Latencies and statuses of a run, as both loops report them. Requests sent before `measureFrom` (ms,
 * performance.now()) are the warm-up: counted apart, left out of the figures.
 */
export class Tally {
  constructor(measureFrom) {
    this.measureFrom = measureFrom;
  }
  warmUp = 0;
  latencies = [];
  /** When each answer came (ms, performance.now()), for the timeline. */
  answeredAt = [];
  statuses = new Map();

  /** An answer now; `sentAt`: the request's scheduled (open loop) or actual (closed loop) send time. */
  add(sentAt, status) {
    if (sentAt < this.measureFrom) {
      this.warmUp++;
      return;
    }
    const now = performance.now();
    this.latencies.push(now - sentAt);
    this.answeredAt.push(now);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  /** Figures from the end of the warm-up. */
  summary() {
    const start = this.measureFrom;
    const timeline = timelineOf(start, this.answeredAt, this.latencies);
    // Each answer as "<epoch ms answered> <latency ms>", for slow-answers.mjs; before the sort below.
    const answers = this.answeredAt.map((at, i) => `${(performance.timeOrigin + at).toFixed(1)} ${this.latencies[i].toFixed(2)}`);
    const sorted = this.latencies.sort((a, b) => a - b);
    return {
      sent: sorted.length,
      warmUp: this.warmUp,
      statuses: Object.fromEntries(this.statuses),
      elapsed: (performance.now() - start) / 1000,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      timeline,
      answers,
    };
  }
}

/** Latency per half second of the run, by answer time: a stall or a slow start shows where it happened. */
function timelineOf(start, answeredAt, latencies) {
  const bins = [];
  answeredAt.forEach((at, i) => {
    const bin = Math.floor((at - start) / 500);
    (bins[bin] ??= []).push(latencies[i]);
  });
  return Array.from(bins, (bin, i) => {
    const sorted = (bin ?? []).sort((a, b) => a - b);
    return { from: i * 0.5, answered: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
  });
}

/** The raw text of a request to `url`'s host. */
export function httpRequest(url, method, path, headers = {}, body = '') {
  const { host } = new URL(url);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
