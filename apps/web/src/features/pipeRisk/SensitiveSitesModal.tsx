import { useState } from 'react';
import { Button, Form, Modal, Select, Space, Table, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SENSITIVE_IMPORT_FIELDS, SENSITIVE_KINDS, type SensitiveSite } from '@console/contract';
import { pipeRiskApi } from '../../api/pipeRisk.ts';
import { useActionVisible } from '../../components/Authorized.tsx';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';

/**
 * The enterprise's sensitive sites (schools, hospitals, stations...), the layer the consequence
 * of a segment near them is scored from; an import replaces it whole.
 */
export function SensitiveSitesModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const canImport = useActionVisible('import');
  const [importing, setImporting] = useState(false);
  const sites = useQuery({ queryKey: ['pipe-risk', enterpriseID, 'sensitive'], queryFn: pipeRiskApi.sensitiveSites, enabled: open });
  const list = sites.data?.result ?? [];
  return (
    <Modal open={open} title={t('pipeRisk.sensitive.title', { count: list.length })} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>{t('pipeRisk.sensitive.hint')}</Typography.Paragraph>
        {canImport && (
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="sensitive-import">
            {t('pipeRisk.sensitive.import')}
          </Button>
        )}
        <Table<SensitiveSite>
          rowKey="id"
          size="small"
          loading={sites.isFetching}
          dataSource={list}
          pagination={{ pageSize: 10, size: 'small' }}
          locale={{ emptyText: t('pipeRisk.sensitive.empty') }}
          data-testid="sensitive-list"
          columns={[
            { title: t('pipeRisk.sensitive.name'), dataIndex: 'name' },
            { title: t('pipeRisk.sensitive.kind'), dataIndex: 'kind', render: (v: SensitiveSite['kind']) => t(`pipeRisk.sensitiveKind.${v}`) },
            { title: 'lon, lat', key: 'at', render: (_: unknown, s: SensitiveSite) => `${s.lon.toFixed(5)}, ${s.lat.toFixed(5)}` },
          ]}
        />
      </Space>
      <ImportModal
        open={importing}
        onClose={() => setImporting(false)}
        onImported={() => setImporting(false)}
        kind={{
          queryKey: ['sensitiveSites'],
          title: t('pipeRisk.sensitive.importTitle'),
          api: { upload: pipeRiskApi.sensitiveUpload, start: pipeRiskApi.sensitiveStart, job: pipeRiskApi.sensitiveJob },
          fields: SENSITIVE_IMPORT_FIELDS,
          fieldLabel: (field) => t(`pipeRisk.sensitive.fields.${field}`),
          required: { name: t('pipeRisk.sensitive.nameRequired') },
          initialValues: () => ({ kind: 'other' }),
          invalidate: ['pipe-risk', enterpriseID],
          succeeded: (job) => ({ title: t('pipeRisk.sensitive.succeeded', { count: job.rowsWritten }), detail: t('pipeRisk.sensitive.succeededDetail', { file: job.fileName }) }),
          extra: (
            <Form.Item name="kind" label={t('pipeRisk.sensitive.defaultKind')} style={{ marginBottom: 0 }}>
              <Select options={SENSITIVE_KINDS.map((k) => ({ value: k, label: t(`pipeRisk.sensitiveKind.${k}`) }))} />
            </Form.Item>
          ),
        }}
      />
    </Modal>
  );
}
