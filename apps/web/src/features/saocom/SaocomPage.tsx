import { useTranslation } from 'react-i18next';
import { PageShell } from '../../components/PageShell.tsx';

export default function SaocomPage() {
  const { t } = useTranslation();
  return <PageShell description={t('page.saocom')} />;
}
