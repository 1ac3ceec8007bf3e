import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.tsx';
import { bridge, startPlatform } from './platform/platform.ts';
import { registerServiceWorker } from './service-worker/register.ts';
import './styles/base.css';

// The desktop app's files are local: only the browser registers the offline service worker.
if (import.meta.env.PROD && bridge.usesServiceWorker()) registerServiceWorker();

// The session bootstrap needs the server origin and the stored token: ask the platform first.
startPlatform()
  .catch((e: unknown) => console.error('The platform bridge failed to start', e))
  .finally(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <AppRouter />
      </StrictMode>,
    );
  });
