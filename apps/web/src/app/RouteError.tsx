import { useNavigate, useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A route that failed to load (chunk timeout or network) or threw while rendering. */
export default function RouteError() {
  const error = useRouteError() as Error | undefined;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isChunk = error?.name === 'ChunkLoadError' || /dynamically imported module|Importing a module script failed/i.test(error?.message ?? '');
  return (
    <Result
      status={isChunk ? 'warning' : '500'}
      title={isChunk ? t('exception.chunkTitle') : t('exception.e500')}
      subTitle={isChunk ? t('exception.chunkDescription') : error?.message}
      extra={[
        <Button key="retry" type="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>,
        <Button key="home" onClick={() => navigate('/')}>
          {t('exception.backHome')}
        </Button>,
      ]}
    />
  );
}
