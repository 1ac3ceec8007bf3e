/**
 * The landing page's top bar (spec §2 "Landing page (/)"): smooth-scroll anchors to its sections,
 * compact after HEADER_COMPACT_SCROLL_PX (50 px) of scrolling, and below 860 px a full-screen menu.
 */
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Dialog } from 'radix-ui';
import { HEADER_COMPACT_SCROLL_PX } from '@avail/shared/constants.ts';
import { Logo } from '../../components/ui/logo.tsx';
import { HeaderAuthLinks } from './marketing-layout.tsx';

const ANCHORS = [
  ['features', 'Features'],
  ['how-it-works', 'How it works'],
  ['use-cases', 'Use cases'],
  ['pricing', 'Pricing'],
  ['faq', 'FAQ'],
] as const;

type SectionId = (typeof ANCHORS)[number][0];

/** Scrolls to a section (smoothly unless the visitor prefers reduced motion) and moves focus there. */
export function scrollToSection(id: string, smooth = true) {
  const el = document.getElementById(id);
  if (!el) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ behavior: smooth && !reduce ? 'smooth' : 'instant', block: 'start' });
  el.focus({ preventScroll: true });
}

/** An in-page link to `#id`: updates the URL hash and scrolls smoothly to the section. */
export function SectionLink({ id, className, children, onNavigate }: { id: string; className?: string; children: ReactNode; onNavigate?: (id: string) => boolean }) {
  const navigate = useNavigate();
  function onClick(e: MouseEvent<HTMLAnchorElement>) {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    navigate({ hash: id }, { preventScrollReset: true });
    // A caller (the mobile menu) may take over the scrolling until it has closed.
    if (onNavigate?.(id)) return;
    scrollToSection(id);
  }
  return (
    <a href={`#${id}`} className={className} onClick={onClick}>
      {children}
    </a>
  );
}

/** The full-screen menu of the top bar below 860 px (radix Dialog: focus trap, Escape, focus return). */
function MobileMenu() {
  const [open, setOpen] = useState(false);
  const pending = useRef<string | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="icon-button mk-menu-button" aria-label="Open menu">
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Content
          className="mk-mobile-menu"
          onCloseAutoFocus={(e) => {
            const id = pending.current;
            pending.current = null;
            if (!id) return;
            e.preventDefault();
            scrollToSection(id);
          }}
        >
          <div className="mk-mobile-menu-top">
            <Dialog.Title className="mk-mobile-menu-title">Menu</Dialog.Title>
            <Dialog.Description className="sr-only">Jump to a section of the page, sign in or get started.</Dialog.Description>
            <Dialog.Close className="icon-button mk-menu-close" aria-label="Close menu">
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </Dialog.Close>
          </div>
          <nav aria-label="Sections" className="mk-mobile-nav">
            {ANCHORS.map(([id, label]) => (
              <SectionLink
                key={id}
                id={id}
                onNavigate={(target) => {
                  pending.current = target;
                  setOpen(false);
                  return true;
                }}
              >
                {label}
              </SectionLink>
            ))}
          </nav>
          <div className="mk-mobile-cta">
            <Link to="/login" className="btn btn-secondary btn-lg btn-block">
              Login
            </Link>
            <Link to="/register" className="btn btn-primary btn-lg btn-block">
              Get started
            </Link>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The top bar: the logo, the section anchors, Login / Get started and the mobile menu. */
export function LandingHeader() {
  const [compact, setCompact] = useState(false);

  useEffect(() => {
    const onScroll = () => setCompact(window.scrollY > HEADER_COMPACT_SCROLL_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <header className={`mk-header${compact ? ' compact' : ''}`} data-compact={compact}>
      <div className="mk-container mk-header-inner">
        <Logo external />
        <nav className="mk-nav" aria-label="Sections">
          {ANCHORS.map(([id, label]) => (
            <SectionLink key={id} id={id satisfies SectionId}>
              {label}
            </SectionLink>
          ))}
        </nav>
        <div className="mk-header-cta">
          <HeaderAuthLinks />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
