import type { Socket } from 'node:net';

/** Everything a raw socket receives until its peer closes it: what a test sees of an HTTP answer byte for byte. */
export function socketText(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
