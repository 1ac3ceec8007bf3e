import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, formatTimeRange, passwordResetEmail, proposalEmail, verificationEmail } from './mailer.ts';

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

describe('password-reset e-mail', () => {
  it('carries the code and a prefilled /forgot-password link, not the code in the subject', () => {
    const m = passwordResetEmail({ to: 'a+b@example.com', name: 'Ada <3', code: '004711', publicBaseUrl: 'https://avail.example', ttlMinutes: 30 });
    expect(m.subject).toBe('Reset your Avail password');
    expect(m.text).toContain('004711');
    expect(m.text).toContain('https://avail.example/forgot-password?email=a%2Bb%40example.com&code=004711');
    expect(m.text).toContain('30 minutes');
    expect(m.html).toContain('Ada &#60;3');
  });
});

describe('proposal e-mail', () => {
  const base = {
    to: 'owner@example.com',
    ownerName: 'Olivia',
    ownerTimezone: 'Europe/Brussels',
    visitor: { name: 'Vera', email: 'vera@example.org', note: '', timezone: 'Asia/Tokyo' },
    publicBaseUrl: 'https://avail.example',
    confirmUrl: 'https://avail.example/proposal?action=confirm&token=abc.def',
    declineUrl: 'https://avail.example/proposal?action=decline&token=abc.ghi',
  };

  it('formats times in a zone, across midnight and ending at midnight', () => {
    expect(formatTimeRange('Europe/Brussels', Date.UTC(2026, 10, 24, 9), Date.UTC(2026, 10, 24, 9, 30))).toBe('Tue 24 Nov, 10:00–10:30');
    expect(formatTimeRange('Europe/Brussels', Date.UTC(2026, 10, 24, 21), Date.UTC(2026, 10, 25, 1))).toBe('Tue 24 Nov, 22:00 – Wed 25 Nov, 02:00');
    expect(formatTimeRange('Europe/Brussels', Date.UTC(2026, 10, 24, 22), Date.UTC(2026, 10, 24, 23))).toBe('Tue 24 Nov, 23:00–24:00');
    // Summer time: Brussels is UTC+2 in July.
    expect(formatTimeRange('Europe/Brussels', Date.UTC(2026, 6, 6, 7), Date.UTC(2026, 6, 6, 8, 15))).toBe('Mon 6 Jul, 09:00–10:15');
  });

  it("gives the owner's time in the subject, the visitor's time when it differs, and Reply-To the visitor", () => {
    const m = proposalEmail({ ...base, start: Date.UTC(2026, 10, 24, 9), end: Date.UTC(2026, 10, 24, 10) });
    expect(m.to).toBe('owner@example.com');
    expect(m.replyTo).toBe('vera@example.org');
    expect(m.subject).toBe('New time proposed: Tue 24 Nov, 10:00–11:00');
    expect(m.text).toContain('Tue 24 Nov, 18:00–19:00 (their time, Asia/Tokyo)');
    expect(m.text).toContain('Nothing is booked until you confirm. Confirm or decline with the links below, or on your dashboard.');
    expect(m.text).not.toContain('Nothing was booked');
    expect(m.text).toContain('https://avail.example/app/dashboard');
    expect(m.personal).toBe(true);
  });

  it('carries the one-click Confirm and Decline links: lines in the text, buttons in the HTML (escaped)', () => {
    const m = proposalEmail({ ...base, start: Date.UTC(2026, 10, 24, 9), end: Date.UTC(2026, 10, 24, 10) });
    expect(m.text).toContain('Confirm: https://avail.example/proposal?action=confirm&token=abc.def');
    expect(m.text).toContain('Decline: https://avail.example/proposal?action=decline&token=abc.ghi');
    expect(m.html).toMatch(/<a href="https:\/\/avail\.example\/proposal\?action=confirm&#38;token=abc\.def" style="[^"]+">Confirm<\/a>/);
    expect(m.html).toMatch(/<a href="https:\/\/avail\.example\/proposal\?action=decline&#38;token=abc\.ghi" style="[^"]+">Decline<\/a>/);
    expect(m.html).toContain('Nothing is booked until you confirm.');
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

  it("without SMTP_URL never logs the recipient, body or Reply-To of a message with a visitor's personal data", async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const mailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'Avail <no-reply@localhost>' }, pino({ level: 'info' }, stream));
    const m = proposalEmail({
      to: 'owner@example.com',
      ownerName: 'Olivia',
      ownerTimezone: 'Europe/Brussels',
      visitor: { name: 'Vera Visitorname', email: 'vera@example.org', note: 'private note', timezone: 'UTC' },
      start: Date.UTC(2026, 10, 24, 9),
      end: Date.UTC(2026, 10, 24, 10),
      publicBaseUrl: 'https://avail.example',
      confirmUrl: 'https://avail.example/c',
      declineUrl: 'https://avail.example/d',
    });
    await mailer.send(m);
    const log = lines.join('');
    expect(log).toContain('New time proposed');
    // Nor the recipient: a personal message may go to the visitor.
    expect(log).not.toContain('owner@example.com');
    for (const secret of ['Vera Visitorname', 'vera@example.org', 'private note']) expect(log).not.toContain(secret);
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

    // Reply-To goes out as one address.
    await mailer.send({ to: 'owner@example.com', subject: 's', text: 't', replyTo: 'vera@example.org' });
    expect(received).toHaveLength(2);
    expect(received[1]).toMatch(/^Reply-To: vera@example\.org\r?$/m);
  });
});
