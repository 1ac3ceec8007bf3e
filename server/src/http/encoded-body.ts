/**
 * A response body kept with its brotli and gzip codings and entity tags, so an answer served many
 * times (a cached public answer) is compressed at most once per coding: `EncodedBody`, sent by
 * `sendEncodedBody`. And the entity-tag helpers of the server (RFC 9110 §8.8.3 ETag, §13.1.2
 * If-None-Match).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { COMPRESSION_THRESHOLD, markPrecompressed, negotiateEncoding, type ContentCoding } from './compression.middleware.ts';

/** Brotli quality for bodies coded once and served many times (0–11; RFC 7932). */
const BROTLI_QUALITY = 6;
const GZIP_LEVEL = 6;

/** Codings computed so far by every EncodedBody (tests prove a cached body is not coded again). */
export const encodingStats = { compressions: 0 };

/**
 * True when an `If-None-Match` value (RFC 9110 §13.1.2: `*` or a list of entity tags) matches
 * `etag` by weak comparison (§8.8.3.2: `W/` prefixes ignored).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

/** A strong entity tag of bytes: the quoted first 27 base64url characters of their sha256. */
function strongEtag(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/**
 * Makes the next `res.send(string | Buffer)` of this response carry a weak ETag of its body
 * (`W/"…"`: the same for its on-the-fly codings); Express then answers 304 (no body) to a request
 * whose If-None-Match matches it (RFC 9110 §13.1.2). For pages revalidated with `Cache-Control: no-cache`.
 */
export function etagOnSend(res: Response): void {
  const send = res.send.bind(res);
  res.send = ((body?: unknown) => {
    if (typeof body === 'string' || Buffer.isBuffer(body)) res.setHeader('ETag', `W/${strongEtag(body)}`);
    return send(body);
  }) as Response['send'];
}

/** A body with its codings, computed lazily once each. */
export class EncodedBody {
  private readonly coded = new Map<ContentCoding, Buffer>();
  private tag: string | undefined;

  /** `etag`: a strong tag of `body` when the caller has one (else the sha256 of `body`, on first use). */
  constructor(
    readonly body: Buffer,
    etag?: string,
  ) {
    this.coded.set('identity', body);
    this.tag = etag;
  }

  /** The bytes of `coding` (br: brotli quality 6; gzip: level 6), computed on first use. */
  bytes(coding: ContentCoding): Buffer {
    let b = this.coded.get(coding);
    if (!b) {
      encodingStats.compressions++;
      b =
        coding === 'br'
          ? brotliCompressSync(this.body, {
              params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length },
            })
          : gzipSync(this.body, { level: GZIP_LEVEL });
      this.coded.set(coding, b);
    }
    return b;
  }

  /** The strong ETag of the representation in `coding` (`"tag"`, `"tag-br"`, `"tag-gz"`: RFC 9110 §8.8.3, one tag per coding). */
  etag(coding: ContentCoding): string {
    this.tag ??= strongEtag(this.body);
    return coding === 'identity' ? this.tag : `${this.tag.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`;
  }
}

/**
 * Sends `body` with `contentType` in the coding the request accepts (br, then gzip; identity for
 * bodies under 1 KB or when neither is accepted): Content-Encoding, Content-Length,
 * `Vary: Accept-Encoding` and the coding's ETag; 304 without a body when If-None-Match matches it.
 * HEAD gets the headers only. Other headers (Cache-Control…) are the caller's.
 */
export function sendEncodedBody(req: Request, res: Response, body: EncodedBody, contentType: string): void {
  const coding = body.body.length < COMPRESSION_THRESHOLD ? 'identity' : negotiateEncoding(req.get('accept-encoding'));
  markPrecompressed(res);
  res.vary('Accept-Encoding');
  const etag = body.etag(coding);
  res.setHeader('ETag', etag);
  if ((req.method === 'GET' || req.method === 'HEAD') && etagMatches(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  const bytes = body.bytes(coding);
  res.setHeader('Content-Type', contentType);
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', bytes.length);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
