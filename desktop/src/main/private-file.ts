/**
 * Small file helpers for the app's data folder (`app.getPath('userData')`): an atomic write that
 * leaves the file readable by its owner only, and reads/removals that treat "no such file" as
 * normal. Node's `fs/promises` only; no Electron.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes `data` to `file` atomically with mode 0600 (owner only): a new temporary file beside it
 * (created with `wx` and mode 0600, so the bytes are never readable by others, even for an
 * instant), then `rename` over `file`. A file that existed with a wider mode is replaced, so the
 * result is 0600 either way. On Windows the mode bits are not enforced (the user profile's ACLs
 * protect the data folder). The parent folder is created when missing.
 * @throws the fs error (ENOSPC, EACCES …); the temporary file is removed on failure.
 */
export async function writePrivateFile(file: string, data: Uint8Array | string, options: { mode: number } = { mode: PRIVATE_FILE_MODE }): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(tmp, data, { mode: options.mode, flag: 'wx' });
    await chmod(tmp, options.mode); // a umask can only narrow the mode; make it exact anyway
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** `fs.readFile` as a Buffer. @throws the fs error (ENOENT when missing). */
export function readBytes(file: string): Promise<Buffer> {
  return readFile(file);
}

/** Removes `file`; a missing file is not an error. @throws other fs errors. */
export async function removeFile(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (e) {
    if (isMissing(e)) return;
    throw e;
  }
}

/** What {@link readJsonFile} found. */
export type JsonFileRead = { kind: 'missing' } | { kind: 'unreadable'; error: unknown } | { kind: 'read'; text: string; value: unknown };

/**
 * Reads a JSON file of the data folder with `readFile`: `missing` (ENOENT), `unreadable` (any
 * other fs error), or `read` with its text and parsed value (null when the text is not JSON — the
 * caller validates the value either way: the file is data, like an IPC payload).
 */
export async function readJsonFile(readFile: (file: string) => Promise<Uint8Array | string>, file: string): Promise<JsonFileRead> {
  let text: string;
  try {
    text = String(await readFile(file));
  } catch (e) {
    return isMissing(e) ? { kind: 'missing' } : { kind: 'unreadable', error: e };
  }
  try {
    return { kind: 'read', text, value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'read', text, value: null };
  }
}

/** true for ENOENT ("no such file or directory"). */
export function isMissing(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'ENOENT';
}
