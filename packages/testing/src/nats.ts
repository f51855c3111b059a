import { randomBytes } from 'node:crypto';
import { connect } from 'nats';

export const TEST_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** A subject/stream namespace of its own for one test run. */
export function testPrefix(label: string): string {
  return `t${label}${randomBytes(4).toString('hex')}`.slice(0, 32);
}

/** Deletes the JetStream streams a test run created under its prefix. */
export async function deleteStreams(prefix: string): Promise<void> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.startsWith(`${prefix}_`)) await jsm.streams.delete(stream.config.name);
    }
  } finally {
    await nc.close();
  }
}

/** Every message a stream holds now, in order, with the prefix taken off the subjects. */
export async function readStream(prefix: string, name: string): Promise<{ seq: number; subject: string; data: unknown }[]> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(`${prefix}_${name}`);
    const messages = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(`${prefix}_${name}`, { seq });
      messages.push({ seq, subject: msg.subject.slice(prefix.length + 1), data: msg.json() });
    }
    return messages;
  } finally {
    await nc.close();
  }
}

/** Removes every message a stream holds, as its age limit would once they are old enough. */
export async function purgeStream(prefix: string, name: string): Promise<void> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    await (await nc.jetstreamManager()).streams.purge(`${prefix}_${name}`);
  } finally {
    await nc.close();
  }
}
