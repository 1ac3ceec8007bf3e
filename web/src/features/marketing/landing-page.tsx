/**
 * Landing page `/` (spec §1, §2 "Landing page (/)", §9): top bar with smooth-scroll anchors that
 * gets compact after 50 px, a full-screen mobile menu (landing-nav.tsx), then hero, features, how
 * it works, testimonials, use cases + Why, highlights, pricing, FAQ and the e-mail support link
 * (landing-sections.tsx).
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { MarketingFooter, useDocumentTitle } from './marketing-layout.tsx';
import { LandingHeader, scrollToSection } from './landing-nav.tsx';
import { FaqSections, FeaturesSections, HeroSection, PricingSection, TestimonialsSection, UseCasesSections } from './landing-sections.tsx';

/** The landing page at `/`. */
export default function LandingPage() {
  useDocumentTitle('Avail — share when you’re free, never what you’re doing');
  const { hash, state } = useLocation();
  const initialHash = useRef(hash);
  // A notice handed over by the page that sent the visitor here (e.g. "Your account has been deleted.").
  const passedNotice = (state as { notice?: unknown } | null)?.notice;
  const [notice, setNotice] = useState(typeof passedNotice === 'string' ? passedNotice : '');

  // Arriving at /#faq (e.g. from /support): the section exists only now, so scroll to it once.
  useEffect(() => {
    const id = decodeURIComponent(initialHash.current.replace(/^#/, ''));
    if (id) scrollToSection(id, false);
  }, []);

  return (
    <div className="mk-page landing">
      <LandingHeader />

      <main>
        <HeroSection notice={notice} onCloseNotice={() => setNotice('')} />
        <FeaturesSections />
        <TestimonialsSection />
        <UseCasesSections />
        <PricingSection />
        <FaqSections />
      </main>
      <MarketingFooter />
    </div>
  );
}
