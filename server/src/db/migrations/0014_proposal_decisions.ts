/**
 * Confirming a proposal in one step (issue 24).
 *
 * `proposals` gains the owner's decision and the meeting it made, and becomes a replicated
 * collection (writable: a device sets the `request_*` fields, also offline; the server carries the
 * request out):
 * - `status` 'pending' | 'confirmed' | 'declined' | 'cancelled'; `decided_at` (UTC ms); `message`
 *   (the owner's words of a decline or cancel); `visitor_language` (the invitation's language);
 * - the meeting: `uid` (RFC 5545 UID, set at confirmation), `sequence` (RFC 5545 SEQUENCE),
 *   `target_connection_id` / `target_calendar` (sealed calendar id), `remote_id` (sealed: CalDAV
 *   href, Google event id, Graph event id), `remote_uid` (the provider's iCalUID when it chose its
 *   own: Graph), `calendar_name`;
 * - replication: `updated_at` (the per-user stamp; existing rows get created_at), `edited_at`,
 *   `device_id`; the request: `request_action`, `request_message`, `request_connection_id`,
 *   `request_calendar_id`, `request_error`, `request_claimed_at` (one instance carries it out);
 * - the one-click links: `link_used_at` (both links of one e-mail are spent by the first use);
 * - `share_link_id`: the personal link the visitor came through (null: the plain link), so the
 *   decline's links to free times open the way they came in.
 *
 * `users.proposal_target`: the owner's choice of calendar for confirmed meetings, sealed JSON
 * `{ connection_id, calendar_id }`, null = the default (proposal-settings). Schema builder only.
 */
import { sql, type Kysely } from 'kysely';

const COLUMNS: Array<[string, 'text' | 'bigint' | 'integer', ((c: any) => any)?]> = [
  ['status', 'text', (c) => c.notNull().defaultTo('pending')],
  ['visitor_language', 'text', (c) => c.notNull().defaultTo('en')],
  ['decided_at', 'bigint'],
  ['message', 'text', (c) => c.notNull().defaultTo('')],
  ['uid', 'text'],
  ['sequence', 'integer', (c) => c.notNull().defaultTo(0)],
  ['target_connection_id', 'text'],
  ['target_calendar', 'text'],
  ['remote_id', 'text'],
  ['remote_uid', 'text'],
  ['calendar_name', 'text'],
  ['updated_at', 'bigint', (c) => c.notNull().defaultTo(0)],
  ['edited_at', 'bigint', (c) => c.notNull().defaultTo(0)],
  ['device_id', 'text', (c) => c.notNull().defaultTo('server')],
  ['request_action', 'text'],
  ['request_message', 'text'],
  ['request_connection_id', 'text'],
  ['request_calendar_id', 'text'],
  ['request_error', 'text'],
  ['request_claimed_at', 'bigint'],
  ['link_used_at', 'bigint'],
  ['share_link_id', 'text'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type, build] of COLUMNS) {
    await db.schema.alterTable('proposals').addColumn(name, type, build ?? ((c) => c)).execute();
  }
  await sql`update proposals set updated_at = created_at, edited_at = created_at`.execute(db);
  await db.schema.createIndex('proposals_user_updated_idx').on('proposals').columns(['user_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('proposals_request_idx').on('proposals').columns(['request_action', 'user_id']).execute();
  await db.schema.alterTable('users').addColumn('proposal_target', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('proposal_target').execute();
  await db.schema.dropIndex('proposals_request_idx').execute();
  await db.schema.dropIndex('proposals_user_updated_idx').execute();
  for (const [name] of [...COLUMNS].reverse()) await db.schema.alterTable('proposals').dropColumn(name).execute();
}
