/**
 * Zod set-up shared by every schema module (imported for its effect).
 *
 * In a browser, zod runs interpreted (`jitless`): its faster path compiles validators with
 * `new Function`, and even the probe for that is reported as a violation under the server's
 * Content-Security-Policy (script-src 'self', no 'unsafe-eval'; server/src/http/security-headers.ts).
 * Browser validation is form-sized, so the interpreted path costs nothing a user notices. The
 * server (no CSP on its own code) keeps the compiled path.
 */
import { config } from 'zod';

if ('window' in globalThis) config({ jitless: true });
