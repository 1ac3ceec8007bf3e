/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, a free port, no TLS, no auth) that keeps
 * every message as its raw RFC 5322 text, and a small MIME reader for those messages (multipart
 * trees, base64 and quoted-printable bodies, RFC 2047 encoded words in headers) — enough to assert
 * what a mail client would see without a parser dependency.
 */
import { SMTPServer } from 'smtp-server';

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>` for createMailer's SMTP_URL. */
  url: string;
  /** Raw messages in the order received. */
  messages: string[];
  /** Resolves with the message number `index` (0-based) once it has arrived. */
  waitFor(index: number, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: string[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks).toString('utf8'));
        for (const w of waiters.splice(0)) w();
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server as unknown as { server: { address(): { port: number } } }).server.address().port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(index, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length <= index) {
        if (Date.now() > deadline) throw new Error(`no message #${index} within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
      return messages[index];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** One MIME entity: its headers (lower-case names, unfolded, encoded words decoded), its Content-Type, body and children. */
export interface MimePart {
  headers: Map<string, string>;
  /** `text/calendar` (lower case). */
  mediaType: string;
  /** Content-Type parameters, lower-case names: `{ charset: 'utf-8', method: 'REQUEST' }`. */
  params: Record<string, string>;
  /** The decoded body as UTF-8 text (a multipart's preamble-free raw body). */
  body: string;
  parts: MimePart[];
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) decoded; whitespace between two of them dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : qpBytes(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function qpBytes(s: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i], 'utf8'));
  }
  return Buffer.from(bytes);
}

function parseParams(value: string): { mediaType: string; params: Record<string, string> } {
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const m = /^\s*([^=\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]*))\s*$/.exec(p);
    if (m) params[m[1].toLowerCase()] = m[2] ?? m[3];
  }
  return { mediaType: type.trim().toLowerCase(), params };
}

/** Parses a raw message (or part) into its MIME tree. */
export function parseMime(raw: string): MimePart {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const rawBody = split < 0 ? '' : text.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), decodeWords(line.slice(i + 1).trim()));
  }
  const { mediaType, params } = parseParams(headers.get('content-type') ?? 'text/plain');
  if (mediaType.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const sections = rawBody.split(new RegExp(`^${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*$`, 'm'));
    // [preamble, part, part, …, epilogue]
    const parts = sections.slice(1, -1).map((s) => parseMime(s.replace(/^\n/, '').replace(/\n$/, '')));
    return { headers, mediaType, params, body: rawBody, parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let body: string;
  if (encoding === 'base64') body = Buffer.from(rawBody.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') body = qpBytes(rawBody.replace(/=\n/g, '')).toString('utf8');
  else body = rawBody;
  return { headers, mediaType, params, body, parts: [] };
}

/** Every leaf part of a tree, depth first. */
export function leafParts(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leafParts) : [part];
}
