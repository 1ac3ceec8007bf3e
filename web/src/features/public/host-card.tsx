/**
 * The host shown once on the public page (issue 22 item 4): a round picture — the owner's uploaded
 * one, or their initials on a coloured circle derived from the name — the name as text, and the
 * optional one-line introduction under it. Plain elements only (no radix, no router): it renders in
 * the Preact-aliased public build, on the server (SSR) and hydrated.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { hostInitials, hostTone } from '../../lib/host-initials.ts';
import './host-card.css';


export interface HostCardProps {
  /** The owner's display name (`user_name` of the public answer), shown once as text. */
  name: string;
  /** One-line introduction (`host.intro`), null/empty = none. */
  intro?: string | null;
  /** The picture's URL (`host.avatar_url`, through `hostAvatarSrc` on a personal link); null = initials. */
  avatarUrl?: string | null;
  /** The compact layout of `/embed/{username}` (a smaller picture). */
  embed?: boolean;
  /** Shown instead of the plain name: the page's heading that carries the name (so the name appears once). */
  heading?: ReactNode;
  /** Anything the page places under the introduction (e.g. its title or explanation). */
  children?: ReactNode;
}

/**
 * The picture URL a visitor's page loads: `avatarUrl` as the answer gave it, with the personal
 * link's key added (`&key=…`) when the visitor came through one — the picture answers only what the
 * availability answer would (404 without the key when the owner switched the plain link off).
 */
export function hostAvatarSrc(avatarUrl: string | null | undefined, linkKey?: string | null): string | null {
  if (!avatarUrl) return null;
  if (!linkKey) return avatarUrl;
  return `${avatarUrl}${avatarUrl.includes('?') ? '&' : '?'}key=${encodeURIComponent(linkKey)}`;
}

/** The host card: picture or initials, name, introduction. See HostCardProps. */
export function HostCard({ name, intro, avatarUrl, embed = false, heading, children }: HostCardProps) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  // A new picture gets a new chance; one that failed (removed meanwhile, offline) shows the initials.
  useEffect(() => setFailed(false), [avatarUrl]);
  useEffect(() => {
    // The server-rendered <img> may have failed before hydration attached onError.
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, [avatarUrl]);
  const showPicture = !!avatarUrl && !failed;
  const text = intro?.trim();
  return (
    <div className={embed ? 'host-card host-card--embed' : 'host-card'}>
      {showPicture ? (
        // Decorative: the name is right beside it, as text.
        <img ref={img} className="host-avatar" src={avatarUrl} alt="" width={embed ? 40 : 64} height={embed ? 40 : 64} decoding="async" onError={() => setFailed(true)} />
      ) : (
        <span className={`host-avatar host-avatar--initials host-avatar--tone-${hostTone(name)}`} aria-hidden="true">
          {hostInitials(name)}
        </span>
      )}
      <div className="host-text">
        {heading ?? <p className="host-name">{name}</p>}
        {text ? <p className="host-intro">{text}</p> : null}
        {children}
      </div>
    </div>
  );
}
