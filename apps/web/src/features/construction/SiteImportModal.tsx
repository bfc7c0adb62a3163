import { Form, InputNumber, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BUILD_TYPES, SITE_IMPORT_FIELDS, SITE_SOURCES, type ImportJobView } from '@console/contract';
import { constructionApi } from '../../api/construction.ts';
import { projectApi } from '../../api/projects.ts';
import { ImportModal } from '../../components/ImportModal.tsx';
import { useSession } from '../../stores/session.ts';
import '../leaks/leakMessages.ts';

/** Importing a satellite or patrol delivery of sites: the shared import steps with the source, a build type and the radius of point sites. */
export function SiteImportModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (job: ImportJobView) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}), enabled: open });
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      kind={{
        queryKey: ['construction'],
        title: t('construction.importModal.title'),
        api: { upload: constructionApi.importUpload, start: constructionApi.importStart, job: constructionApi.importJob },
        fields: SITE_IMPORT_FIELDS,
        fieldLabel: (field) => t(`construction.importModal.fields.${field}`),
        required: {},
        initialValues: () => ({ source: 'satellite', buildType: 'other', defaultRadiusM: 20 }),
        invalidate: ['construction', enterpriseID],
        wordOptions: { buildType: BUILD_TYPES.map((b) => ({ value: b, label: t(`construction.buildType.${b}`) })) },
        succeeded: (job) => ({
          title: t('construction.importModal.succeeded', { count: job.rowsWritten }),
          detail: t('construction.importModal.succeededDetail', { inserted: job.result?.inserted ?? 0, updated: job.result?.updated ?? 0, file: job.fileName }),
        }),
        extra: (
          <>
            <Form.Item name="source" label={t('construction.importModal.source')} style={{ marginBottom: 10 }}>
              <Select options={SITE_SOURCES.map((s) => ({ value: s, label: t(`construction.source.${s}`) }))} data-testid="site-import-source" />
            </Form.Item>
            <Form.Item name="buildType" label={t('construction.importModal.buildType')} style={{ marginBottom: 10 }}>
              <Select options={BUILD_TYPES.map((b) => ({ value: b, label: t(`construction.buildType.${b}`) }))} />
            </Form.Item>
            <Form.Item name="projectId" label={t('leak.project')} style={{ marginBottom: 10 }}>
              <Select allowClear options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))} />
            </Form.Item>
            <Form.Item name="defaultRadiusM" label={t('construction.importModal.radius')} style={{ marginBottom: 0 }}>
              <InputNumber min={1} max={2000} addonAfter="m" />
            </Form.Item>
          </>
        ),
      }}
    />
  );
}
