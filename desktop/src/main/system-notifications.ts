/**
 * System notifications of the main process (main.ts: Electron's `Notification`,
 * https://www.electronjs.org/docs/latest/api/notification): each one is kept referenced until
 * clicked or closed, else it may be garbage-collected and its click lost.
 */
import type { DesktopNotification } from '@avail/shared/desktop/desktop-bridge.ts';

/** One notification, as Electron's `Notification` instance offers it. */
interface NotificationLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

/** Electron's `Notification` class (its constructor and `isSupported`). */
export interface NotificationClass {
  new (options: { title: string; body: string; silent: boolean }): NotificationLike;
  isSupported(): boolean;
}

/** Shows `n` (title and body; not silent) and runs `onClick` when it is clicked; nothing where notifications are unsupported. */
export type ShowNotification = (n: Pick<DesktopNotification, 'title' | 'body'>, onClick: () => void) => void;

/** A notifier over `Notification`; `live` (for tests) holds the notifications not yet clicked or closed. */
export function createNotifier(Notification: NotificationClass, live: Set<unknown> = new Set()): ShowNotification {
  return (n, onClick) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: n.title, body: n.body, silent: false });
    live.add(notification);
    notification.on('click', () => {
      live.delete(notification);
      onClick();
    });
    notification.on('close', () => live.delete(notification));
    notification.show();
  };
}
