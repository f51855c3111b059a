/** Every subject and stream lives under the deployment's prefix (NATS_PREFIX). */
export function prefixed(prefix: string, subject: string): string {
  return `${prefix}.${subject}`;
}

/** JetStream stream names cannot contain dots; the prefix keeps test runs apart. */
export function streamName(prefix: string, name: string): string {
  return `${prefix}_${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
}
