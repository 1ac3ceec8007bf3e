/** Landing page `/` (spec §2 Landing page) — a first, modest version. */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Accordion } from 'radix-ui';
import { HEADER_COMPACT_SCROLL_PX } from '@avail/shared/constants.ts';
import { Logo } from '../../components/ui/logo.tsx';
import { CardGrid, HeaderAuthLinks, MarketingFooter } from './marketing-layout.tsx';

const ANCHORS = [
  ['#features', 'Features'],
  ['#how-it-works', 'How it works'],
  ['#use-cases', 'Use cases'],
  ['#pricing', 'Pricing'],
  ['#faq', 'FAQ'],
] as const;

const FEATURES = [
  ['Read-only calendar connection', 'Connect Google Calendar, Microsoft Outlook, Apple iCloud, any CalDAV server or an ICS feed. Avail never writes to your calendars.'],
  ['Busy events split your free time', 'A meeting at noon splits your 9-to-5 into two free windows automatically.'],
  ['Live sync', 'Real-time updates plus a backup sync every 15 minutes keep your link accurate.'],
  ['Visitor time-zone detection', 'Visitors see your free times in their own time zone — and can change it.'],
  ['Only free windows', 'Event titles, guests and details never leave your account.'],
  ['Smart day view', 'A 07:00–20:00 view by default that expands when your availability needs it.'],
] as const;
const USE_CASES = [
  ['Freelancers and consultants', 'Stop the back-and-forth with clients: send one link.'],
  ['Agencies and studios', 'Share when the team lead is free for kick-offs and reviews.'],
  ['Sales and partnerships people', 'Let prospects propose a time that works while the deal is hot.'],
  ['Support and success teams', 'Offer customers clear windows for onboarding calls.'],
] as const;
const FAQ = [
  ['Which calendars can I connect?', 'Google Calendar, Microsoft Outlook, Apple iCloud, any CalDAV server, and calendars published as an ICS feed.'],
  ['Can visitors see my event titles?', 'No. Your public link shows only free windows — never titles, guests or details.'],
  ['Can visitors book directly?', 'No. Visitors propose a time that works for them and you confirm it. Nothing lands in your calendar without you.'],
  ['What time zone do visitors see?', 'Their own: Avail detects it from the browser and lets them change it.'],
  ['Does Avail change my calendar?', 'Never. Connections are read-only.'],
  ['How much does it cost?', 'The Individual plan is free during the beta.'],
];

export default function LandingPage() {
  const [compact, setCompact] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    const onScroll = () => setCompact(window.scrollY > HEADER_COMPACT_SCROLL_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <div className="mk-page landing">
      <header className={`mk-header${compact ? ' compact' : ''}`}>
        <div className="mk-container mk-header-inner">
          <Logo external />
          <nav className="mk-nav" aria-label="Sections">
            {ANCHORS.map(([href, label]) => (
              <a key={href} href={href}>
                {label}
              </a>
            ))}
          </nav>
          <div className="mk-header-cta">
            <HeaderAuthLinks />
            <button type="button" className="icon-button mk-menu-button" aria-label="Open menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(true)}>
              ☰
            </button>
          </div>
        </div>
      </header>
      {menuOpen && (
        <div className="mk-mobile-menu" role="dialog" aria-modal="true" aria-label="Menu">
          <button type="button" className="icon-button mk-menu-close" aria-label="Close menu" onClick={() => setMenuOpen(false)}>
            ✕
          </button>
          {ANCHORS.map(([href, label]) => (
            <a key={href} href={href} onClick={() => setMenuOpen(false)}>
              {label}
            </a>
          ))}
          <Link to="/login" className="btn btn-secondary">
            Login
          </Link>
          <Link to="/register" className="btn btn-primary">
            Get started
          </Link>
        </div>
      )}

      <main>
        <section className="mk-hero">
          <div className="mk-container">
            <span className="mk-badge">Now in Beta</span>
            <h1>
              Share when you&apos;re free.
              <br />
              <span className="accent">Never what you&apos;re doing.</span>
            </h1>
            <p className="mk-lead">
              Avail turns your real calendars — Google, Outlook, Apple iCloud or any CalDAV server — into one public link that shows
              only your free windows. Visitors propose a time that works for them; you confirm.
            </p>
            <div className="mk-hero-cta">
              <Link to="/register" className="btn btn-primary btn-lg">
                Get started free
              </Link>
              <a href="#how-it-works" className="btn btn-secondary btn-lg">
                See how it works
              </a>
            </div>
          </div>
        </section>

        <section id="features" className="mk-section">
          <div className="mk-container">
            <h2>Everything you need to share your time</h2>
            <CardGrid items={FEATURES} columns="three" />
          </div>
        </section>

        <section id="how-it-works" className="mk-section alt">
          <div className="mk-container">
            <h2>How it works</h2>
            <ol className="mk-steps">
              <li>
                <strong>Connect your calendars</strong>
                <span className="muted">Read-only access to the calendars you already use.</span>
              </li>
              <li>
                <strong>Set your weekly hours</strong>
                <span className="muted">Busy events are cut out automatically.</span>
              </li>
              <li>
                <strong>Share your link</strong>
                <span className="muted">Visitors see free windows in their own time zone.</span>
              </li>
            </ol>
          </div>
        </section>

        <section id="use-cases" className="mk-section">
          <div className="mk-container">
            <h2>Built for people whose time is in demand</h2>
            <CardGrid items={USE_CASES} columns="four" />
          </div>
        </section>

        <section id="pricing" className="mk-section alt">
          <div className="mk-container">
            <h2>Pricing</h2>
            <div className="mk-grid two">
              <article className="card mk-plan featured">
                <h3>Individual</h3>
                <p className="mk-price">Free during beta</p>
                <ul>
                  <li>Unlimited calendar connections</li>
                  <li>Your public availability link</li>
                  <li>Visitor time-zone detection</li>
                </ul>
                <Link to="/register" className="btn btn-primary btn-block">
                  Get started free
                </Link>
              </article>
              <article className="card mk-plan">
                <h3>Pro</h3>
                <p className="mk-price">Coming soon</p>
                <ul>
                  <li>Teams</li>
                  <li>Custom branding</li>
                  <li>Advanced scheduling rules</li>
                  <li>Analytics</li>
                  <li>Priority support</li>
                  <li>API access</li>
                  <li>White-label</li>
                </ul>
                <button type="button" className="btn btn-secondary btn-block" disabled>
                  Get notified
                </button>
              </article>
            </div>
          </div>
        </section>

        <section id="faq" className="mk-section">
          <div className="mk-container narrow">
            <h2>Frequently asked questions</h2>
            <Accordion.Root type="single" collapsible defaultValue="faq-0" className="faq">
              {FAQ.map(([q, a], i) => (
                <Accordion.Item key={q} value={`faq-${i}`} className="faq-item">
                  <Accordion.Header asChild>
                    <h3>
                      <Accordion.Trigger className="faq-trigger">
                        {q}
                        <span aria-hidden="true" className="faq-chevron">
                          ⌄
                        </span>
                      </Accordion.Trigger>
                    </h3>
                  </Accordion.Header>
                  <Accordion.Content className="faq-content">
                    <p>{a}</p>
                  </Accordion.Content>
                </Accordion.Item>
              ))}
            </Accordion.Root>
            <p className="center muted">
              Still have questions? <a href="mailto:support@avail.app">support@avail.app</a>
            </p>
          </div>
        </section>
      </main>
      <MarketingFooter />
    </div>
  );
}
