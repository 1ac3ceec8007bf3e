/**
 * The landing page's sections below the top bar (spec §2 "Landing page (/)", §9): hero with a
 * preview of a public link, features, how it works, testimonials, use cases + Why, highlights,
 * pricing, FAQ and the e-mail support link. Texts are the spec's, verbatim.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Accordion } from 'radix-ui';
import { Alert } from '../../components/ui/alert.tsx';
import { CardGrid, SUPPORT_EMAIL } from './marketing-layout.tsx';
import { SectionLink } from './landing-nav.tsx';

const FEATURES = [
  ['Read-only calendar connection', 'Connect Google Calendar, Microsoft Outlook, Apple iCloud, any CalDAV server or an ICS feed. Avail never writes to your calendars.'],
  ['Busy events split your free time', 'A meeting at noon splits your 9-to-5 into two free windows automatically.'],
  ['Live sync', 'Real-time updates through webhooks plus a backup sync every 15 minutes keep your link accurate.'],
  ['Visitor time-zone detection', 'Visitors see your free times in their own time zone — and can change it.'],
  ['Only free windows', 'Event titles, guests and details never leave your account.'],
  ['Smart day view', 'A 07:00–20:00 view by default that expands when your availability needs it.'],
] as const;

const STEPS = [
  ['Connect your calendars', 'Read-only access to Google, Outlook, Apple iCloud or any CalDAV server you already use.'],
  ['Set your weekly hours', 'Tell Avail when you work. Busy events are cut out automatically.'],
  ['Share your link', 'Visitors see your free windows in their own time zone and propose a time; you confirm.'],
] as const;

const TESTIMONIALS = [
  {
    quote:
      'I used to type my free slots into every client e-mail and still got them wrong. Now I send one link, clients propose a time that suits them, and I confirm it. Nobody sees who else I work for.',
    name: 'Maya Lindqvist',
    role: 'Freelance brand designer',
  },
  {
    quote:
      'Booking a kick-off used to take five e-mails. Our clients open my link, see when I am free in their own time zone and suggest a slot. I say yes in one click.',
    name: 'Tomás Reyes',
    role: 'Producer at a video agency',
  },
  {
    quote:
      'Our customers sit on three continents. With Avail they see my free windows in their local time, and my internal meetings stay private. Onboarding calls get booked days sooner.',
    name: 'Priya Nair',
    role: 'Customer-success lead',
  },
] as const;

const USE_CASES = [
  ['Freelancers and consultants', 'Stop the back-and-forth with clients: send one link.'],
  ['Agencies and studios', 'Share when the team lead is free for kick-offs and reviews.'],
  ['Sales and partnerships people', 'Let prospects propose a time that works while the deal is hot.'],
  ['Support and success teams', 'Offer customers clear windows for onboarding calls.'],
] as const;

const WHY = [
  ['Private by design', 'Your link shows free windows only — never titles, guests or details.'],
  ['You stay in control', 'Visitors propose, you confirm. Nothing lands in your calendar without you.'],
  ['Always up to date', 'Changes in your calendars show up on your link on their own.'],
  ['Nothing to install for visitors', 'Visitors need no account: they open your link and pick a time.'],
] as const;

const HIGHLIGHTS = [
  ['0', 'event titles, guests or details shown to visitors'],
  ['15 min', 'backup sync, on top of real-time updates'],
  ['07:00–20:00', 'default day view that widens when your hours do'],
  ['Read-only', 'access to every calendar you connect'],
] as const;

const FAQ = [
  ['Which calendars can I connect?', 'Google Calendar, Microsoft Outlook, Apple iCloud, any CalDAV server, and calendars published as an ICS feed.'],
  ['Can visitors see my event titles?', 'No. Your public link shows only free windows — never titles, guests or details.'],
  ['Can visitors book directly?', 'No. Visitors propose a time that works for them and you confirm it. Nothing lands in your calendar without you.'],
  ['What time zone do visitors see?', 'Their own: Avail detects it from the browser and lets them change it.'],
  ['Does Avail change my calendar?', 'Never. Connections are read-only.'],
  ['How much does it cost?', 'The Individual plan is free during the beta. A Pro plan for teams is coming soon.'],
] as const;

/** A section with an id, a labelled heading and a focus target for in-page navigation. */
function Section({ id, title, intro, alt = false, narrow = false, children }: { id: string; title: string; intro?: string; alt?: boolean; narrow?: boolean; children: ReactNode }) {
  return (
    <section id={id} className={`mk-section${alt ? ' alt' : ''}`} aria-labelledby={`${id}-title`} tabIndex={-1}>
      <div className={`mk-container${narrow ? ' narrow' : ''}`}>
        <h2 id={`${id}-title`}>{title}</h2>
        {intro && <p className="mk-section-intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}

function initials(name: string) {
  return name
    .split(/\s+/)
    .map((p) => p[0])
    .join('')
    .slice(0, 2);
}

/** A small, decorative preview of a public availability page (free windows only). */
function HeroPreview() {
  const days = [
    ['Mon', [[0, 3], [4, 8]]],
    ['Tue', [[1, 5]]],
    ['Wed', [[0, 2], [5, 8]]],
    ['Thu', [[2, 7]]],
    ['Fri', [[0, 4]]],
  ] as const;
  return (
    <div className="mk-preview card" role="img" aria-label="Example of a public availability link: a week showing only free windows">
      <div className="mk-preview-head">
        <span className="mk-preview-dot" />
        <span>avail.app/maya</span>
        <span className="mk-preview-tz">Your time zone</span>
      </div>
      <div className="mk-preview-week">
        {days.map(([day, blocks]) => (
          <div key={day} className="mk-preview-day">
            <span className="mk-preview-label">{day}</span>
            <div className="mk-preview-col">
              {blocks.map(([from, to]) => (
                <span key={from} className="mk-preview-free" style={{ top: `${(from / 9) * 100}%`, height: `${((to - from) / 9) * 100}%` }} />
              ))}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

/** The hero: the pitch, the calls to action and the preview; `notice` (when set) above it, closable. */
export function HeroSection({ notice, onCloseNotice }: { notice: string; onCloseNotice: () => void }) {
  return (
    <section id="hero" className="mk-hero" aria-labelledby="hero-title">
      <div className="mk-container">
        {notice && (
          <Alert kind="success" onClose={onCloseNotice}>
            {notice}
          </Alert>
        )}
        <span className="mk-badge">Now in Beta</span>
        <h1 id="hero-title">
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
          <SectionLink id="how-it-works" className="btn btn-secondary btn-lg">
            See how it works
          </SectionLink>
        </div>
        <HeroPreview />
      </div>
    </section>
  );
}

/** Features and how it works. */
export function FeaturesSections() {
  return (
    <>
      <Section id="features" title="Everything you need to share your time">
        <CardGrid items={FEATURES} columns="three" />
      </Section>

      <Section id="how-it-works" title="How it works" alt>
        <ol className="mk-steps">
          {STEPS.map(([title, text]) => (
            <li key={title}>
              <strong>{title}</strong>
              <span className="muted">{text}</span>
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}

/** Quotes of people who use Avail. */
export function TestimonialsSection() {
  return (
    <Section id="testimonials" title="Loved by people who live in their calendars" intro="Freelancers, agencies and customer teams use Avail to stop the scheduling back-and-forth.">
      <ul className="mk-testimonials" tabIndex={0} aria-label="Testimonials">
        {TESTIMONIALS.map((t) => (
          <li key={t.name} className="card mk-testimonial">
            <blockquote>
              <p>&ldquo;{t.quote}&rdquo;</p>
            </blockquote>
            <div className="mk-person">
              <span className="mk-avatar" aria-hidden="true">
                {initials(t.name)}
              </span>
              <span>
                <strong>{t.name}</strong>
                <span className="muted small">{t.role}</span>
              </span>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Use cases with "Why Avail?", and the feature highlights. */
export function UseCasesSections() {
  return (
    <>
      <Section id="use-cases" title="Built for people whose time is in demand" alt>
        <CardGrid items={USE_CASES} columns="four" />
        <div className="mk-why">
          <h3 id="why-title">Why Avail?</h3>
          <ul className="mk-why-list">
            {WHY.map(([title, text]) => (
              <li key={title}>
                <strong>{title}</strong>
                <span className="muted">{text}</span>
              </li>
            ))}
          </ul>
        </div>
      </Section>

      <Section id="highlights" title="Feature highlights">
        <ul className="mk-highlights">
          {HIGHLIGHTS.map(([figure, text]) => (
            <li key={figure}>
              <span className="mk-highlight-figure">{figure}</span>
              <span className="muted">{text}</span>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

/** The Individual (free during beta) and Pro (coming soon) plans. */
export function PricingSection() {
  return (
    <Section id="pricing" title="Pricing" alt>
      <div className="mk-grid two">
        <article className="card mk-plan featured" aria-labelledby="plan-individual">
          <h3 id="plan-individual">Individual</h3>
          <p className="mk-price">Free during beta</p>
          <ul>
            <li>Unlimited calendar connections</li>
            <li>Your public availability link</li>
            <li>Visitor time-zone detection</li>
            <li>Real-time sync plus a backup sync every 15 minutes</li>
          </ul>
          <Link to="/register" className="btn btn-primary btn-block">
            Get started free
          </Link>
        </article>
        <article className="card mk-plan" aria-labelledby="plan-pro">
          <h3 id="plan-pro">Pro</h3>
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
    </Section>
  );
}

/** The FAQ (the first answer open) and the e-mail support link. */
export function FaqSections() {
  return (
    <>
      <Section id="faq" title="Frequently asked questions" narrow>
        <Accordion.Root type="single" collapsible defaultValue="faq-0" className="faq">
          {FAQ.map(([q, a], i) => (
            <Accordion.Item key={q} value={`faq-${i}`} className="faq-item">
              <Accordion.Header asChild>
                <h3>
                  <Accordion.Trigger className="faq-trigger">
                    {q}
                    <svg className="faq-chevron" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                      <path d="M6 9l6 6 6-6" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                  </Accordion.Trigger>
                </h3>
              </Accordion.Header>
              <Accordion.Content className="faq-content">
                <p>{a}</p>
              </Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </Section>
      <section id="contact" className="mk-section mk-contact" aria-labelledby="contact-title" tabIndex={-1}>
        <div className="mk-container narrow center">
          <h2 id="contact-title">Still have questions?</h2>
          <p className="muted">Write to us and a person will answer, usually within one business day.</p>
          <a className="btn btn-secondary" href={`mailto:${SUPPORT_EMAIL}`}>
            E-mail {SUPPORT_EMAIL}
          </a>
        </div>
      </section>
    </>
  );
}
