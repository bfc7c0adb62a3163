import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '../../routing/routeMeta.ts';
import { ConsoleLayout } from './ConsoleLayout.tsx';

/** System layout: product introduction and the platform administrator's pages; the subtitle names the page. */
export default function SystemLayout() {
  const { t } = useTranslation();
  const meta = useRouteMeta();
  return <ConsoleLayout subtitle={t(meta?.title ?? 'menu.productionIntroduction')} />;
}
export { SystemLayout };
