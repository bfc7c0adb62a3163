import { Form, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { IMPORT_MODES, NETWORK_TYPES, PIPE_IMPORT_FIELDS, type ImportJobView } from '@console/contract';
import { pipelineApi } from '../../api/pipelines.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';
import './pipelineImportMessages.ts';

/** Importing a pipe network: the shared import steps with pipe attributes, a default network type and the write mode. */
export function PipeImportModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (job: ImportJobView) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['pipelines'],
        title: t('pipelineImport.title'),
        api: { upload: pipelineApi.importUpload, start: (id, values) => pipelineApi.importStart(id, values as never), job: pipelineApi.importJob, recent: pipelineApi.imports },
        fields: PIPE_IMPORT_FIELDS,
        fieldLabel: (field) => t(`pipelineImport.fields.${field}`),
        required: { pipeId: t('pipelineImport.pipeIdRequired') },
        initialValues: () => ({ mode: 'append', networkType: undefined }),
        invalidate: ['pipelines', enterpriseID],
        succeeded: (job) => ({
          title: t('pipelineImport.succeeded', { count: job.rowsWritten }),
          detail: t('pipelineImport.succeededDetail', { inserted: job.result?.inserted ?? 0, updated: job.result?.updated ?? 0, deleted: job.result?.deleted ?? 0, file: job.fileName }),
        }),
        extra: (
          <>
            <Form.Item name="networkType" label={t('pipelineImport.defaultNetwork')} extra={t('pipelineImport.defaultNetworkHint')} style={{ marginBottom: 10 }}>
              <Select allowClear options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} data-testid="import-network-default" />
            </Form.Item>
            <Form.Item name="mode" label={t('pipelineImport.mode')} style={{ marginBottom: 0 }}>
              <Radio.Group>
                <Space direction="vertical">
                  {IMPORT_MODES.map((mode) => (
                    <Radio key={mode} value={mode} data-testid={`import-mode-${mode}`}>
                      {t(`pipelineImport.modes.${mode}`)} <Typography.Text type="secondary">{t(`pipelineImport.modeHints.${mode}`)}</Typography.Text>
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
          </>
        ),
      }}
    />
  );
}
