import { Router } from 'express';
import type { Deps } from '../../http/deps.ts';

export function availabilityRouter(_deps: Deps) {
  return Router();
}
