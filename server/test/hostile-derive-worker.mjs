// A derive worker that misbehaves on request (derive-pool tests): ownerZone 'spin' loops forever,
// 'eat' allocates until the worker's heap limit ends it; anything else answers an empty result.
export default function hostile(task) {
  if (task.opts.ownerZone === 'spin') for (;;);
  if (task.opts.ownerZone === 'eat') {
    const hoard = [];
    for (;;) hoard.push(new Array(100_000).fill(Math.random()));
  }
  return { ok: true, derived: { events: [], intervals: [], warnings: [] } };
}
