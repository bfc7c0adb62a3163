import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CrewApp } from './CrewApp.tsx';
import { startI18n } from './i18n.ts';
import './crew.css';

// Installable and readable offline: the service worker the build makes for this view (/m-sw.js).
if ('serviceWorker' in navigator && import.meta.env.PROD) void navigator.serviceWorker.register('/m-sw.js', { scope: '/m/' }).catch(() => {});

void startI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <CrewApp />
    </StrictMode>,
  ),
);
