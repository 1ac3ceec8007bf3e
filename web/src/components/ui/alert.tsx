/**
 * Alerts (spec §4 "Alerts"): auto-close after 5 s, 10 s for error and warning, unless a duration
 * is given. `useAlert` keeps one alert per area.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ALERT_ERROR_MS, ALERT_MS } from '@avail/shared/constants.ts';

export type AlertKind = 'success' | 'error' | 'warning' | 'info';
export interface AlertState {
  kind: AlertKind;
  message: ReactNode;
  id: number;
}

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

export function useAlert() {
  const [alert, setAlert] = useState<AlertState | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback((kind: AlertKind, message: ReactNode, durationMs?: number) => {
    clearTimeout(timer.current);
    const id = Date.now() + Math.random();
    setAlert({ kind, message, id });
    const ms = durationMs ?? (kind === 'error' || kind === 'warning' ? ALERT_ERROR_MS : ALERT_MS);
    timer.current = setTimeout(() => setAlert((a) => (a?.id === id ? null : a)), ms);
  }, []);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setAlert(null);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  const node = alert ? (
    <Alert kind={alert.kind} onClose={clear}>
      {alert.message}
    </Alert>
  ) : null;
  return { alert, show, clear, node };
}
