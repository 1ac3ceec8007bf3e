/**
 * Settings → Profile → Picture (issue 22 item 4): the host's picture on the public page — upload
 * (PNG, JPEG or WebP ≤ 2 MB; the server stores a 256×256 WebP without metadata) or remove,
 * previewed with the initials fallback visitors see. Errors show under the field.
 */
import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { hostInitials, hostTone } from '../../lib/host-initials.ts';

/** What the picture field accepts, before asking the server (which checks the bytes too). */
const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
const PICTURE_WRONG_TYPE = 'The picture must be a PNG, JPEG or WebP image';
const PICTURE_TOO_LARGE = 'The picture must be at most 2 MB';

/** The server's message for `field` of a failed call (its field error, else its message). */
export function fieldMessage(e: unknown, field: string): string {
  if (e instanceof ApiError) return e.fieldErrors?.[field] ?? e.message;
  return (e as Error).message || 'Something went wrong';
}

/** A Blob as a `data:` URL. */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the picture'));
    reader.readAsDataURL(blob);
  });
}

/** `name`: the owner's full name (the initials of the fallback). */
export function PictureField({ name }: { name: string }) {
  const [pictureUrl, setPictureUrl] = useState<string | null>(null);
  const [pictureBusy, setPictureBusy] = useState(false);
  const [pictureError, setPictureError] = useState('');
  const [pictureNote, setPictureNote] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void loadPicture();
  }, []);

  // The preview is the owner's own copy as a data: URL (the public URL may need a personal link's key,
  // and the CSP — web and desktop — allows images from 'self' and data: only, not blob:).
  async function loadPicture() {
    try {
      const blob = await api.ownAvatar();
      setPictureUrl(blob ? await dataUrlOf(blob) : null);
    } catch {
      setPictureError('Failed to load your picture');
    }
  }

  async function upload(file: File) {
    setPictureError('');
    setPictureNote('');
    if (!PICTURE_TYPES.includes(file.type)) return setPictureError(PICTURE_WRONG_TYPE);
    if (file.size > PICTURE_MAX_BYTES) return setPictureError(PICTURE_TOO_LARGE);
    setPictureBusy(true);
    try {
      await api.uploadAvatar(file);
      await loadPicture();
      setPictureNote('Picture updated');
    } catch (e) {
      setPictureError(fieldMessage(e, 'avatar'));
    } finally {
      setPictureBusy(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function removePicture() {
    setPictureError('');
    setPictureNote('');
    setPictureBusy(true);
    try {
      await api.removeAvatar();
      setPictureUrl(null);
      setPictureNote('Picture removed');
    } catch (e) {
      setPictureError(fieldMessage(e, 'avatar'));
    } finally {
      setPictureBusy(false);
    }
  }

  return (
    <div className="field" role="group" aria-labelledby="profile-picture-label" aria-describedby="profile-picture-help">
      <span id="profile-picture-label" className="field-label">
        Picture
      </span>
      <div className="profile-picture">
        {pictureUrl ? (
          <img className="profile-avatar" src={pictureUrl} alt="Your picture" width={64} height={64} data-testid="profile-picture" />
        ) : (
          <span className={`profile-avatar profile-avatar--initials profile-avatar--tone-${hostTone(name)}`} data-testid="profile-initials" aria-label={`No picture: visitors see your initials, ${hostInitials(name)}`} role="img">
            {hostInitials(name)}
          </span>
        )}
        <div className="profile-picture-actions">
          <input
            ref={fileInput}
            id="profile-picture-input"
            className="sr-only"
            type="file"
            accept={PICTURE_TYPES.join(',')}
            aria-labelledby="profile-picture-label"
            aria-describedby="profile-picture-help profile-picture-error"
            aria-invalid={pictureError ? true : undefined}
            tabIndex={-1}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void upload(file);
            }}
          />
          <button type="button" className="btn btn-secondary" disabled={pictureBusy} onClick={() => fileInput.current?.click()}>
            {pictureBusy ? 'Working...' : pictureUrl ? 'Upload a new picture' : 'Upload picture'}
          </button>
          {pictureUrl && (
            <button type="button" className="btn btn-ghost" disabled={pictureBusy} onClick={() => void removePicture()}>
              Remove
            </button>
          )}
        </div>
      </div>
      <p id="profile-picture-help" className="muted small">
        Shown round on your public page. PNG, JPEG or WebP, up to 2 MB; we keep a 256 × 256 copy without the photo's metadata (such as location).
      </p>
      <p id="profile-picture-error" className="field-error" role="alert">
        {pictureError}
      </p>
      <p className="muted small" role="status">
        {pictureNote}
      </p>
    </div>
  );
}
