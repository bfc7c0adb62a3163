import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What an empty list says: with filters set, that nothing matches them; without, what to do next
 * on this screen (`hint`, in the screen's words).
 */
export function ListEmpty({ filtered, hint }: { filtered: boolean; hint: string }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Typography.Text type="secondary" data-testid="list-empty" style={{ display: 'inline-block', maxWidth: 420 }}>{filtered ? t('common.noMatch') : hint}</Typography.Text>} />;
}

/** Whether any filter is set. */
export const anyFilter = (filters: object) => Object.values(filters).some((v) => v !== undefined && v !== '' && v !== false);
