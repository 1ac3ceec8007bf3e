import { Router } from 'express';
import type { Deps } from '../../http/deps.ts';

export function dashboardRouter(_deps: Deps) {
  return Router();
}
