import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PreferenceKey } from '@console/contract';
import { preferenceApi } from '../api/preferences.ts';
import { useSession } from '../stores/session.ts';

const SAVE_AFTER_MS = 600;

/**
 * A choice of the signed-in user kept on the server, so it follows them to any browser: the
 * stored value (or `defaults` before they choose), and a setter that saves a moment after the
 * last change (dragging a slider saves once).
 */
export function usePreference<T>(key: PreferenceKey, defaults: T): { value: T; set: (value: T) => void; loaded: boolean } {
  const username = useSession((s) => s.info?.username);
  const stored = useQuery({ queryKey: ['preferences', username, key], queryFn: () => preferenceApi.get<T>(key), staleTime: Infinity, enabled: Boolean(username) });
  const [local, setLocal] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const set = (value: T) => {
    setLocal(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void preferenceApi.save(key, value).then(() => stored.refetch()), SAVE_AFTER_MS);
  };
  return { value: local ?? stored.data?.result ?? defaults, set, loaded: !stored.isPending };
}
