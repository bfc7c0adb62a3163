import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { WechatOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export default function WechatPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      icon={<WechatOutlined style={{ color: '#07c160' }} />}
      title={t('exception.wechatTitle')}
      subTitle={t('exception.wechatDescription')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('exception.backHome')}
        </Button>
      }
    />
  );
}
