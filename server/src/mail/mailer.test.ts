import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, verificationEmail } from './mailer.ts';

describe('verification e-mail', () => {
  it('names Avail, carries the code and a prefilled verify link', () => {
    const m = verificationEmail({ to: 'a+b@example.com', name: 'Ada', code: '012345', publicBaseUrl: 'https://avail.example', ttlMinutes: 15 });
    expect(m.subject).toContain('Avail');
    expect(m.text).toContain('012345');
    expect(m.text).toContain('https://avail.example/verify-email?email=a%2Bb%40example.com&code=012345');
    expect(m.text).toContain('15 minutes');
    expect(m.html).toContain('012345');
  });
});

describe('createMailer', () => {
  it('without SMTP_URL logs the whole message, code included', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const logger = pino({ level: 'info' }, stream);
    const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'Avail <no-reply@localhost>' }, logger);
    await mailer.send({ to: 'x@example.com', subject: 'Your Avail verification code: 654321', text: 'code 654321' });
    expect(lines.join('')).toContain('654321');
    expect(lines.join('')).toContain('x@example.com');
  });

  let server: SMTPServer | undefined;
  afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('with SMTP_URL delivers through SMTP', async () => {
    const received: string[] = [];
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          received.push(data);
          cb();
        });
      },
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server as unknown as { server: { address(): { port: number } } }).server.address().port;
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Avail <no-reply@avail.test>' }, pino({ level: 'trace' }, stream));
    const message = verificationEmail({ to: 'y@example.com', name: 'Y', code: '111222', publicBaseUrl: 'https://avail.example', ttlMinutes: 15 });
    await mailer.send(message);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('111222');
    expect(received[0]).toContain('no-reply@avail.test');
    // Delivered by SMTP, the code stays out of the log (the subject carries it).
    expect(lines.join('')).toContain('mail sent');
    expect(lines.join('')).not.toContain('111222');
  });
});
