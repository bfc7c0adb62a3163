import { useRef } from 'react';
import { Button, notification, type ButtonProps } from 'antd';
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
      notification.warning({ message: t('common.clickTooFastTitle'), description: t('common.clickTooFast') });
      return false;
    }
    last.current = now;
    return true;
  };
}

/** A button that ignores a second click within one second. For submit buttons, prefer it to Button. */
export function GuardedButton({ onClick, htmlType, ...props }: ButtonProps) {
  const allow = useClickGuard();
  return (
    <Button
      {...props}
      htmlType={htmlType}
      onClick={(event) => {
        if (!allow()) {
          event.preventDefault();
          event.stopPropagation();
          return;
        }
        onClick?.(event);
      }}
    />
  );
}
