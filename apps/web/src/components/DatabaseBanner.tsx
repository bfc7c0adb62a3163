import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDatabaseDown } from '../api/databaseState.ts';

/** One banner while the server's database is away (instead of an error per request); gone when it is back. */
export function DatabaseBanner() {
  const { t } = useTranslation();
  const down = useDatabaseDown();
  if (!down) return null;
  return <Alert data-testid="database-banner" banner type="warning" showIcon message={t('http.databaseDown')} style={{ marginBottom: 12 }} />;
}
