import { useTranslation } from 'react-i18next';
import { ConsoleLayout } from './ConsoleLayout.tsx';

/** Satellite layout: the SAOCOM platform. */
export default function SatelliteLayout() {
  const { t } = useTranslation();
  return <ConsoleLayout subtitle={t('menu.saocom')} />;
}
export { SatelliteLayout };
