import { Divider, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACQUISITION_IMPORT_FIELDS, ACQUISITION_MODES, ACQUISITION_STATUSES, ORBIT_DIRECTIONS, POLARISATIONS, SATELLITES, type ImportJobView } from '@console/contract';
import { leakApi } from '../../api/leaks.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';
import './saocomMessages.ts';

/**
 * Importing a scene list (a catalogue export with footprints): the shared import steps with the
 * scene attributes, and values for the attributes the file does not carry.
 */
export function AcquisitionImportModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (job: ImportJobView) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const choice = (name: string, label: string, values: readonly string[], text: (value: string) => string) => (
    <Form.Item name={name} label={label} style={{ marginBottom: 10 }}>
      <Select allowClear options={values.map((value) => ({ value, label: text(value) }))} data-testid={`scene-import-${name}`} />
    </Form.Item>
  );
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['saocom'],
        title: t('saocom.import.title'),
        api: { upload: leakApi.acquisitionImportUpload, start: leakApi.acquisitionImportStart, job: leakApi.acquisitionImportJob, recent: leakApi.acquisitionImports },
        fields: ACQUISITION_IMPORT_FIELDS,
        fieldLabel: (field) => t(`saocom.import.fields.${field}`),
        required: { productId: t('saocom.import.productIdRequired'), acquiredAt: t('saocom.import.acquiredAtRequired') },
        initialValues: () => ({ status: 'acquired' }),
        invalidate: ['saocom', enterpriseID],
        succeeded: (job) => ({
          title: t('saocom.import.succeeded', { count: job.rowsWritten }),
          detail: t('saocom.import.succeededDetail', { inserted: job.result?.inserted ?? 0, updated: job.result?.updated ?? 0, file: job.fileName }),
        }),
        extra: (
          <>
            <Divider orientation="left" plain style={{ margin: '8px 0' }}>{t('saocom.import.defaults')}</Divider>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{t('saocom.import.defaultsHint')}</Typography.Paragraph>
            <Form.Item name="satellite" label={t('saocom.satellite')} style={{ marginBottom: 10 }}>
              <Input list="scene-import-satellites" maxLength={40} allowClear data-testid="scene-import-satellite" />
            </Form.Item>
            <datalist id="scene-import-satellites">
              {SATELLITES.map((s) => <option key={s} value={s} />)}
            </datalist>
            {choice('orbitDirection', t('saocom.orbit'), ORBIT_DIRECTIONS, (v) => t(`saocom.orbits.${v}`))}
            {choice('mode', t('saocom.mode'), ACQUISITION_MODES, (v) => v)}
            {choice('polarisation', t('saocom.polarisation'), POLARISATIONS, (v) => t(`saocom.polarisations.${v}`))}
            {choice('status', t('saocom.statusTitle'), ACQUISITION_STATUSES, (v) => t(`saocom.status.${v}`))}
          </>
        ),
      }}
    />
  );
}
