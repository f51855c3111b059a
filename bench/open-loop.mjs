// An open-loop HTTP/1.1 load generator: requests leave on an even schedule of `rate` per second whatever
// the answers do, and each latency is measured from the request's scheduled time, so a slow moment of
// the server shows in the figures instead of slowing the generator down (no coordinated omission).
// autocannon's rate option sends each connection's quota for a second back to back at the start of the
// second, which measures bursts; undici spends several times the CPU per request on these shared cores.
// Plain sockets with keep-alive, a request written as one prepared string, and a parser that reads the
// status line and Content-Length only (the exchange's answers always carry one).
import net from 'node:net';

const HEADER_END = '\r\n\r\n';

/** One keep-alive connection, one request at a time. */
class Connection {
  constructor(host, port, onAnswer) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.setEncoding('latin1');
    this.buffer = '';
    this.pending = undefined;
    this.socket.on('data', (chunk) => {
      this.buffer += chunk;
      this.parse(onAnswer);
    });
    // An error is followed by 'close'; a request in flight then counts as failed (status 0).
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.broken = true;
      const scheduled = this.pending;
      this.pending = undefined;
      if (scheduled !== undefined) onAnswer(this, scheduled, 0);
    });
  }

  send(request, scheduled) {
    this.pending = scheduled;
    this.socket.write(request);
  }

  parse(onAnswer) {
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.buffer.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < end + 4 + length) return;
    const status = Number(head.slice(9, 12));
    this.buffer = this.buffer.slice(end + 4 + length);
    const scheduled = this.pending;
    this.pending = undefined;
    onAnswer(this, scheduled, status);
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * Sends `rate` requests per second for `seconds` over up to `connections` keep-alive connections;
 * `nextRequest()` gives the raw HTTP/1.1 text of each request (with `Connection: keep-alive`).
 * Resolves with the counts and latency percentiles (ms) once every request is answered.
 */
export function openLoop({ url, rate, seconds, connections, nextRequest }) {
  const { hostname, port } = new URL(url);
  const total = Math.round(rate * seconds);
  const latencies = [];
  const statuses = new Map();
  const idle = [];
  const queue = [];
  let answered = 0;
  let scheduledCount = 0;
  const start = performance.now();
  return new Promise((resolve) => {
    const finish = () => {
      for (const c of pool) c.socket.destroy();
      latencies.sort((a, b) => a - b);
      resolve({
        sent: total,
        statuses: Object.fromEntries(statuses),
        elapsed: (performance.now() - start) / 1000,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? NaN,
      });
    };
    const dispatch = (connection) => {
      // A closed connection is replaced, so that the schedule keeps its connections.
      if (connection.broken) {
        const fresh = open();
        pool[pool.indexOf(connection)] = fresh;
        connection = fresh;
      }
      const scheduled = queue.shift();
      if (scheduled === undefined) idle.push(connection);
      else connection.send(nextRequest(), scheduled);
    };
    const onAnswer = (connection, scheduled, status) => {
      latencies.push(performance.now() - scheduled);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (++answered === total) return finish();
      dispatch(connection);
    };
    const open = () => new Connection(hostname, Number(port), onAnswer);
    const pool = Array.from({ length: connections }, open);
    idle.push(...pool);
    // Every millisecond, the requests whose time has come; each keeps its own scheduled time.
    const timer = setInterval(() => {
      const now = performance.now();
      while (scheduledCount < total && start + (scheduledCount * 1000) / rate <= now) {
        queue.push(start + (scheduledCount * 1000) / rate);
        scheduledCount++;
      }
      if (scheduledCount === total) clearInterval(timer);
      while (queue.length > 0 && idle.length > 0) dispatch(idle.pop());
    }, 1);
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
