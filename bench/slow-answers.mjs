// Which garbage collections were under way when answers were slow: reads the answers that
// `order-load.mjs --answers <prefix>` wrote and the logs of gc-log.cjs, groups the answers slower than
// --over ms into episodes (slow requests sent less than 100 ms apart) and lists, for each, the
// collections of every process that began from 60 ms before its first slow request was sent to its last
// answer (a pause delays the requests already waiting as well as those that come during it).
//   node bench/slow-answers.mjs <answers file> <GC_LOG_DIR> [--over 25]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [answersFile, gcDir] = process.argv.slice(2);
const overAt = process.argv.indexOf('--over');
const OVER = overAt > 0 ? Number(process.argv[overAt + 1]) : 25;
if (!answersFile || !gcDir) {
  console.error('usage: node bench/slow-answers.mjs <answers file> <GC_LOG_DIR> [--over 25]');
  process.exit(2);
}

const lines = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
const answers = lines(answersFile).map((line) => {
  const [answeredAt, latency] = line.split(' ').map(Number);
  return { sentAt: answeredAt - latency, answeredAt, latency };
});
const collections = readdirSync(gcDir)
  .filter((name) => /^gc-.+-\d+\.log$/.test(name))
  .flatMap((name) => {
    const process = name.replace(/^gc-(.+)-\d+\.log$/, '$1');
    return lines(path.join(gcDir, name)).map((line) => {
      const [at, kind, ms] = line.split(' ');
      return { at: Number(at), process, kind, ms: Number(ms) };
    });
  })
  .sort((a, b) => a.at - b.at);

const episodes = [];
for (const answer of answers.filter((a) => a.latency > OVER).sort((a, b) => a.sentAt - b.sentAt)) {
  const last = episodes.at(-1);
  if (last && answer.sentAt - last.lastSent < 100) {
    last.lastSent = answer.sentAt;
    last.end = Math.max(last.end, answer.answeredAt);
    last.count++;
    last.worst = Math.max(last.worst, answer.latency);
  } else episodes.push({ start: answer.sentAt, lastSent: answer.sentAt, end: answer.answeredAt, count: 1, worst: answer.latency });
}

const origin = answers.length > 0 ? Math.min(...answers.map((a) => a.sentAt)) : 0;
let withMajor = 0;
for (const episode of episodes) {
  const during = collections.filter((c) => c.at >= episode.start - 60 && c.at <= episode.end);
  if (during.some((c) => c.kind === 'major')) withMajor++;
  const list = during.map((c) => `${c.process} ${c.kind} ${c.ms} ms at ${(c.at - episode.start).toFixed(0)}`).join('; ');
  console.log(
    `${((episode.start - origin) / 1000).toFixed(2).padStart(7)} s  ${String(episode.count).padStart(5)} answers over ${OVER} ms, ` +
      `worst ${episode.worst.toFixed(1)} ms  ${list || '(no collection)'}`,
  );
}
console.log(`${episodes.length} episodes, ${withMajor} with a full (major) collection in them, ${answers.length} answers in all`);
