/*
 * Avail's service worker (issue 3): keeps the app shell on the device so a reload works offline;
 * the owner's data then comes from the device database (RxDB/IndexedDB), never from this cache.
 *
 * - Navigations: network first; the latest good HTML answer is kept as the shell and served when
 *   the network fails (the app is a single-page app: every route is the same index.html).
 * - /assets/*: cache first (Vite's file names carry a content hash, so a cached file never changes).
 * - /api/* and anything else: not touched (requests go straight to the network, never cached).
 *
 * Hand-written rather than vite-plugin-pwa/Workbox: those add a build-time dependency tree
 * (workbox-build, rollup plugins) for three rules, and they precache every chunk — which would make
 * a visitor of a public page download the owner's app (RxDB included). Here only what a page
 * actually loaded is cached. The build (vite.config.ts) replaces __BUILD_ID__, so each build is a
 * new worker that drops the previous build's caches.
 */
const CACHE = 'avail-shell-__BUILD_ID__';
const SHELL = '/';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const res = await fetch(SHELL, { cache: 'no-cache' });
        if (res.ok) {
          const html = await res.clone().text();
          await cache.put(SHELL, res);
          const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
          await cache.addAll(assets);
        }
      } catch {
        /* offline at install: the shell is cached by the next navigation */
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keys = await caches.keys();
      await Promise.all(keys.filter((k) => k.startsWith('avail-shell-') && k !== CACHE).map((k) => caches.delete(k)));
      await self.clients.claim();
    })(),
  );
});

// The page sends the /assets/ files it loaded before this worker controlled it.
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache-assets' || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((u) => typeof u === 'string' && new URL(u, self.location.origin).pathname.startsWith('/assets/'));
  event.waitUntil(
    caches.open(CACHE).then(async (cache) => {
      for (const u of urls) if (!(await cache.match(u))) await cache.add(u).catch(() => undefined);
    }),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') event.respondWith(networkFirst(req));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(req));
});

async function networkFirst(req) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    // A public page (X-Avail-Page: public) is server-rendered with someone's windows: never the shell.
    if (res.ok && (res.headers.get('content-type') || '').includes('text/html') && !res.headers.get('x-avail-page')) await cache.put(SHELL, res.clone());
    return res;
  } catch (err) {
    const shell = await cache.match(SHELL);
    if (shell) return shell;
    throw err;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}
