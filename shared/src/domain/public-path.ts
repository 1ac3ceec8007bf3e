/**
 * The owner's public page addresses: `/:slug`, `/u/:slug` and `/embed/:slug` (one trailing slash
 * allowed). One parser for the server (which page to render, modules/public) and the browser
 * entry (which page to load, web/src/public-entry.tsx), so both read the same slug from a path.
 */

/**
 * The slug of a public page path, percent-decoded (`/u/Jane%20D/` → `Jane D`), or null when the
 * path is not a public page address (`/a/b`) or its escapes are malformed (`/%E0`, RFC 3986 §2.1).
 */
export function slugOfPublicPath(pathname: string): string | null {
  const m = /^\/(?:u\/|embed\/)?([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}
