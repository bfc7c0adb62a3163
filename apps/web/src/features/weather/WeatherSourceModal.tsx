import { useEffect } from 'react';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Radio, Space, message } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { errorMessage } from '../../api/http.ts';
import { weatherApi, type WeatherSource } from '../../api/weather.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';

/** An http(s) address (intranet hosts and ports too, which antd's url rule refuses). */
function isHttpUrl(value: string | undefined) {
  try {
    return /^https?:$/.test(new URL(value ?? '').protocol);
  } catch {
    return false;
  }
}

/**
 * Where the enterprise's weather comes from (admins): files only, or an Open-Meteo-compatible
 * service the server fetches for every project area on a schedule; with the last fetch and "fetch now".
 */
export function WeatherSourceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const allowClick = useClickGuard();
  const [form] = Form.useForm<Pick<WeatherSource, 'provider' | 'url' | 'everyMinutes'>>();
  const source = useQuery({ queryKey: ['weather', enterpriseID, 'source'], queryFn: weatherApi.source, enabled: open });
  const provider = Form.useWatch('provider', form);
  useEffect(() => {
    if (open && source.data) form.setFieldsValue(source.data.result);
  }, [open, source.data, form]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['weather', enterpriseID] });
  const save = useMutation({
    mutationFn: (values: Pick<WeatherSource, 'provider' | 'url' | 'everyMinutes'>) => weatherApi.saveSource({ ...values, url: values.provider === 'openMeteo' ? values.url : null }),
    onSuccess: (response) => {
      message.success(response.message);
      void refresh();
    },
    onError: (error) => message.error(errorMessage(error)),
  });
  const fetchNow = useMutation({
    mutationFn: weatherApi.fetchNow,
    onSuccess: (response) => {
      message.success(t('weather.source.fetched', response.result));
      void refresh();
    },
    onError: (error) => {
      message.error(errorMessage(error));
      void refresh();
    },
  });
  const current = source.data?.result;
  return (
    <Modal open={open} title={t('weather.source.title')} onCancel={onClose} footer={null} destroyOnHidden width={560}>
      <Form form={form} layout="vertical" name="weather-source" onFinish={(values) => allowClick() && save.mutate(values)}>
        <Form.Item name="provider" label={t('weather.source.provider')}>
          <Radio.Group options={[{ value: 'files', label: t('weather.source.files') }, { value: 'openMeteo', label: t('weather.source.openMeteo') }]} data-testid="weather-source-provider" />
        </Form.Item>
        {provider === 'openMeteo' && (
          <>
            <Form.Item name="url" label={t('weather.source.url')} extra={t('weather.source.urlHelp')} rules={[{ required: true, validator: (_, value: string | undefined) => (isHttpUrl(value) ? Promise.resolve() : Promise.reject(new Error(t('weather.source.urlRequired')))) }]}>
              <Input placeholder="https://api.open-meteo.com" maxLength={500} data-testid="weather-source-url" />
            </Form.Item>
            <Form.Item name="everyMinutes" label={t('weather.source.every')}>
              <InputNumber min={15} max={1440} addonAfter={t('weather.source.minutes')} />
            </Form.Item>
          </>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="weather-source-save">{t('weather.source.save')}</Button>
          {current?.provider === 'openMeteo' && (
            <Button onClick={() => allowClick() && fetchNow.mutate()} loading={fetchNow.isPending || current.fetching} data-testid="weather-source-fetch">
              {t('weather.source.fetchNow')}
            </Button>
          )}
        </Space>
      </Form>
      {current?.provider === 'openMeteo' && (
        <Descriptions size="small" column={1} style={{ marginTop: 16 }}>
          <Descriptions.Item label={t('weather.source.lastFetch')}>{current.lastFetchAt ? dayjs(current.lastFetchAt).format('YYYY-MM-DD HH:mm') : t('weather.source.never')}</Descriptions.Item>
        </Descriptions>
      )}
      {current?.lastError && <Alert type="warning" showIcon message={t('weather.source.lastError')} description={current.lastError} />}
    </Modal>
  );
}
