/**
 * One date's column of the owner's week grid (spec §9 grid): hour lines (off-hours shaded),
 * availability blocks (date overrides marked), the owner's timed events (with titles: owner-only),
 * manual busy blocks (removable) and the current-time line.
 */
import type { KeyboardEvent } from 'react';
import { BUSINESS_HOURS, CALENDAR_PX_PER_HOUR } from '@avail/shared/constants.ts';
import { hhmmToMinutes } from '../../lib/time.ts';
import type { OwnerFormats } from '../../data/use-owner-formats.ts';
import type { BlockView } from '../../data/local-data.tsx';
import type { BlockedSource } from './why-blocked-dialog.tsx';
import type { WeekLayout } from './week-layout.ts';

/** Props that make a block open "Why is this time blocked?" on click, Enter or Space (issue 14 item 6). */
export function openableProps(source: BlockedSource & { kind: 'event' }, open: (s: BlockedSource) => void) {
  return {
    role: 'button' as const,
    tabIndex: 0,
    'aria-label': `Why is this time blocked: ${source.title || 'Busy'}`,
    onClick: () => open(source),
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open(source);
      }
    },
  };
}

/**
 * The column of `date` (index `col`): `layout` from weekLayout, `nowMin` the current minute of the
 * day when `date` is today (else null), `onWhy` opens a block's source, `onRemove` removes a busy block.
 */
export function WeekDayColumn({ date, col, layout, timezone, fmt, nowMin, onWhy, onRemove }: {
  date: string;
  col: number;
  layout: WeekLayout;
  timezone: string;
  fmt: OwnerFormats;
  nowMin: number | null;
  onWhy: (s: BlockedSource) => void;
  onRemove: (b: BlockView) => void;
}) {
  const { range } = layout;
  const hours = Array.from({ length: range.end - range.start }, (_, i) => range.start + i);
  const height = (range.end - range.start) * CALENDAR_PX_PER_HOUR;
  const top = (min: number) => ((min - range.start * 60) / 60) * CALENDAR_PX_PER_HOUR;
  const d = date;
  return (
    <div className="cal-col" style={{ height }} data-date={d}>
      {hours.map((h) => (
        <div
          key={h}
          className={`cal-hour${h >= BUSINESS_HOURS.start && h < BUSINESS_HOURS.end ? '' : ' off-hours'}`}
          style={{ top: (h - range.start) * CALENDAR_PX_PER_HOUR, height: CALENDAR_PX_PER_HOUR }}
        />
      ))}
      {layout.blocks[col].map((b, i) => {
        const s = hhmmToMinutes(b.start);
        const e = hhmmToMinutes(b.end);
        return (
          <div
            key={`r${i}`}
            className={`cal-available${b.override ? ' override' : ''}`}
            style={{ top: top(s), height: ((e - s) / 60) * CALENDAR_PX_PER_HOUR }}
            title={b.override ? 'Date override' : undefined}
          >
            <span>
              {fmt.plainTimeSpan(b.start, b.end)}
              {b.override && ' (override)'}
            </span>
          </div>
        );
      })}
      {layout.timed
        .filter((t) => t.date === d)
        .map((t) => (
          <div
            key={`${t.ev.id}-${t.date}`}
            className="cal-event"
            style={{ top: top(t.startMin), height: Math.max(18, ((t.endMin - t.startMin) / 60) * CALENDAR_PX_PER_HOUR) }}
            title={`${t.ev.title} (${fmt.timeSpan(Date.parse(t.ev.start), Date.parse(t.ev.end), timezone)})`}
            {...openableProps({ kind: 'event', id: t.ev.id, title: t.ev.title }, onWhy)}
          >
            <strong>{t.ev.title || 'Busy'}</strong>
            <span>
              {fmt.timeSpan(Date.parse(t.ev.start), Date.parse(t.ev.end), timezone)}
            </span>
          </div>
        ))}
      {layout.busy
        .filter((t) => t.date === d)
        .map((t) => {
          const label = fmt.timeSpan(t.block.start_ms, t.block.end_ms, timezone);
          return (
            <div
              key={`b-${t.block.id}-${t.date}`}
              className={`cal-block${t.block.pending ? ' pending' : ''}`}
              style={{ top: top(t.startMin), height: Math.max(22, ((t.endMin - t.startMin) / 60) * CALENDAR_PX_PER_HOUR) }}
              data-testid="busy-block"
            >
              <button type="button" className="cal-block-why" onClick={() => onWhy({ kind: 'manual', startMs: t.block.start_ms, endMs: t.block.end_ms, note: t.block.note ?? null })}>
                Busy block
              </button>
              <span>
                {label}
                {t.block.pending && ' · pending sync'}
              </span>
              {t.block.note && <span className="cal-block-note">{t.block.note}</span>}
              <button type="button" className="cal-block-remove" aria-label={`Remove busy block ${label}`} onClick={() => onRemove(t.block)}>
                ×
              </button>
            </div>
          );
        })}
      {nowMin !== null && nowMin >= range.start * 60 && nowMin <= range.end * 60 && <div className="now-line" style={{ top: top(nowMin) }} aria-hidden="true" />}
    </div>
  );
}
