/**
 * Table interfaces of what visitors reach and leave: page views, personal links (share_links) and
 * their views, proposals (a visitor's proposed time and the owner's decision).
 * Conventions (see schema.ts): instants are epoch milliseconds (`bigint` columns, read as `number`), booleans
 * integers 0/1, ids text (crypto.randomUUID()). `Generated<T>`: a column with a database default (may be omitted on insert).
 */
import type { Generated } from 'kysely';

export interface PageViewsTable {
  user_id: string;
  /** YYYY-MM-DD, the owner's calendar date (their zone) when the view happened. */
  day: string;
  /** sha256(secret + day + ip + user-agent); the IP is never stored. */
  visitor_hash: string;
  created_at: number;
}

/** A personal link (issue 14): a token the owner gave one person or group; see 0008_share_links. */
export interface ShareLinksTable {
  id: string;
  user_id: string;
  label: string;
  /** sha256 hex of the token; what a visitor's request is looked up by. */
  token_hash: string;
  /** The token sealed with the server key (lib/crypto.ts sealContent), for the owner's copy button. */
  token_sealed: string;
  /** UTC epoch ms; null = never expires. */
  expires_at: number | null;
  created_at: number;
}

/** One distinct visitor of a personal link on one owner-zone day. */
export interface ShareLinkViewsTable {
  link_id: string;
  day: string;
  visitor_hash: string;
  created_at: number;
}

/** A time proposed by a visitor on the owner's public page (relayed by e-mail; nothing is booked). */
export interface ProposalsTable {
  /** crypto.randomUUID(). */
  id: string;
  /** The owner. */
  user_id: string;
  /** Proposed interval, UTC epoch ms, half-open. */
  start_ms: number;
  end_ms: number;
  /** The visitor's name, e-mail (lower-cased) and note ('' when none): never logged. */
  name: string;
  email: string;
  note: Generated<string>;
  /** The visitor's IANA zone. */
  visitor_timezone: string;
  created_at: number;
  /** UTC ms when the owner dismissed it (hidden from the list; still counted by the per-owner cap), else null. */
  dismissed_at: Generated<number | null>;
  /** Issue 24 (migration 0014): the owner's decision. */
  status: Generated<'pending' | 'confirmed' | 'declined' | 'cancelled'>;
  /** The visitor's language (en, de, fr, es, nl, pt). */
  visitor_language: Generated<string>;
  decided_at: Generated<number | null>;
  /** The owner's message of a decline or cancel ('' none). */
  message: Generated<string>;
  /** The meeting's RFC 5545 UID (set when confirmed) and SEQUENCE. */
  uid: Generated<string | null>;
  sequence: Generated<number>;
  /** Where the event was written: connection, sealed calendar id, sealed remote id (href / event id), the provider's own iCalUID (Graph), the calendar's name. */
  target_connection_id: Generated<string | null>;
  target_calendar: Generated<string | null>;
  remote_id: Generated<string | null>;
  remote_uid: Generated<string | null>;
  calendar_name: Generated<string | null>;
  /** Replication: the per-user stamp, the edit's time and author. */
  updated_at: Generated<number>;
  edited_at: Generated<number>;
  device_id: Generated<string>;
  /** A device's request (also made offline), carried out by the server; its failure reason. */
  request_action: Generated<'confirm' | 'decline' | 'cancel' | null>;
  request_message: Generated<string | null>;
  request_connection_id: Generated<string | null>;
  request_calendar_id: Generated<string | null>;
  request_error: Generated<string | null>;
  /** When an instance took the request to carry it out (others leave it alone for 5 minutes). */
  request_claimed_at: Generated<number | null>;
  /** When one of the e-mail's one-click links was used (both are spent). */
  link_used_at: Generated<number | null>;
  /** The personal link (share_links.id) the visitor proposed through; null = the plain link. */
  share_link_id: Generated<string | null>;
}
