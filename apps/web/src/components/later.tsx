import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Skeleton } from 'antd';

/**
 * A component whose code loads when it first renders, not with the page that holds it (a chart
 * tab, a dialog): React.lazy for a named export, with a skeleton while it loads.
 */
export function later<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <Skeleton active />) {
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
