/** /api/me/blocks — the owner's manual busy blocks (issue 10). Instants are UTC epoch ms. */
import { Router } from 'express';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import * as blocks from './blocks.service.ts';

/** Router for /api/me/blocks (mount under /api). Every route: 401 without a token, 403 before e-mail verification. */
export function blocksRouter(deps: Deps) {
  const r = Router();
  const guard = [authenticate(deps), requireVerified];

  /**
   * GET /api/me/blocks?from=&to= — 200 `{ blocks: [{ id, start_ms, end_ms, note: string | null }] }`:
   * the caller's live blocks overlapping [from, to), sorted by start. `from`, `to`: UTC epoch ms,
   * each optional (no bound on that side). 400 `invalid_range` for a malformed bound or to ≤ from.
   */
  r.get('/me/blocks', ...guard, async (req, res) => {
    const range = blocks.parseBlocksRange({ from: req.query.from, to: req.query.to });
    res.json({ blocks: await blocks.listBlocks(deps, currentUser(req).id, range) });
  });

  /**
   * POST /api/me/blocks — body `{ start_ms, end_ms, note? }` (UTC epoch ms integers; note ≤ 200
   * characters, blank = none) → 201 `{ block: { id, start_ms, end_ms, note } }`.
   * 422 `{ error, code: 'validation_failed', errors: { field: message } }`, nothing stored:
   * 'The end must be after the start.' (end ≤ start), 'A busy block can last at most 14 days.',
   * 'This time is already over.' (end ≤ now), 'The note can be at most 200 characters.'.
   */
  r.post('/me/blocks', ...guard, async (req, res) => {
    res.status(201).json({ block: await blocks.addBlock(deps, currentUser(req).id, req.body) });
  });

  /** DELETE /api/me/blocks/:id — 204 (soft delete; the time is free again); 404 if not one of the caller's live blocks. */
  r.delete('/me/blocks/:id', ...guard, async (req, res) => {
    await blocks.deleteBlock(deps, currentUser(req).id, String(req.params.id));
    res.status(204).end();
  });

  return r;
}
