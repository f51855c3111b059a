// An open-loop HTTP/1.1 load generator: requests leave on an even schedule of `rate` per second whatever
// the answers do, and each latency is measured from the request's scheduled time, so a slow moment of
// the server shows in the figures instead of slowing the generator down (no coordinated omission).
// autocannon's rate option sends each connection's quota for a second back to back at the start of the
// second, which measures bursts.
import { Connection, Tally } from './raw-http.mjs';

/**
 * Sends `rate` requests per second for `warmUpSeconds` and then `seconds` more over up to `connections`
 * keep-alive connections; `nextRequest()` gives the raw HTTP/1.1 text of each request (raw-http.mjs
 * `httpRequest`), called when the request leaves. `onMeasuring()` is called when the warm-up ends.
 * Resolves with the counts and latency percentiles (ms) of the requests scheduled after the warm-up,
 * once every request is answered.
 */
export function openLoop({ url, rate, seconds, warmUpSeconds = 0, connections, nextRequest, onMeasuring = () => undefined }) {
  const { hostname, port } = new URL(url);
  const total = Math.round(rate * (warmUpSeconds + seconds));
  const idle = [];
  const queue = [];
  let answered = 0;
  let scheduledCount = 0;
  const start = performance.now();
  const measureFrom = start + warmUpSeconds * 1000;
  const tally = new Tally(measureFrom);
  setTimeout(onMeasuring, measureFrom - start);
  return new Promise((resolve) => {
    const finish = () => {
      for (const c of pool) c.socket.destroy();
      resolve(tally.summary());
    };
    const dispatch = (connection) => {
      // A closed connection, or one the server is about to close, is replaced, so that the schedule keeps its connections.
      if (connection.stale()) {
        connection.socket.destroy();
        const fresh = open();
        pool[pool.indexOf(connection)] = fresh;
        connection = fresh;
      }
      const scheduled = queue.shift();
      if (scheduled === undefined) idle.push(connection);
      else connection.send(nextRequest(), scheduled);
    };
    const onAnswer = (connection, scheduled, status) => {
      tally.add(scheduled, status);
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
