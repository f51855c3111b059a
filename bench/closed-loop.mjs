// A closed-loop HTTP/1.1 load generator: `connections` requests always in flight for `seconds`, each
// connection sending its next request as soon as the last is answered. It measures saturation
// throughput; its latencies are those of a full queue, not of a given rate (open-loop.mjs).
import { Connection, Tally } from './raw-http.mjs';

/**
 * Runs for `warmUpSeconds` and then `seconds` more; `onMeasuring()` is called when the warm-up ends.
 * Resolves with the counts and latency percentiles (ms) of the requests sent after the warm-up, once the
 * time is up and every request is answered.
 */
export function closedLoop({ url, seconds, warmUpSeconds = 0, connections, nextRequest, onMeasuring = () => undefined }) {
  const { hostname, port } = new URL(url);
  const start = performance.now();
  const measureFrom = start + warmUpSeconds * 1000;
  const end = measureFrom + seconds * 1000;
  const tally = new Tally(measureFrom);
  setTimeout(onMeasuring, measureFrom - start);
  let open = connections;
  return new Promise((resolve) => {
    const next = (connection) => {
      if (performance.now() < end && !connection.broken) return connection.send(nextRequest(), performance.now());
      connection.socket.destroy();
      if (--open === 0) resolve(tally.summary());
    };
    const onAnswer = (connection, sentAt, status) => {
      tally.add(sentAt, status);
      next(connection);
    };
    for (let i = 0; i < connections; i++) {
      const connection = new Connection(hostname, Number(port), onAnswer);
      // A connection that never connects ends at its 'close' (it is broken by then).
      let connected = false;
      connection.socket.once('connect', () => {
        connected = true;
        next(connection);
      });
      connection.socket.once('close', () => connected || next(connection));
    }
  });
}
