/**
 * The host on the public page (issue 22 item 4): the owner's picture and one-line introduction.
 * An uploaded picture is never stored as sent: it is decoded and re-encoded here with sharp
 * (libvips) to a 256×256 px WebP, cover-cropped, turned upright by its EXIF orientation, with every
 * metadata block (EXIF, XMP, ICC, IPTC) left out. Its version is the first 16 hex digits of the
 * sha256 of those bytes, so its public URL (`?v=`) can be cached for a year.
 */
import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, notFound, validationFailed } from '../../http/errors.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import * as usersRepo from '../../store/users.repo.ts';
import { openPublicLink, publicAvatarPath } from '../public/index.ts';
import * as repo from './profile.repo.ts';

// No libvips operation cache: every picture is processed once, the cache would only hold memory.
sharp.cache(false);

/** Largest upload accepted, in bytes (2 MiB). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** Side of the stored square picture, in px. */
const AVATAR_SIZE = 256;
/** Most pixels a picture may decode to (width × height): a small file that would decode huge is refused. */
const AVATAR_MAX_PIXELS = 40_000_000;

/** The accepted Content-Types and the format sharp must find in the bytes. */
const ACCEPTED = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;
type AcceptedType = keyof typeof ACCEPTED;
const FORMAT_NAME = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP' } as const;

const AVATAR_WRONG_TYPE = 'The picture must be a PNG, JPEG or WebP image';
const AVATAR_TOO_LARGE = 'The picture must be at most 2 MB';
const AVATAR_TOO_MANY_PIXELS = 'The picture is too large: at most 40 megapixels';
const AVATAR_NOT_FOUND = 'No picture';
/** 'The file is not a valid PNG image' (the declared type's name): undecodable, truncated, or another format than declared. */
const avatarInvalid = (type: AcceptedType) => `The file is not a valid ${FORMAT_NAME[ACCEPTED[type]]} image`;

/** 413 `{ error: 'The picture must be at most 2 MB', code: 'payload_too_large', errors: { avatar } }`. */
export const avatarTooLarge = () => new HttpError(413, 'payload_too_large', AVATAR_TOO_LARGE, { avatar: AVATAR_TOO_LARGE });

/** The host fields of the owner's own profile: `{ intro, avatar_url, avatar_version }` (avatar_url null without a username or picture). */
export function presentOwnHost(user: Pick<UserRow, 'username' | 'intro' | 'avatar_version'>) {
  return {
    intro: user.intro ?? null,
    avatar_url: user.username && user.avatar_version ? publicAvatarPath(user.username, user.avatar_version) : null,
    avatar_version: user.avatar_version ?? null,
  };
}

/** The MIME type of a Content-Type header value (`image/PNG; x=y` → `image/png`), '' when absent. */
function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Decodes `input` as the declared `type` and re-encodes it: 256×256 WebP, cover-cropped around the
 * centre, upright, no metadata.
 * @throws 422 `{ errors: { avatar } }`: not a valid image of the declared type (undecodable, truncated, other
 *   format), or more than 40 megapixels.
 */
async function reencodeAvatar(input: Buffer, type: AcceptedType): Promise<Buffer> {
  const invalid = () => validationFailed({ avatar: avatarInvalid(type) });
  let meta: Metadata;
  try {
    // The header only (no decoding): the pixel count is checked below, with its own message.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw invalid();
  }
  if (meta.format !== ACCEPTED[type]) throw invalid();
  if ((meta.width ?? 0) * (meta.height ?? 0) > AVATAR_MAX_PIXELS) throw validationFailed({ avatar: AVATAR_TOO_MANY_PIXELS });
  try {
    // failOn 'warning' (sharp's default): a truncated or damaged file is refused, not half-decoded.
    return await sharp(input, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'warning' })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82, effort: 4 })
      .toBuffer();
  } catch {
    throw invalid();
  }
}

/**
 * Stores a new picture for the owner (PUT /api/me/avatar). `contentType`: the request's header,
 * image/png, image/jpeg or image/webp; `body`: the raw bytes (≤ 2 MB, already limited by the route).
 * Nothing is stored unless the picture decodes and re-encodes; picture and version are written in one
 * transaction, and the public cache hears of it (change bus).
 * @returns `{ avatar_url, avatar_version }` — avatar_url: the public, versioned path (null until the owner has a username).
 * @throws 422 `The picture must be a PNG, JPEG or WebP image` (another or no type, an empty body), `The file is not a
 *   valid PNG image` (JPEG, WebP: the declared type), `The picture is too large: at most 40 megapixels`;
 *   413 `The picture must be at most 2 MB`.
 */
export async function uploadAvatar(deps: Deps, user: UserRow, contentType: string | undefined, body: unknown) {
  const type = mimeOf(contentType);
  if (!(type in ACCEPTED) || !Buffer.isBuffer(body) || body.length === 0) throw validationFailed({ avatar: AVATAR_WRONG_TYPE });
  if (body.length > AVATAR_MAX_BYTES) throw avatarTooLarge();
  const image = await reencodeAvatar(body, type as AcceptedType);
  const version = createHash('sha256').update(image).digest('hex').slice(0, 16);
  await replicatedWrite(deps, user.id, async (trx, _stamp, now) => {
    await repo.saveAvatar(trx, user.id, version, image, now);
    await usersRepo.updateUser(trx, user.id, { avatar_version: version });
  });
  return { avatar_url: user.username ? publicAvatarPath(user.username, version) : null, avatar_version: version };
}

/** Removes the owner's picture (DELETE /api/me/avatar); the page shows initials again. Idempotent: no picture is fine. */
export async function removeAvatar(deps: Deps, user: UserRow): Promise<void> {
  await replicatedWrite(deps, user.id, async (trx) => {
    await repo.deleteAvatar(trx, user.id);
    await usersRepo.updateUser(trx, user.id, { avatar_version: null });
  });
}

/** The owner's own picture (GET /api/me/avatar): WebP bytes. @throws 404 `No picture`. */
export async function ownAvatar(deps: Deps, user: UserRow): Promise<Buffer> {
  const found = await repo.findAvatar(deps.db, user.id);
  if (!found) throw notFound(AVATAR_NOT_FOUND);
  return found.image;
}

/**
 * A host's picture as a visitor may see it (GET /api/public/:slug/avatar.webp?v=&key=): only when the
 * visitor may open the link (openPublicLink: the plain link on, or `key` a live personal link of that
 * owner) and `version` is the current picture's.
 * @returns the WebP bytes and whether a personal link's key opened it.
 * @throws 404 `{ error: 'This availability link could not be found.' }` for a link the visitor may not open (like the
 *   availability answer); 404 `No picture` for no picture or another version.
 */
export async function publicAvatar(deps: Deps, slug: string, version: unknown, key: unknown): Promise<{ image: Buffer; viaKey: boolean }> {
  const { owner, shareLinkId } = await openPublicLink(deps, slug, key, deps.now());
  if (typeof version !== 'string' || !version) throw notFound(AVATAR_NOT_FOUND);
  const found = await repo.findAvatar(deps.db, owner.id, version);
  if (!found) throw notFound(AVATAR_NOT_FOUND);
  return { image: found.image, viaKey: shareLinkId !== null };
}

/**
 * Saves the introduction (already validated: trimmed, ≤ 160 characters; null clears it). The public
 * cache hears of it (change bus). @returns the new intro.
 */
export async function updateIntro(deps: Deps, user: UserRow, intro: string | null): Promise<string | null> {
  if (intro === (user.intro ?? null)) return intro;
  await replicatedWrite(deps, user.id, async (trx) => {
    await usersRepo.updateUser(trx, user.id, { intro });
  });
  return intro;
}
