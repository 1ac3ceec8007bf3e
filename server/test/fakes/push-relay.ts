/**
 * The TLS-terminating proxy of the test setups. Google (and Graph) only deliver push notifications
 * to `https://` addresses, while the tests' servers listen on plain `http://127.0.0.1:<port>`. In
 * production a reverse proxy sits in between; here the fakes play that part: an address on the
 * reserved name `https://push-relay-<port>.test` (RFC 2606: never resolvable, so nothing can reach
 * it by accident) is delivered to `http://127.0.0.1:<port>` with the same path and query.
 * Stateless (the port is in the name), so it works across processes (Playwright's runner and the
 * server it starts).
 */

const RELAY = /^https:\/\/push-relay-(\d{1,5})\.test(?=[/?#]|$)/;

/**
 * The public-looking https origin for a local http origin: `http://127.0.0.1:4321` →
 * `https://push-relay-4321.test`. Use it as WEBHOOK_BASE_URL. Throws for anything but loopback http.
 */
export function httpsRelayFor(localOrigin: string): string {
  const u = new URL(localOrigin);
  if (u.protocol !== 'http:' || (u.hostname !== '127.0.0.1' && u.hostname !== 'localhost') || !u.port) {
    throw new Error(`push relay: only http://127.0.0.1:<port> can be relayed, not ${localOrigin}`);
  }
  return `https://push-relay-${u.port}.test`;
}

/** Where a fake really sends a delivery for `address`: relayed https addresses go to loopback http; others unchanged. */
export function deliveryUrl(address: string | URL): string {
  const text = String(address);
  return text.replace(RELAY, (_m, port: string) => `http://127.0.0.1:${port}`);
}
