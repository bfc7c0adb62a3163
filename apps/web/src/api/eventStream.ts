import { useEffect, useRef } from 'react';
import { openStream } from './http.ts';

/** After a stream ends or fails, the next try waits this long (the server's retry hint). */
const RETRY_MS = 3_000;

/**
 * The `event` messages of a server-sent event stream, parsed, while the component is mounted and
 * `url` is set (read through fetch so it carries the token and enterprise headers, which
 * EventSource cannot send). Reconnects after a drop; a new url or `scope` (the enterprise the
 * headers name, say) gets a new stream.
 */
export function useEventStream<T>(url: string | null, event: string, onData: (data: T) => void, scope?: unknown) {
  const handler = useRef(onData);
  handler.current = onData;
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const line = new RegExp(`^event: ${event}$`, 'm');
    const connect = async () => {
      const response = await openStream(url, controller.signal);
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
              if (line.test(block)) {
                const data = /^data: (.*)$/m.exec(block)?.[1];
                if (data) handler.current(JSON.parse(data) as T);
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
  }, [url, event, scope]);
}
