import { Form, Input, InputNumber, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DEFAULT_POI_RADIUS_M, POI_IMPORT_FIELDS, type ImportJobView } from '@console/contract';
import { leakApi } from '../../api/leaks.ts';
import { projectApi } from '../../api/projects.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';
import './leakMessages.ts';

/** Importing a POI delivery for a project: the shared import steps with the delivery's project, scene, name and radius. */
export function PoiImportModal({ open, projectId, onClose, onImported }: { open: boolean; projectId?: number; onClose: () => void; onImported: (job: ImportJobView) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}), enabled: open });
  const acquisitions = useQuery({ queryKey: ['leaks', enterpriseID, 'acquisitions', projectId], queryFn: () => leakApi.acquisitions(projectId), enabled: open });
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['leaks'],
        title: t('leak.import.title'),
        api: { upload: leakApi.importUpload, start: leakApi.importStart, job: leakApi.importJob },
        fields: POI_IMPORT_FIELDS,
        fieldLabel: (field) => t(`leak.import.fields.${field}`),
        required: {},
        initialValues: (job) => ({ projectId, name: job.fileName.replace(/\.[^.]+$/, ''), defaultRadiusM: DEFAULT_POI_RADIUS_M }),
        invalidate: ['leaks', enterpriseID],
        succeeded: (job) => ({ title: t('leak.import.succeeded', { count: job.rowsWritten }), detail: t('leak.import.succeededDetail', { file: job.fileName }) }),
        extra: (
          <>
            <Form.Item name="projectId" label={t('leak.project')} rules={[{ required: true, message: t('leak.import.projectRequired') }]} style={{ marginBottom: 10 }}>
              <Select options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} data-testid="poi-import-project" />
            </Form.Item>
            <Form.Item name="acquisitionId" label={t('leak.import.acquisition')} style={{ marginBottom: 10 }}>
              <Select allowClear options={(acquisitions.data?.result ?? []).map((a) => ({ value: a.id, label: `${a.satellite} ${dayjs(a.acquiredAt).format('YYYY-MM-DD')}` }))} />
            </Form.Item>
            <Form.Item name="name" label={t('leak.import.name')} rules={[{ required: true, whitespace: true, message: t('leak.import.nameRequired') }]} style={{ marginBottom: 10 }}>
              <Input maxLength={100} data-testid="poi-import-name" />
            </Form.Item>
            <Form.Item name="defaultRadiusM" label={t('leak.import.radius')} extra={t('leak.import.radiusHint')} style={{ marginBottom: 0 }}>
              <InputNumber min={10} max={1000} addonAfter="m" />
            </Form.Item>
          </>
        ),
      }}
    />
  );
}
