/**
 * The P2 baseline: a bare Express 5 app in its own process. GET /api/public/:slug/availability
 * answers `res.json(body)` with the body read from `BARE_BODIES` (a JSON file `{ slug: body }`),
 * nothing else (default Express settings). Listens on an ephemeral port of 127.0.0.1 and prints
 * `PORT <n>` on stdout once listening.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';

const bodies = JSON.parse(readFileSync(process.env.BARE_BODIES!, 'utf8')) as Record<string, unknown>;
const app = express();
app.get('/api/public/:slug/availability', (req, res) => {
  const body = bodies[String(req.params.slug)];
  if (body === undefined) return void res.status(404).json({ error: 'not found' });
  res.json(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
