import { Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SENSOR_IMPORT_FIELDS, SENSOR_KINDS, type ImportJobView } from '@console/contract';
import { sensorApi } from '../../api/sensors.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';

/** Importing a device register: the shared import steps, with the kind and interval the file may not give. */
export function SensorImportModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (job: ImportJobView) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const kinds = SENSOR_KINDS.map((k) => ({ value: k, label: t(`sensors.kind.${k}`) }));
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['sensors'],
        title: t('sensors.importModal.title'),
        api: { upload: sensorApi.importUpload, start: sensorApi.importStart, job: sensorApi.importJob },
        fields: SENSOR_IMPORT_FIELDS,
        fieldLabel: (field) => t(`sensors.importModal.fields.${field}`),
        required: { code: t('sensors.importModal.codeRequired') },
        initialValues: () => ({ intervalSeconds: 60 }),
        invalidate: ['sensors', enterpriseID],
        wordOptions: { sensorKind: kinds },
        succeeded: (job) => ({
          title: t('sensors.importModal.succeeded', { count: job.rowsWritten }),
          detail: t('sensors.importModal.succeededDetail', { inserted: job.result?.inserted ?? 0, updated: job.result?.updated ?? 0, file: job.fileName }),
        }),
        extra: (
          <>
            <Form.Item name="kind" label={t('sensors.importModal.kind')} style={{ marginBottom: 10 }}>
              <Select allowClear options={kinds} placeholder={t('sensors.importModal.kindFromFile')} />
            </Form.Item>
            <Form.Item name="intervalSeconds" label={t('sensors.importModal.interval')} style={{ marginBottom: 0 }}>
              <InputNumber min={1} max={86_400} style={{ width: 160 }} />
            </Form.Item>
          </>
        ),
      }}
    />
  );
}
