import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { messagesReady } from './locales/index.ts';
import './app/global.css';
import './app/startEarly.ts';
import { App } from './app/App.tsx';

void messagesReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
