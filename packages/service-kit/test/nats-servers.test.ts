import { baseEnvSchema, parseEnv } from '../src/config';
import { natsServerOptions } from '../src/nats/nats-servers';

describe('natsServerOptions (NATS_URL)', () => {
  it('passes a URL without credentials on as the one server', () => {
    expect(natsServerOptions('nats://127.0.0.1:4222')).toEqual({ servers: ['nats://127.0.0.1:4222'] });
    expect(natsServerOptions('nats.internal')).toEqual({ servers: ['nats://nats.internal'] });
  });

  it('takes a user and a password out of the address, percent-decoded', () => {
    expect(natsServerOptions('nats://order%2Dmatching:p%40ss%3Aw%2Frd@nats.internal:4222')).toEqual({
      servers: ['nats://nats.internal:4222'],
      user: 'order-matching',
      pass: 'p@ss:w/rd',
    });
  });

  it('reads a user part without a password as a token', () => {
    expect(natsServerOptions('nats://s3cr3t-token@nats.internal:4443')).toEqual({ servers: ['nats://nats.internal:4443'], token: 's3cr3t-token' });
  });

  it('requires TLS when a server is tls:// (nats.js then refuses a server that offers none)', () => {
    expect(natsServerOptions('tls://svc:pw@nats.internal:4443')).toEqual({ servers: ['tls://nats.internal:4443'], user: 'svc', pass: 'pw', tls: {} });
    expect(natsServerOptions('nats://a:4222,tls://b:4443')).toMatchObject({ tls: {} });
    expect(natsServerOptions('nats://a:4222')).not.toHaveProperty('tls');
  });

  it('takes a comma list, the credentials given on any of its servers holding for all', () => {
    expect(natsServerOptions('nats://svc:pw@a:4222, nats://b:4222 ,c:4223')).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222', 'nats://c:4223'],
      user: 'svc',
      pass: 'pw',
    });
    expect(natsServerOptions('nats://svc:pw@a,nats://svc:pw@b')).toMatchObject({ user: 'svc', pass: 'pw' });
  });

  it.each([
    ['nats://svc:one@a,nats://svc:two@b', /different credentials/],
    ['http://nats.internal:4222', /must be nats:\/\/ or tls:\/\/, not http:/],
    ['nats://nats.internal:4222/prefix', /no path or query/],
    ['nats://nats.internal:4222?tls=true', /no path or query/],
    ['nats://a:4222,', /no empty entry/],
    ['nats://:secret@nats.internal', /password but no user/],
    ['nats://svc:@nats.internal', /empty password/],
    ['nats://svc:a,b@nats.internal', /server 1 is not a URL/],
    ['nats://nats.internal:99999', /server 1 is not a URL/],
    ['nats://svc:%E0%A4%A@nats.internal', /not valid percent-encoding/],
  ])('refuses %s', (url, message) => {
    expect(() => natsServerOptions(url)).toThrow(message);
  });

  it('never repeats the credentials in its refusals', () => {
    for (const url of ['nats://svc:hunter2@a,nats://svc:other@b', 'nats://svc:hunter2@a/x', 'http://svc:hunter2@a']) {
      expect(() => natsServerOptions(url)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    }
  });

  it('stops the service at boot on an unusable NATS_URL, with the reason', () => {
    expect(() => parseEnv(baseEnvSchema, { NATS_URL: 'http://svc:hunter2@nats.internal' })).toThrow(/NATS_URL: NATS_URL's server 1 must be nats:\/\//);
    expect(() => parseEnv(baseEnvSchema, { NATS_URL: 'http://svc:hunter2@nats.internal' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
    expect(parseEnv(baseEnvSchema, { NATS_URL: 'nats://svc:pw@nats.internal' }).NATS_URL).toBe('nats://svc:pw@nats.internal');
  });
});
