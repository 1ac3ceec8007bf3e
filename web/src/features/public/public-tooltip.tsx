/**
 * The public page's tooltip (issue 11, P3: radix Tooltip and its positioning library were 13 KB
 * gzipped of the visitor's JavaScript). Same behaviour the page had: shown on hover and on keyboard
 * focus, hidden on leave, blur, press, Escape and scroll; one at a time; `role="tooltip"` linked to
 * its trigger by `aria-describedby` while shown. Rendered into <body> at a fixed position above the
 * trigger (below it when there is no room), so it never changes the layout it points at. Rendered
 * into the trigger's landmark (its <main>) rather than <body>, so no content sits outside a
 * landmark (axe `region`, issue 23); <body> when the trigger has none.
 */
import { cloneElement, useEffect, useId, useState, type CSSProperties, type ReactElement, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';

type TriggerProps = {
  onPointerEnter?: (e: SyntheticEvent) => void;
  onPointerLeave?: (e: SyntheticEvent) => void;
  onPointerDown?: (e: SyntheticEvent) => void;
  onFocus?: (e: SyntheticEvent) => void;
  onBlur?: (e: SyntheticEvent) => void;
  onKeyDown?: (e: SyntheticEvent) => void;
  'aria-describedby'?: string;
};

/** Closes the tooltip that is open now, if any (one at a time, as radix's provider did). */
let closeCurrent: (() => void) | null = null;

/** True while a pointer is pressed on a trigger. */
let pressing = false;

const GAP = 6;

/** Wraps one element (a button); `content` is the tooltip's text. */
export function Tooltip({ content, children }: { content: string; children: ReactElement<TriggerProps> }) {
  const id = useId();
  const [pos, setPos] = useState<CSSProperties | null>(null);
  const [host, setHost] = useState<Element | null>(null);

  useEffect(() => {
    if (!pos) return;
    const hide = () => setPos(null);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && hide();
    window.addEventListener('scroll', hide, true);
    window.addEventListener('resize', hide);
    document.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('scroll', hide, true);
      window.removeEventListener('resize', hide);
      document.removeEventListener('keydown', onKey);
      if (closeCurrent === hide || closeCurrent === null) closeCurrent = null;
    };
  }, [pos]);

  const show = (e: SyntheticEvent) => {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    setHost((e.currentTarget as HTMLElement).closest('main'));
    const below = r.top < 44;
    if (closeCurrent) closeCurrent();
    closeCurrent = () => setPos(null);
    setPos({
      position: 'fixed',
      left: Math.min(Math.max(r.left + r.width / 2, 70), window.innerWidth - 70),
      top: below ? r.bottom + GAP : r.top - GAP,
      transform: below ? 'translateX(-50%)' : 'translate(-50%, -100%)',
      pointerEvents: 'none',
    });
  };
  const hide = () => setPos(null);
  const chain = (mine: (e: SyntheticEvent) => void, theirs?: (e: SyntheticEvent) => void) => (e: SyntheticEvent) => {
    theirs?.(e);
    mine(e);
  };

  const p = children.props;
  const trigger = cloneElement(children, {
    onPointerEnter: chain(show, p.onPointerEnter),
    onPointerLeave: chain(hide, p.onPointerLeave),
    onPointerDown: chain(() => {
      pressing = true;
      document.addEventListener('pointerup', () => (pressing = false), { once: true });
      hide();
    }, p.onPointerDown),
    // Keyboard (or scripted) focus shows it; the focus that comes with a press does not.
    onFocus: chain((e) => !pressing && show(e), p.onFocus),
    onBlur: chain(hide, p.onBlur),
    'aria-describedby': pos ? id : p['aria-describedby'],
  });
  return (
    <>
      {trigger}
      {pos &&
        createPortal(
          <div id={id} role="tooltip" className="tooltip" style={pos}>
            {content}
          </div>,
          host ?? document.body,
        )}
    </>
  );
}
