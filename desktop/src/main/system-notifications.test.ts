import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createNotifier, type NotificationClass } from './system-notifications.ts';

function fakeNotification(supported = true) {
  const shown: Array<FakeNotification> = [];
  class FakeNotification extends EventEmitter {
    constructor(public options: { title: string; body: string; silent: boolean }) {
      super();
    }
    show() {
      shown.push(this);
    }
    static isSupported = () => supported;
  }
  return { Notification: FakeNotification as unknown as NotificationClass, shown };
}

describe('createNotifier', () => {
  it('shows title and body (not silent); a click runs onClick; kept referenced until clicked or closed', () => {
    const { Notification, shown } = fakeNotification();
    const live = new Set<unknown>();
    const show = createNotifier(Notification, live);
    const onClick = vi.fn();
    show({ title: 'Busy block added', body: '10:00–11:00' }, onClick);
    show({ title: 'Second', body: '' }, () => undefined);
    expect(shown.map((n) => n.options)).toEqual([
      { title: 'Busy block added', body: '10:00–11:00', silent: false },
      { title: 'Second', body: '', silent: false },
    ]);
    expect(live.size).toBe(2);
    shown[0]!.emit('click');
    expect(onClick).toHaveBeenCalledOnce();
    shown[1]!.emit('close');
    expect(live.size).toBe(0);
  });

  it('nothing where notifications are unsupported', () => {
    const { Notification, shown } = fakeNotification(false);
    createNotifier(Notification)({ title: 'x', body: 'y' }, () => undefined);
    expect(shown).toHaveLength(0);
  });
});
