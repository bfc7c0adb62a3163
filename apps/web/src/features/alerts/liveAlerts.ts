import type { IncidentLiveEvent } from '@console/contract';
import { useEventStream } from '../../api/eventStream.ts';
import { loadNamespace } from '../../locales/index.ts';

/** The alert messages, for every screen that names alerts (the bell, the big screen). */
export const loadAlertMessages = () => loadNamespace('alerts', { 'zh-CN': () => import('../../locales/alerts/zh-CN.ts'), 'en-US': () => import('../../locales/alerts/en-US.ts') });

/**
 * Incidents of the current enterprise as they are raised and change, from the server's event
 * stream; a new enterprise gets a new stream.
 */
export function useLiveAlerts(enterpriseId: number | null, enabled: boolean, onEvent: (event: IncidentLiveEvent) => void) {
  useEventStream<IncidentLiveEvent>(enterpriseId && enabled ? '/alerts/live' : null, 'alert', onEvent, enterpriseId);
}
