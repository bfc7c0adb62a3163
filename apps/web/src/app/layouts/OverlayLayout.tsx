import { useTranslation } from 'react-i18next';
import { ConsoleLayout } from './ConsoleLayout.tsx';
import { BackToProjects } from './BackToProjects.tsx';

/** Overlay layout: a full-map workspace of a project, with a link back to project management. */
export default function OverlayLayout() {
  const { t } = useTranslation();
  return <ConsoleLayout headerExtra={<BackToProjects />} subtitle={t('menu.poiControl')} fullBleed />;
}
export { OverlayLayout };
