import { Button, Dropdown, message } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/http.ts';
import { saveBlob } from '../utils/download.ts';

export const EXPORT_FORMATS = ['geojson', 'csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An Export button whose menu downloads what the page shows as GeoJSON, CSV (WKT) or XLSX. */
export function ExportMenu({ fetch, baseName, testId }: { fetch: (format: ExportFormat) => Promise<Blob>; baseName: string; testId: string }) {
  const { t } = useTranslation();
  const download = async (format: ExportFormat) => {
    try {
      saveBlob(await fetch(format), `${baseName}.${format}`);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };
  return (
    <Dropdown menu={{ items: EXPORT_FORMATS.map((f) => ({ key: f, label: <span data-testid={`${testId}-${f}`}>{f.toUpperCase()}</span> })), onClick: ({ key }) => void download(key as ExportFormat) }}>
      <Button icon={<DownloadOutlined />} data-testid={testId}>
        {t('pipeline.export')}
      </Button>
    </Dropdown>
  );
}
