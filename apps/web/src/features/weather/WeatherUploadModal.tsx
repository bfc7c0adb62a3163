import { Button, Form, Input, Modal, Segmented, Select, Typography, Upload, message } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/http.ts';
import { projectApi } from '../../api/projects.ts';
import { weatherApi } from '../../api/weather.ts';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';

/**
 * Upload of a weather file: hours (Open-Meteo JSON or CSV, NOAA ISD CSV, station CSV) for the
 * station(s) it holds, or official warnings (CAP XML). The place fields are for a one-place file
 * that does not say where it is, the project for warnings without a polygon.
 */
export function WeatherUploadModal({ open, onClose, onKept }: { open: boolean; onClose: () => void; onKept: (placeId?: number) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const allowClick = useClickGuard();
  const [form] = Form.useForm<{ kind: 'observed' | 'forecast'; code?: string; name?: string; projectId?: number }>();
  const projects = useQuery({ queryKey: ['projects', enterpriseID, 'weather'], queryFn: () => projectApi.list({}), enabled: open });

  const send = async (file: File) => {
    if (!allowClick()) return;
    const values = await form.validateFields();
    try {
      const fields = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
      const { result } = await weatherApi.upload(file, fields);
      if ('hours' in result) message.success(t('weather.uploaded', result));
      else message.success(t('weather.uploadedCap', { ...result, skipped: result.skipped.length }));
      onClose();
      onKept('placeId' in result ? result.placeId : undefined);
      void queryClient.invalidateQueries({ queryKey: ['weather', enterpriseID] });
    } catch (error) {
      Modal.error({ title: t('weather.uploadTitle'), content: errorMessage(error) });
    }
  };

  return (
    <Modal open={open} title={t('weather.uploadTitle')} onCancel={onClose} footer={null} destroyOnHidden>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{t('weather.formats')}</Typography.Paragraph>
      <Form form={form} layout="vertical" name="weather-upload" initialValues={{ kind: 'observed' }}>
        <Form.Item name="kind" label={t('weather.kindLabel')}>
          <Segmented options={(['observed', 'forecast'] as const).map((k) => ({ value: k, label: t(`weather.kind.${k}`) }))} />
        </Form.Item>
        <Form.Item name="code" label={t('weather.code')}><Input maxLength={60} /></Form.Item>
        <Form.Item name="name" label={t('weather.name')}><Input maxLength={100} data-testid="weather-upload-name" /></Form.Item>
        <Form.Item name="projectId" label={t('weather.project')} extra={t('weather.projectHelp')}>
          <Select allowClear loading={projects.isLoading} options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))} />
        </Form.Item>
        <Upload accept=".json,.csv,.xml" showUploadList={false} beforeUpload={(file) => { void send(file); return false; }}>
          <Button type="primary" icon={<UploadOutlined />} data-testid="weather-upload-file">{t('weather.chooseFile')}</Button>
        </Upload>
      </Form>
    </Modal>
  );
}
