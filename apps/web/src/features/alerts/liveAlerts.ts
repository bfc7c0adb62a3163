import { useEffect, useRef } from 'react';
import type { IncidentLiveEvent } from '@console/contract';
import { openStream } from '../../api/http.ts';
import { loadNamespace } from '../../locales/index.ts';

/** The alert messages, for every screen that names alerts (the bell, the big screen). */
export const loadAlertMessages = () => loadNamespace('alerts', { 'zh-CN': () => import('../../locales/alerts/zh-CN.ts'), 'en-US': () => import('../../locales/alerts/en-US.ts') });

/** After a stream ends or fails, the next try waits this long (the server's retry hint). */
const RETRY_MS = 3_000;

/**
 * Incidents of the current enterprise as they are raised and change, from the server's event stream
 * (read through fetch so it carries the token and enterprise headers, which EventSource cannot
 * send). Reconnects after a drop while the component is mounted; a new enterprise gets a new stream.
 */
export function useLiveAlerts(enterpriseId: number | null, enabled: boolean, onEvent: (event: IncidentLiveEvent) => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!enterpriseId || !enabled) return;
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      const response = await openStream('/alerts/live', controller.signal);
      if (response) {
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let cut;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (/^event: alert$/m.test(block)) {
                const data = /^data: (.*)$/m.exec(block)?.[1];
                if (data) handler.current(JSON.parse(data) as IncidentLiveEvent);
              }
            }
          }
        } catch {
          // Dropped (network, server restart) or stopped by us: try again below unless stopped.
        }
      }
      if (!controller.signal.aborted) retry = setTimeout(() => void connect(), RETRY_MS);
    };
    void connect();
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, [enterpriseId, enabled]);
}
