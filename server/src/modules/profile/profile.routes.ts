import { Router } from 'express';
import type { Deps } from '../../http/deps.ts';

export function profileRouter(_deps: Deps) {
  return Router();
}
