/**
 * Alerts (spec §4 "Alerts"): auto-close after 5 s, 10 s for error and warning, unless a duration
 * is given (settings passes the Apple durations, 10 s error / 5 s success, which match the
 * defaults). `useAlert` keeps the alerts of one area: `show` replaces them, `add` shows one more
 * next to them (e.g. an error plus an info alert), each closing on its own timer.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ALERT_ERROR_MS, ALERT_MS } from '@avail/shared/constants.ts';

export type AlertKind = 'success' | 'error' | 'warning' | 'info';
export interface AlertState {
  kind: AlertKind;
  message: ReactNode;
  id: number;
}

/** How long an alert of this kind stays when no duration is given (spec §4, §9). */
function alertDurationMs(kind: AlertKind): number {
  return kind === 'error' || kind === 'warning' ? ALERT_ERROR_MS : ALERT_MS;
}

/** One alert: role="alert" for error and warning, role="status" otherwise; an optional close button. */
export function Alert({ kind, children, onClose }: { kind: AlertKind; children: ReactNode; onClose?: () => void }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'}>
      <span className="alert-icon" aria-hidden="true">
        {kind === 'success' ? '✓' : kind === 'info' ? 'i' : '!'}
      </span>
      <div className="alert-body">{children}</div>
      {onClose && (
        <button type="button" className="alert-close" aria-label="Dismiss" onClick={onClose}>
          ✕
        </button>
      )}
    </div>
  );
}

let nextId = 0;

/**
 * For an alert kept in a screen's own state (shown while `value` is truthy): calls `clear` once the
 * alert's time is up (spec §4: 5 s, 10 s for errors and warnings); a new value starts a new timer.
 */
export function useAutoDismiss(value: unknown, kind: AlertKind, clear: () => void): void {
  const clearRef = useRef(clear);
  clearRef.current = clear;
  useEffect(() => {
    if (!value) return;
    const t = setTimeout(() => clearRef.current(), alertDurationMs(kind));
    return () => clearTimeout(t);
  }, [value, kind]);
}

/** The alerts of one screen area; render `node` where they should appear. */
export function useAlert() {
  const [alerts, setAlerts] = useState<AlertState[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setAlerts((list) => list.filter((a) => a.id !== id));
  }, []);

  const clear = useCallback(() => {
    for (const t of timers.current.values()) clearTimeout(t);
    timers.current.clear();
    setAlerts([]);
  }, []);

  /** Shows one more alert next to the current ones. */
  const add = useCallback((kind: AlertKind, message: ReactNode, durationMs?: number) => {
    const id = ++nextId;
    setAlerts((list) => [...list, { kind, message, id }]);
    timers.current.set(id, setTimeout(() => dismiss(id), durationMs ?? alertDurationMs(kind)));
    return id;
  }, [dismiss]);

  /** Replaces the area's alerts with this one. */
  const show = useCallback((kind: AlertKind, message: ReactNode, durationMs?: number) => {
    clear();
    return add(kind, message, durationMs);
  }, [clear, add]);

  useEffect(() => {
    const t = timers.current;
    return () => {
      for (const x of t.values()) clearTimeout(x);
    };
  }, []);

  const node = alerts.length ? (
    <div className="alert-stack">
      {alerts.map((a) => (
        <Alert key={a.id} kind={a.kind} onClose={() => dismiss(a.id)}>
          {a.message}
        </Alert>
      ))}
    </div>
  ) : null;
  return { alert: alerts[alerts.length - 1] ?? null, alerts, show, add, clear, dismiss, node };
}
