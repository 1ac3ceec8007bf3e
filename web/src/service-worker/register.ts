/**
 * Registers /sw.js (production builds only: the dev server has no built assets to cache) and
 * hands it the /assets/ files this page loaded before the worker controlled it, so a reload while
 * offline finds every chunk the page already used.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const sendLoadedAssets = () => {
    const urls = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((u) => {
        const url = new URL(u);
        return url.origin === location.origin && url.pathname.startsWith('/assets/');
      });
    navigator.serviceWorker.controller?.postMessage({ type: 'cache-assets', urls });
  };
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then(() => {
        if (navigator.serviceWorker.controller) sendLoadedAssets();
        else navigator.serviceWorker.addEventListener('controllerchange', sendLoadedAssets, { once: true });
      })
      .catch((e: unknown) => console.warn('Service worker registration failed', e));
  });
}
