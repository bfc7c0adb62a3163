import { Descriptions, Drawer, Empty, Skeleton, Space, Timeline, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { CONSEQUENCE_FACTORS, LIKELIHOOD_FACTORS, type RiskFactor } from '@console/contract';
import { pipeRiskApi, type PipeRiskDetail } from '../../api/pipeRisk.ts';
import { useSession } from '../../stores/session.ts';
import { materialLabel } from '../../utils/format.ts';
import { RiskIndexBar, RiskLevelTag, ScoreCell } from '../../components/RiskLevel.tsx';
import '../leaks/leakMessages.ts';

/** What set one factor's score, in the reader's language, from the segment and its sources. */
function reasonOf(t: TFunction, d: PipeRiskDetail, factor: RiskFactor): string {
  const r = (key: string, options?: Record<string, unknown>) => t(`pipeRisk.detail.reason.${key}`, options);
  const s = d.sources;
  switch (factor) {
    case 'ageMaterial':
      return d.installYear === null ? r('ageUnknown') : r('ageMaterial', { year: d.installYear, age: Number(d.assessedOn.slice(0, 4)) - d.installYear, material: materialLabel(t, d.material) });
    case 'diameter':
      return d.diameterMm === null ? r('diameterUnknown') : r('diameter', { d: d.diameterMm });
    case 'leaks':
      return s.leaks.length ? r('leaks', { list: s.leaks.map((p) => `${p.poiNo} (${t(`leak.status.${p.status}`)})`).join(', ') }) : r('noLeaks');
    case 'settlement':
      return s.settlement.length ? s.settlement.map((x) => r('settlement', { name: x.name, judgement: t(`pipeRisk.detail.judgement.${x.level}`), v: x.minVelocity.toFixed(1) })).join('; ') : r('noSettlement');
    case 'construction':
      return s.construction.length ? s.construction.map((x) => r('construction', { siteNo: x.siteNo, name: x.name, criticality: t(`pipeRisk.detail.criticality.${x.criticality}`) })).join('; ') : r('noConstruction');
    case 'riskAreas':
      return s.riskAreas.length ? s.riskAreas.map((x) => r('riskAreas', { name: x.name, level: x.level })).join('; ') : r('noRiskAreas');
    case 'weather':
      return s.weather.length ? s.weather.map((w) => r('weather', { type: t(`pipeRisk.detail.warningType.${w.type}`), level: w.level ?? '' })).join('; ') : r('noWeather');
    case 'medium':
      return r('medium', { network: t(`network.${d.networkType}`) });
    case 'size':
      // Gas by its pressure class, the others by diameter.
      return d.networkType === 'gas' ? r('size', { pressure: d.pressureClass ?? '-' }) : d.diameterMm === null ? r('diameterUnknown') : r('sizeDiameter', { d: d.diameterMm });
    case 'sensitive':
      return s.sensitive.length ? s.sensitive.slice(0, 3).map((x) => r('sensitive', { name: x.name, kind: t(`pipeRisk.sensitiveKind.${x.kind}`), m: Math.round(x.distanceM) })).join('; ') : r('noSensitive');
  }
}

/** The drawer's width (a map beside it fits the segment in the rest). */
export const PIPE_RISK_DRAWER_WIDTH = 440;

/** One segment's risk: its level, L and C with each factor's score and what set it, and its changes of level. */
export function PipeRiskDrawer({ pipeRowId, onClose }: { pipeRowId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const detail = useQuery({ queryKey: ['pipe-risk', enterpriseID, 'one', pipeRowId], queryFn: () => pipeRiskApi.get(pipeRowId!), enabled: pipeRowId !== null });
  const d = detail.data?.result;
  const factorRows = (factors: readonly RiskFactor[]) =>
    factors.map((f) => (
      <Descriptions.Item key={f} label={t(`pipeRisk.factor.${f}`)}>
        <Space align="start">
          <ScoreCell score={d!.factors[f]} title={t(`pipeRisk.factor.${f}`)} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{reasonOf(t, d!, f)}</Typography.Text>
        </Space>
      </Descriptions.Item>
    ));
  return (
    <Drawer open={pipeRowId !== null} onClose={onClose} width={PIPE_RISK_DRAWER_WIDTH} mask={false} title={d ? t('pipeRisk.detail.title', { pipeId: d.pipeId }) : t('pipeRisk.title')} destroyOnHidden>
      {!d ? (
        <Skeleton active />
      ) : (
        <div data-testid="pipe-risk-detail">
          <Space wrap style={{ marginBottom: 12 }}>
            <RiskLevelTag level={d.level} label={t(`pipeRisk.levelName.${d.level}`)} />
            <Typography.Text strong>R = {d.likelihood} × {d.consequence} = {d.score}</Typography.Text>
            {d.masked && <Tag color="volcano">{t('pipeRisk.masked')}</Tag>}
            <Typography.Text type="secondary">{t('pipeRisk.assessedOn', { date: d.assessedOn })} · {t('pipeRisk.columns.since')} {d.since}</Typography.Text>
          </Space>
          <Space wrap style={{ marginBottom: 12 }} data-testid="pipe-risk-percentile">
            <RiskIndexBar index={d.riskIndex} level={d.level} percentile={d.percentile} title={t('pipeRisk.indexHelp', { index: d.riskIndex.toFixed(2) })} />
            <Typography.Text>{t('pipeRisk.percentile', { percent: Math.floor(d.percentile), level: d.level })}</Typography.Text>
          </Space>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{t('pipeRisk.indexHelp', { index: d.riskIndex.toFixed(2) })}</Typography.Paragraph>
          <Descriptions size="small" column={1} bordered title={`${t('pipeRisk.likelihood')} ${d.likelihood}`}>{factorRows(LIKELIHOOD_FACTORS)}</Descriptions>
          <Descriptions size="small" column={1} bordered title={`${t('pipeRisk.consequence')} ${d.consequence}`} style={{ marginTop: 12 }}>{factorRows(CONSEQUENCE_FACTORS)}</Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>{t('pipeRisk.detail.history')}</Typography.Title>
          {d.history.length ? (
            <Timeline items={d.history.map((h) => ({ color: h.toLevel < h.fromLevel ? 'red' : 'green', children: t('pipeRisk.detail.changed', { date: h.changedOn, from: h.fromLevel, to: h.toLevel }) }))} />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pipeRisk.detail.noHistory')} />
          )}
        </div>
      )}
    </Drawer>
  );
}
