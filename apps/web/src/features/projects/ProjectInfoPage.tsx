import { useTranslation } from 'react-i18next';
import { PageShell } from '../../components/PageShell.tsx';

export default function ProjectInfoPage() {
  const { t } = useTranslation();
  return <PageShell description={t('page.projectInfo')} />;
}
