import { Router } from 'express';
import type { Deps } from '../../http/deps.ts';
import type { RateLimits } from '../../http/rate-limit.ts';

export function authRouter(_deps: Deps, _limits: RateLimits) {
  return Router();
}
