import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.tsx';
import { registerServiceWorker } from './service-worker/register.ts';
import './styles/base.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRouter />
  </StrictMode>,
);

if (import.meta.env.PROD) registerServiceWorker();
