import { useState } from 'react';
import { Button, Checkbox, Input, Select, Space, Table, Typography, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { LIKELIHOOD_FACTORS, CONSEQUENCE_FACTORS, NETWORK_TYPES, RISK_LEVELS, type PipeRiskRow, type RiskLevel } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { pipeRiskApi, type PipeRiskFilters } from '../../api/pipeRisk.ts';
import { usePermission } from '../../components/Authorized.tsx';
import { ExportMenu } from '../../components/ExportMenu.tsx';
import { useClickGuard } from '../../components/GuardedButton.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { PipeRiskDrawer } from './PipeRiskDrawer.tsx';
import { SensitiveSitesModal } from './SensitiveSitesModal.tsx';
import { RiskIndexBar, RiskLevelTag, ScoreCell } from '../../components/RiskLevel.tsx';

// The panels' messages come with them, not with the sign-in page.
await loadNamespace('pipeRisk', { 'zh-CN': () => import('../../locales/pipeRisk/zh-CN.ts'), 'en-US': () => import('../../locales/pipeRisk/en-US.ts') });

/**
 * The risk list: assessed segments worst first with each factor's score, filters (level, network,
 * a factor at its maximum, pipe id), the latest assessment's figures, export, and a segment's
 * explanation in a drawer. `projectId` keeps it to a project's area; `onSelect` tells the map.
 */
export function PipeRiskPanel({ projectId, onSelect }: { projectId?: number; onSelect?: (row: PipeRiskRow | null) => void }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const queryClient = useQueryClient();
  const can = usePermission();
  const allowClick = useClickGuard();
  const [filters, setFilters] = useState<PipeRiskFilters>({ projectId });
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [sensitiveOpen, setSensitiveOpen] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const summary = useQuery({ queryKey: ['pipe-risk', enterpriseID, 'summary'], queryFn: pipeRiskApi.summary });
  const list = useQuery({ queryKey: ['pipe-risk', enterpriseID, 'list', filters, page], queryFn: () => pipeRiskApi.list({ ...filters, ...page }), placeholderData: keepPreviousData });
  const assess = useMutation({
    mutationFn: pipeRiskApi.assess,
    onSuccess: (response) => {
      message.success(t('pipeRisk.assessed', { segments: response.result.segments }));
      void queryClient.invalidateQueries({ queryKey: ['pipe-risk', enterpriseID] });
      void queryClient.invalidateQueries({ queryKey: ['map-settings', enterpriseID] });
    },
    onError: (error) => message.error(errorMessage(error)),
  });
  const set = (patch: Partial<PipeRiskFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, page: 1 }));
  };
  const run = summary.data?.result;

  return (
    <div data-testid="pipe-risk-panel">
      <Space direction="vertical" style={{ width: '100%' }} size={8}>
        <Space wrap size={4}>
          {RISK_LEVELS.map((level: RiskLevel) => (
            <Button key={level} size="small" type={filters.level === level ? 'primary' : 'default'} onClick={() => set({ level: filters.level === level ? undefined : level })} data-testid={`pipe-risk-level-${level}`}>
              <RiskLevelTag level={level} label={t(`pipeRisk.levelName.${level}`)} />
              {run?.levels && !projectId ? run.levels[level] : ''}
            </Button>
          ))}
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="pipe-risk-run">
          {run ? t('pipeRisk.lastRun', { at: dayjs(run.finishedAt ?? run.startedAt).format('YYYY-MM-DD HH:mm'), segments: run.segments, masked: run.masked, changed: run.changed }) : t('pipeRisk.never')}
        </Typography.Text>
        <Space wrap size={8}>
          <Select aria-label={t('pipeRisk.filters.network')} allowClear style={{ width: 130 }} placeholder={t('pipeRisk.filters.network')} value={filters.networkType} onChange={(networkType) => set({ networkType })} options={NETWORK_TYPES.map((n) => ({ value: n, label: t(`network.${n}`) }))} />
          <Input.Search allowClear style={{ width: 180 }} placeholder={t('pipeRisk.keyword')} onSearch={(keyword) => set({ keyword: keyword || undefined })} data-testid="pipe-risk-search" />
          <Checkbox checked={filters.masked === 'true'} onChange={(e) => set({ masked: e.target.checked ? 'true' : undefined })} data-testid="pipe-risk-masked">
            {t('pipeRisk.filters.masked')}
          </Checkbox>
          <ExportMenu fetch={(format) => pipeRiskApi.exportFile(filters, format)} baseName="pipe-risk" testId="pipe-risk-export" />
          <Button onClick={() => setSensitiveOpen(true)} data-testid="pipe-risk-sensitive">{t('pipeRisk.sensitive.button')}</Button>
          {can('enterprise', 'edit') && (
            <Button icon={<ReloadOutlined />} loading={assess.isPending} onClick={() => allowClick() && assess.mutate()} data-testid="pipe-risk-assess">
              {t('pipeRisk.assess')}
            </Button>
          )}
        </Space>
        <Table<PipeRiskRow>
          rowKey="pipeRowId"
          size="small"
          loading={list.isFetching}
          dataSource={list.data?.result.list}
          scroll={{ x: 'max-content' }}
          onRow={(row) => ({
            onClick: () => {
              setSelected(row.pipeRowId);
              onSelect?.(row);
            },
            style: { cursor: 'pointer' },
          })}
          rowClassName={(row) => (row.pipeRowId === selected ? 'ant-table-row-selected' : '')}
          pagination={{ current: page.page, pageSize: page.pageSize, total: list.data?.result.total, showTotal: (total) => t('pipeRisk.total', { total }), onChange: (p, pageSize) => setPage({ page: p, pageSize }), size: 'small' }}
          columns={[
            // The network under the pipe id and the day the level was reached in the drawer: the list fits a 640 px panel beside the map.
            {
              title: t('pipeRisk.columns.pipeId'),
              dataIndex: 'pipeId',
              render: (id: string, row) => (
                <div style={{ lineHeight: 1.3, whiteSpace: 'nowrap' }}>
                  <span data-testid="pipe-risk-row">{id}{row.masked && <Tag color="volcano" style={{ marginLeft: 4 }} title={t('pipeRisk.masked')}>5</Tag>}</span>
                  <div><Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`network.${row.networkType}`)}</Typography.Text></div>
                </div>
              ),
            },
            { title: t('pipeRisk.columns.level'), dataIndex: 'level', render: (level: RiskLevel) => <RiskLevelTag level={level} /> },
            { title: t('pipeRisk.columns.score'), dataIndex: 'score', render: (score: number, row) => `${score} = ${row.likelihood} × ${row.consequence}` },
            { title: t('pipeRisk.columns.index'), dataIndex: 'riskIndex', render: (index: number, row) => <RiskIndexBar index={index} level={row.level} percentile={row.percentile} title={t('pipeRisk.indexHelp', { index: index.toFixed(2) })} /> },
            {
              title: t('pipeRisk.columns.factors'),
              key: 'factors',
              render: (_, row) => (
                <span style={{ whiteSpace: 'nowrap' }}>
                  {LIKELIHOOD_FACTORS.map((f) => <ScoreCell key={f} score={row.factors[f]} title={t(`pipeRisk.factor.${f}`)} />)}
                  <span style={{ display: 'inline-block', width: 1, height: 16, background: '#d9d9d9', margin: '0 4px', verticalAlign: 'middle' }} />
                  {CONSEQUENCE_FACTORS.map((f) => <ScoreCell key={f} score={row.factors[f]} title={t(`pipeRisk.factor.${f}`)} />)}
                </span>
              ),
            },
          ]}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="pipe-risk-factor-legend">
          {t('pipeRisk.factorLegend', { likelihood: LIKELIHOOD_FACTORS.map((f) => t(`pipeRisk.factor.${f}`)).join(' · '), consequence: CONSEQUENCE_FACTORS.map((f) => t(`pipeRisk.factor.${f}`)).join(' · ') })}
        </Typography.Text>
      </Space>
      <PipeRiskDrawer
        pipeRowId={selected}
        onClose={() => {
          setSelected(null);
          onSelect?.(null);
        }}
      />
      <SensitiveSitesModal open={sensitiveOpen} onClose={() => setSensitiveOpen(false)} />
    </div>
  );
}
