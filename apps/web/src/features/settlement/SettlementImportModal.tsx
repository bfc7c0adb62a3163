import { Form, Input, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dateOfField, ORBIT_DIRECTIONS, SETTLEMENT_DIRECTIONS, SETTLEMENT_IMPORT_FIELDS, type ImportJobView } from '@console/contract';
import { projectApi } from '../../api/projects.ts';
import { settlementApi } from '../../api/settlement.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';

/** The date columns an analysed file holds, said before the import starts. */
function DateColumns({ job }: { job: ImportJobView }) {
  const { t } = useTranslation();
  const dates = job.fields.map((f) => dateOfField(f.name)).filter((d): d is string => Boolean(d)).sort();
  if (!dates.length) return null;
  return <Typography.Paragraph type="secondary" data-testid="settlement-import-dates">{t('settlement.import.dates', { count: dates.length, from: dates[0], to: dates[dates.length - 1] })}</Typography.Paragraph>;
}

/** Importing an InSAR dataset: the shared import steps with the dataset's name, project, sensor, track and direction. */
export function SettlementImportModal({ open, onClose, onImported }: { open: boolean; onClose(): void; onImported(job: ImportJobView): void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}), enabled: open });
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['settlement'],
        title: t('settlement.import.title'),
        api: { upload: settlementApi.importUpload, start: (id, values) => settlementApi.importStart(id, values as never), job: settlementApi.importJob, recent: settlementApi.imports },
        fields: SETTLEMENT_IMPORT_FIELDS,
        fieldLabel: (field) => t(`settlement.import.fields.${field}`),
        required: { velocity: t('settlement.import.velocityRequired') },
        initialValues: (job) => ({ name: job.fileName.replace(/\.[^.]+$/, ''), direction: 'los', sensor: /egms/i.test(job.fileName) ? 'Sentinel-1' : undefined }),
        invalidate: ['settlement', enterpriseID],
        succeeded: (job) => ({ title: t('settlement.import.succeeded', { count: job.rowsWritten }), detail: t('settlement.import.succeededDetail', { file: job.fileName }) }),
        extra: (job) => (
          <>
            <DateColumns job={job} />
            <Form.Item name="name" label={t('settlement.import.name')} rules={[{ required: true, whitespace: true, message: t('settlement.import.nameRequired') }]} style={{ marginBottom: 10 }}>
              <Input maxLength={100} data-testid="settlement-import-name" />
            </Form.Item>
            <Form.Item name="projectId" label={t('settlement.import.project')} style={{ marginBottom: 10 }}>
              <Select allowClear options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} />
            </Form.Item>
            <Form.Item name="provider" label={t('settlement.import.provider')} style={{ marginBottom: 10 }}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item label={t('settlement.import.sensor')} style={{ marginBottom: 10 }}>
              <Input.Group compact>
                <Form.Item name="sensor" noStyle>
                  <Input maxLength={60} style={{ width: '40%' }} placeholder={t('settlement.import.sensor')} />
                </Form.Item>
                <Form.Item name="track" noStyle>
                  <Input maxLength={20} style={{ width: '25%' }} placeholder={t('settlement.import.track')} />
                </Form.Item>
                <Form.Item name="orbit" noStyle>
                  <Select aria-label={t('settlement.import.orbit')} allowClear style={{ width: '35%' }} placeholder={t('settlement.import.orbit')} options={ORBIT_DIRECTIONS.map((o) => ({ value: o, label: t(`settlement.orbit.${o}`) }))} />
                </Form.Item>
              </Input.Group>
            </Form.Item>
            <Form.Item name="referencePoint" label={t('settlement.import.referencePoint')} style={{ marginBottom: 10 }}>
              <Input maxLength={100} placeholder={t('settlement.import.referencePointHint')} />
            </Form.Item>
            <Form.Item name="direction" label={t('settlement.import.direction')} style={{ marginBottom: 0 }}>
              <Select options={SETTLEMENT_DIRECTIONS.map((d) => ({ value: d, label: t(`settlement.direction.${d}`) }))} />
            </Form.Item>
          </>
        ),
      }}
    />
  );
}
