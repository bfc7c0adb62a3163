import { useEffect } from 'react';
import { Button, Empty, Modal, Skeleton, Space } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { OPEN_POI_STATUSES } from '@console/contract';
import type { Project } from '../../api/projects.ts';
import { leakApi, type Delivery, type LeakMetrics, type Poi } from '../../api/leaks.ts';
import { Chart } from '../../components/Chart.tsx';
import { useSession } from '../../stores/session.ts';
import { materialLabel } from '../../utils/format.ts';
import { metricCharts, metricFigures } from './metricsCharts.ts';
import './surveyReport.css';
import './leakMessages.ts';

const day = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '-');

interface ReportProps {
  project: Project;
  period: [string | undefined, string | undefined];
  metrics: LeakMetrics;
  deliveries: Delivery[];
  pois: Poi[];
}

/** The printable survey report: what was delivered, found and repaired, the figures, and the work left. */
function ReportBody({ project, period, metrics, deliveries, pois }: ReportProps) {
  const { t } = useTranslation();
  const realname = useSession((s) => s.name);
  const enterprise = useSession((s) => s.enterprises?.find((e) => e.id === s.enterpriseID)?.enterpriseName);
  const leaks = pois.filter((p) => p.status === 'leakFound' || p.status === 'repaired').sort((a, b) => (a.foundAt ?? '').localeCompare(b.foundAt ?? ''));
  const open = pois.filter((p) => OPEN_POI_STATUSES.includes(p.status)).sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999'));
  const periodText = period[0] || period[1] ? `${period[0] ?? '…'} ~ ${period[1] ?? '…'}` : t('leak.report.allPeriods');
  return (
    <article className="survey-report" data-testid="survey-report">
      <header>
        <h1>{t('leak.report.title')}</h1>
        <h2>
          {project.name} <span className="muted">({project.code})</span>
        </h2>
        <dl className="report-meta">
          <dt>{t('leak.report.enterprise')}</dt>
          <dd>{enterprise ?? '-'}</dd>
          <dt>{t('leak.report.area')}</dt>
          <dd>{[project.city, project.district].filter(Boolean).join(' ') || '-'}</dd>
          <dt>{t('leak.report.period')}</dt>
          <dd data-testid="report-period">{periodText}</dd>
          <dt>{t('leak.report.prepared')}</dt>
          <dd>
            {realname} · {dayjs().format('YYYY-MM-DD HH:mm')}
          </dd>
        </dl>
      </header>

      <section>
        <h3>{t('leak.report.figures')}</h3>
        <div className="report-figures">
          {metricFigures(metrics).map(([key, value, unit]) => (
            <div key={key} className="report-figure" data-testid={`report-${key}`}>
              <div className="muted">{t(`leak.metrics.${key}`)}</div>
              <strong>
                {value}
                {unit ? ` ${unit}` : ''}
              </strong>
            </div>
          ))}
        </div>
        <p className="muted small">{t('leak.report.method')}</p>
      </section>

      <section className="report-charts">
        {metricCharts(metrics, t).map(({ key, option }) => (
          <div key={key} className="report-chart">
            <Chart option={option} height={220} print />
          </div>
        ))}
      </section>

      <section>
        <h3>{t('leak.report.deliveries', { count: deliveries.length })}</h3>
        <table>
          <thead>
            <tr>
              <th>{t('leak.import.name')}</th>
              <th>{t('leak.report.deliveredAt')}</th>
              <th className="num">{t('leak.report.poiCount')}</th>
              <th>{t('leak.report.file')}</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td>{d.name}</td>
                <td>{day(d.deliveredAt)}</td>
                <td className="num">{d.poiCount}</td>
                <td>{d.fileName ?? '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section>
        <h3>{t('leak.report.leaks', { count: leaks.length })}</h3>
        {leaks.length === 0 ? (
          <p className="muted">{t('leak.report.none')}</p>
        ) : (
          <table data-testid="report-leaks">
            <thead>
              <tr>
                <th>{t('leak.poi')}</th>
                <th>{t('leak.report.foundAt')}</th>
                <th>{t('leak.leakType')}</th>
                <th>{t('leak.report.material')}</th>
                <th className="num">DN</th>
                <th className="num">{t('leak.report.flow')}</th>
                <th>{t('leak.surfacing')}</th>
                <th>{t('leak.report.repairedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {leaks.map((p) => (
                <tr key={p.id}>
                  <td>{p.poiNo}</td>
                  <td>{day(p.foundAt)}</td>
                  <td>{p.finding?.leakType ? t(`leak.leakTypes.${p.finding.leakType}`) : '-'}</td>
                  <td>{p.finding?.pipeMaterial ? materialLabel(t, p.finding.pipeMaterial) : '-'}</td>
                  <td className="num">{p.finding?.pipeDiameterMm ?? '-'}</td>
                  <td className="num">{p.finding?.flowM3h ?? '-'}</td>
                  <td>{p.finding?.surfacing === undefined ? '-' : t(p.finding.surfacing ? 'leak.yes' : 'leak.no')}</td>
                  <td>{day(p.repairedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section>
        <h3>{t('leak.report.open', { count: open.length })}</h3>
        {open.length === 0 ? (
          <p className="muted">{t('leak.report.none')}</p>
        ) : (
          <table data-testid="report-open">
            <thead>
              <tr>
                <th>{t('leak.poi')}</th>
                <th>{t('leak.priorityTitle')}</th>
                <th>{t('leak.statusTitle')}</th>
                <th>{t('leak.assignee')}</th>
                <th>{t('leak.due')}</th>
                <th>{t('leak.report.centre')}</th>
              </tr>
            </thead>
            <tbody>
              {open.map((p) => (
                <tr key={p.id}>
                  <td>{p.poiNo}</td>
                  <td>{t(`leak.priority.${p.priority}`)}</td>
                  <td>{t(`leak.status.${p.status}`)}</td>
                  <td>{p.assigneeName ?? '-'}</td>
                  <td>{p.dueDate ?? '-'}</td>
                  <td>
                    {p.centerLon.toFixed(6)}, {p.centerLat.toFixed(6)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}

/**
 * The survey report of a project and period, previewed full screen and printed (or saved as PDF)
 * by the browser: only the report goes to paper.
 */
export function SurveyReportModal({ open, onClose, project, period, metrics }: { open: boolean; onClose: () => void; project: Project | undefined; period: [string | undefined, string | undefined]; metrics: LeakMetrics | undefined }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const projectId = project?.id;
  const deliveries = useQuery({ queryKey: ['leaks', enterpriseID, 'deliveries', projectId], queryFn: () => leakApi.deliveries(projectId), enabled: open && projectId !== undefined });
  const params = { projectId, pageSize: 1000 };
  const pois = useQuery({ queryKey: ['leaks', enterpriseID, 'pois', params], queryFn: () => leakApi.pois(params), enabled: open && projectId !== undefined });
  // The metrics count POIs by their delivery's date: the report's lists follow the same rule.
  const [from, to] = period;
  const inPeriod = (deliveries.data?.result ?? []).filter((d) => (!from || day(d.deliveredAt) >= from) && (!to || day(d.deliveredAt) <= to));
  const ids = new Set(inPeriod.map((d) => d.id));
  const reportPois = (pois.data?.result.list ?? []).filter((p) => ids.has(p.deliveryId));

  // Only the report prints, not the console behind it.
  useEffect(() => {
    if (!open) return;
    document.body.classList.add('printing-report');
    return () => document.body.classList.remove('printing-report');
  }, [open]);

  const ready = project && metrics && deliveries.data && pois.data;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      width="min(1000px, 100vw)"
      style={{ top: 16 }}
      rootClassName="survey-report-root"
      title={t('leak.report.preview')}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('dataImport.close')}</Button>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!ready} onClick={() => window.print()} data-testid="report-print">
            {t('leak.report.print')}
          </Button>
        </Space>
      }
      data-testid="survey-report-modal"
    >
      {!ready ? <Skeleton active /> : metrics.delivered === 0 ? <Empty description={t('leak.metrics.empty')} /> : <ReportBody project={project} period={period} metrics={metrics} deliveries={inPeriod} pois={reportPois} />}
    </Modal>
  );
}
