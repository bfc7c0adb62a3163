import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { RISK_AREA_IMPORT_FIELDS, RISK_AREA_KINDS, RISK_AREA_SOURCES, RISK_LEVELS, type ImportJobView } from '@console/contract';
import { riskAreaApi } from '../../api/riskAreas.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';

/** Importing a register of risk-prone areas: the shared import steps with the kind, level and source the file may not give. */
export function AreaImportModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (job: ImportJobView) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['riskAreas'],
        title: t('riskAreas.importModal.title'),
        api: { upload: riskAreaApi.importUpload, start: riskAreaApi.importStart, job: riskAreaApi.importJob },
        fields: RISK_AREA_IMPORT_FIELDS,
        fieldLabel: (field) => t(`riskAreas.importModal.fields.${field}`),
        required: {},
        initialValues: () => ({ kind: 'waterlogging', level: 'III', source: 'survey' }),
        invalidate: ['riskAreas', enterpriseID],
        wordOptions: {
          riskKind: RISK_AREA_KINDS.map((k) => ({ value: k, label: t(`riskAreas.kind.${k}`) })),
          riskLevel: RISK_LEVELS.map((l) => ({ value: l, label: l })),
        },
        succeeded: (job) => ({ title: t('riskAreas.importModal.succeeded', { count: job.rowsWritten }), detail: t('riskAreas.importModal.succeededDetail', { file: job.fileName }) }),
        extra: (
          <>
            <Form.Item name="kind" label={t('riskAreas.importModal.kind')} style={{ marginBottom: 10 }}>
              <Select options={RISK_AREA_KINDS.map((k) => ({ value: k, label: t(`riskAreas.kind.${k}`) }))} />
            </Form.Item>
            <Form.Item name="level" label={t('riskAreas.importModal.level')} style={{ marginBottom: 10 }}>
              <Select options={RISK_LEVELS.map((l) => ({ value: l, label: l }))} />
            </Form.Item>
            <Form.Item name="source" label={t('riskAreas.form.source')} style={{ marginBottom: 0 }}>
              <Select options={RISK_AREA_SOURCES.map((s) => ({ value: s, label: t(`riskAreas.source.${s}`) }))} />
            </Form.Item>
          </>
        ),
      }}
    />
  );
}
