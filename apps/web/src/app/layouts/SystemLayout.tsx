import { useTranslation } from 'react-i18next';
import { ConsoleLayout } from './ConsoleLayout.tsx';

/** System layout: product introduction and other system pages. */
export default function SystemLayout() {
  const { t } = useTranslation();
  return <ConsoleLayout subtitle={t('menu.productionIntroduction')} />;
}
export { SystemLayout };
