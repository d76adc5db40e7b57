// First: zod's JIT off before any schema is built (the CSP forbids eval; see the module).
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Service worker: registered on page load; its outcome is only logged (storefront spec §7).
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then((reg) => console.info('Service worker registered', reg.scope))
      .catch((err: unknown) => console.warn('Service worker registration failed', err));
  });
}
