import { useTranslation } from 'react-i18next';
import { PageShell } from '../../components/PageShell.tsx';

export default function SettlementPage() {
  const { t } = useTranslation();
  return <PageShell description={t('page.settlement')} />;
}
