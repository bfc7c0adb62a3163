import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code loads when it first renders, not with the page that holds it (a chart
 * tab, a dialog, the error page): React.lazy for a named export, with `fallback` while it loads.
 * (No antd here: the sign-in page uses it too.)
 */
export function later<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null) {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function Later(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

/** True from the first time `open` is true: a dialog is mounted (and its code loaded) only once opened, then kept to close with its animation. */
export function useOpenedOnce(open: boolean) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
