import { useRef } from 'react';
import { Button, type ButtonProps } from 'antd';
import { notify } from '../utils/notify.ts';
import { LoadingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The spec's button debounce: a second click within 1000 ms is ignored with a warning. */
export const CLICK_INTERVAL_MS = 1_000;

export function useClickGuard() {
  const last = useRef(0);
  const { t } = useTranslation();
  /** True when the click may go on; false (and a warning) when it came too soon. */
  return () => {
    const now = Date.now();
    if (now - last.current < CLICK_INTERVAL_MS) {
      notify.warning({ message: t('common.clickTooFastTitle'), description: t('common.clickTooFast') });
      return false;
    }
    last.current = now;
    return true;
  };
}

/**
 * A button that ignores a second click within one second (with the warning). While `loading`
 * it shows a spinner and ignores clicks, but stays clickable so a too-fast click still warns.
 */
export function GuardedButton({ onClick, loading, icon, ...props }: ButtonProps) {
  const allow = useClickGuard();
  const busy = Boolean(loading);
  return (
    <Button
      {...props}
      icon={busy ? <LoadingOutlined /> : icon}
      aria-busy={busy}
      onClick={(event) => {
        if (!allow() || busy) {
          event.preventDefault();
          event.stopPropagation();
          return;
        }
        onClick?.(event);
      }}
    />
  );
}
