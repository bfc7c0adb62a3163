import { useEffect, useState } from 'react';
import { Button, Card, DatePicker, Drawer, Dropdown, Space, Table, Typography, message } from 'antd';
import { DownloadOutlined, FileTextOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { LANGUAGES, type Language, type ReportBlock, type ReportRow } from '@console/contract';
import { reportApi } from '../../api/reports.ts';
import { errorMessage } from '../../api/http.ts';
import { Authorized } from '../../components/Authorized.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { useTableCards } from '../../components/tableCards.ts';
import { usePhone } from '../../components/usePhone.ts';
import { currentLanguage, loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { saveBlob } from '../../utils/download.ts';

await loadNamespace('reports', { 'zh-CN': () => import('../../locales/reports/zh-CN.ts'), 'en-US': () => import('../../locales/reports/en-US.ts') });

/** Downloads a report's PDF in a language, under the name the server gives it. */
async function downloadPdf(report: ReportRow, lang: Language) {
  try {
    saveBlob(await reportApi.pdf(report.id, lang), `risk-report-${report.month}-${lang}.pdf`);
  } catch (error) {
    message.error(errorMessage(error));
  }
}

function PdfButton({ report, testId }: { report: ReportRow; testId: string }) {
  const { t } = useTranslation();
  return (
    <Dropdown menu={{ items: LANGUAGES.map((lang) => ({ key: lang, label: t(`reports.pdfIn.${lang}`), onClick: () => void downloadPdf(report, lang) })) }}>
      <Button size="small" icon={<DownloadOutlined />} data-testid={testId}>
        {t('reports.pdf')}
      </Button>
    </Dropdown>
  );
}

/**
 * The monthly risk reports: the list (latest month first), making one on demand, and each
 * report read as a page in the console, drawn from the same blocks as its PDF.
 */
export default function ReportsPage() {
  const { t } = useTranslation();
  const enterpriseId = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const allowClick = useClickGuard();
  const cards = useTableCards<ReportRow>({ x: 900 });
  // Opened in place (an address per report would open a tab each); a channel's message links ?report=.
  const [params] = useSearchParams();
  const linked = Number(params.get('report')) || null;
  const [openId, setOpenId] = useState<number | null>(linked);
  useEffect(() => {
    if (linked) setOpenId(linked);
  }, [linked]);
  const [month, setMonth] = useState<Dayjs>(() => dayjs().subtract(1, 'month'));
  const [making, setMaking] = useState(false);
  const reports = useQuery({ queryKey: ['reports', enterpriseId], queryFn: reportApi.list });

  const make = async () => {
    if (!allowClick()) return;
    setMaking(true);
    try {
      const response = await reportApi.make(month.format('YYYY-MM'));
      message.success(response.message);
      await queryClient.invalidateQueries({ queryKey: ['reports', enterpriseId] });
      setOpenId(response.result.id);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setMaking(false);
    }
  };

  return (
    <Card title={t('reports.title')}>
      <Typography.Paragraph type="secondary">{t('reports.intro')}</Typography.Paragraph>
      <Authorized action="add">
        <Space wrap style={{ marginBottom: 16 }}>
          <DatePicker picker="month" value={month} onChange={(value) => value && setMonth(value)} allowClear={false} disabledDate={(d) => d.isAfter(dayjs(), 'month')} aria-label={t('reports.month')} data-testid="report-month" />
          <Button type="primary" icon={<FileTextOutlined />} loading={making} onClick={make} data-testid="report-make">
            {t('reports.make')}
          </Button>
        </Space>
      </Authorized>
      <Table<ReportRow>
        rowKey="id"
        size="middle"
        loading={reports.isLoading}
        dataSource={reports.data ?? []}
        pagination={false}
        // In the text's own colour: the table's placeholder grey is below AA contrast for a sentence.
        locale={{ emptyText: <Typography.Text>{t('reports.empty')}</Typography.Text> }}
        data-testid="report-list"
        {...cards.tableProps}
        columns={cards.cards([
          { title: t('reports.month'), dataIndex: 'month', render: (month: string, r) => <Typography.Link onClick={() => setOpenId(r.id)}>{month}</Typography.Link> },
          { title: t('reports.made'), dataIndex: 'createdAt', render: (at: string, r) => `${dayjs(at).format('YYYY-MM-DD HH:mm')} · ${t(`reports.trigger.${r.trigger}`)}` },
          { title: t('reports.by'), dataIndex: 'createdBy', render: (by: string | null) => by ?? t('reports.system') },
          { title: t('reports.incidents'), dataIndex: 'incidents', align: 'right' },
          { title: t('reports.bowls'), dataIndex: 'bowls', align: 'right' },
          { title: t('reports.warnings'), dataIndex: 'warnings', align: 'right' },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, r) => (
              <Space>
                <Button size="small" onClick={() => setOpenId(r.id)} data-testid="report-open">
                  {t('reports.open')}
                </Button>
                <PdfButton report={r} testId="report-pdf" />
              </Space>
            ),
          },
        ])}
      />
      {openId && <ReportDrawer id={openId} onClose={() => setOpenId(null)} />}
    </Card>
  );
}

/** One report as a page: its blocks in the reader's language, with its PDF in either. */
function ReportDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const phone = usePhone();
  const lang = currentLanguage();
  const page = useQuery({ queryKey: ['reports', 'page', id, lang], queryFn: () => reportApi.page(id, lang) });
  const title = page.data?.blocks[0]?.kind === 'title' ? page.data.blocks[0].text : ' ';
  return (
    <Drawer open onClose={onClose} width={phone ? '100%' : 860} title={title} loading={page.isLoading} extra={page.data && <PdfButton report={page.data.report} testId="report-drawer-pdf" />} styles={{ body: { padding: 0, overflow: 'hidden' } }} data-testid="report-drawer">
      {/* The report scrolls in a region of its own that the keyboard can reach and scroll. */}
      <div role="region" aria-label={title} tabIndex={0} style={{ height: '100%', overflow: 'auto', padding: 24 }}>
        {page.error && <Typography.Text type="danger">{errorMessage(page.error)}</Typography.Text>}
        {page.data?.blocks.map((block, i) => <Block key={i} block={block} />)}
      </div>
    </Drawer>
  );
}

function Block({ block }: { block: ReportBlock }) {
  switch (block.kind) {
    case 'title':
      return (
        <div style={{ marginBottom: 16 }}>
          {block.lines.map((line) => (
            <Typography.Text key={line} type="secondary" style={{ display: 'block' }}>
              {line}
            </Typography.Text>
          ))}
        </div>
      );
    case 'heading':
      return (
        <Typography.Title level={4} style={{ marginTop: 24 }}>
          {block.text}
        </Typography.Title>
      );
    case 'paragraph':
      return <Typography.Paragraph>{block.text}</Typography.Paragraph>;
    case 'drawing':
      // The server's SVG (ECharts' own renderer, the basemap's palette); its text is escaped there.
      return <div className="report-drawing" style={{ maxWidth: block.width, marginBottom: 12 }} dangerouslySetInnerHTML={{ __html: block.svg.replace(/<svg /, '<svg style="max-width:100%;height:auto" ') }} />;
    case 'table':
      return (
        <div style={{ marginBottom: 12 }}>
          <Table
            size="small"
            pagination={false}
            rowKey={(_, i) => String(i)}
            dataSource={block.rows.map((cells) => Object.fromEntries(cells.map((cell, i) => [String(i), cell])))}
            columns={block.columns.map((column, i) => ({ title: column.title, dataIndex: String(i), align: column.align }))}
            scroll={{ x: 'max-content' }}
          />
          {block.more && <Typography.Text type="secondary">{block.more}</Typography.Text>}
        </div>
      );
  }
}
