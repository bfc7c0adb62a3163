import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Input, Row, Select, Skeleton, Space, Statistic, Switch, Table, Tabs, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { NotificationOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { ALERT_BATCH_STEPS, ALERT_SOURCES, ALERT_STATES, ALERT_STEP_FROM, RISK_LEVELS, RISK_LEVEL_COLORS, type AlertRow, type BBox, type IncidentRow } from '@console/contract';
import { alertApi, type AlertFilters } from '../../api/alerts.ts';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { Authorized, useActionVisible, usePermission } from '../../components/Authorized.tsx';
import { MapView } from '../../components/MapView.tsx';
import { RiskLevelTag } from '../../components/RiskLevel.tsx';
import { TwoLineCell } from '../../components/TwoLineCell.tsx';
import { useSession } from '../../stores/session.ts';
import { AlertBatchBar } from './AlertBatchBar.tsx';
import { IncidentDrawer } from './IncidentDrawer.tsx';
import { AlertSettingsModal } from './AlertSettingsModal.tsx';
import { ChannelsModal } from './ChannelsModal.tsx';
import { RaiseAlertModal } from './RaiseAlertModal.tsx';
import { STATE_TAG_COLOR, alertTitle, incidentFeatures, incidentTitle, shapeBox } from './alertStyle.ts';
import { useTableCards } from '../../components/tableCards.ts';

const PAGE_SIZE = 15;
/** An incident a step of the batch bar can take (confirm or dismiss): the others cannot be ticked. */
const batchable = (a: IncidentRow) => ALERT_BATCH_STEPS.some((step) => ALERT_STEP_FROM[step].includes(a.state));

/**
 * The duty officer's desk: what is open and overdue at the top, the incidents (alerts of one
 * cause) with filters beside the map of the open ones, and the selected incident's drawer to work
 * it to closure; every alert stays listed on its own tab, each opening its incident. New incidents
 * and others' steps arrive without reloading (the header's bell keeps the stream).
 */
export default function AlertsPage() {
  const incidentCards = useTableCards<IncidentRow>({ x: 'max-content' });
  const alertCards = useTableCards<AlertRow>({ x: 'max-content' });
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const isAdmin = usePermission()('enterprise', 'edit');
  const location = useLocation();
  const [filters, setFilters] = useState<AlertFilters>({ state: 'open' });
  const [page, setPage] = useState(1);
  const [raising, setRaising] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [channelsOpen, setChannelsOpen] = useState(false);
  const canWork = useActionVisible('edit');
  const [ticked, setTicked] = useState<number[]>([]);
  const [tab, setTab] = useState<'incidents' | 'alerts'>('incidents');
  // The bell opens an incident here through the navigation's state (an address per incident would
  // open a tab each); the link in a group robot's message or a mail, through ?incident=.
  const [search] = useSearchParams();
  const linked = Number(search.get('incident')) || null;
  const [selectedId, select] = useState<number | null>((location.state as { incidentId?: number } | null)?.incidentId ?? linked);
  useEffect(() => {
    const incidentId = (location.state as { incidentId?: number } | null)?.incidentId ?? linked;
    if (incidentId) select(incidentId);
  }, [location.state, linked]);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const params = { ...filters, page, pageSize: PAGE_SIZE };
  const list = useQuery({ queryKey: ['alerts', enterpriseID, 'incidents', params], queryFn: () => alertApi.incidents(params), placeholderData: keepPreviousData, enabled: tab === 'incidents' });
  const alertList = useQuery({ queryKey: ['alerts', enterpriseID, 'list', params], queryFn: () => alertApi.list(params), placeholderData: keepPreviousData, enabled: tab === 'alerts' });
  const summary = useQuery({ queryKey: ['alerts', enterpriseID, 'summary'], queryFn: alertApi.summary });
  const places = useQuery({ queryKey: ['alerts', enterpriseID, 'places'], queryFn: alertApi.places });
  const detail = useQuery({ queryKey: ['alerts', enterpriseID, 'incident', selectedId], queryFn: () => alertApi.incident(selectedId!), enabled: selectedId !== null });
  const selected = selectedId !== null ? (detail.data?.result ?? null) : null;

  const overlays = useMemo(() => {
    const dots = { key: 'alerts', features: incidentFeatures(places.data?.result ?? [], t, selectedId ?? undefined), onClick: (id: number) => select(id) };
    if (!selected) return [dots];
    const geometry = selected.geometry as never;
    // The incident's place (its hull) under its members' own shapes.
    const members = selected.members.map((m) => ({ id: -m.id - 1_000_000_000, geometry: m.geometry as never, color: RISK_LEVEL_COLORS[m.level], selected: true, label: `${m.code} ${alertTitle(t, m)}` }));
    return [{ key: 'selected', features: [{ id: -selected.id, geometry, color: RISK_LEVEL_COLORS[selected.level], selected: true, outline: true }, ...members] }, dots];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [places.data, selected, selectedId, t]);
  const focus = useMemo<BBox | null>(() => {
    if (!selected) return null;
    // The whole incident in view, at least a few hundred metres round its centre.
    const [minx, miny, maxx, maxy] = shapeBox(selected.geometry);
    const [dx, dy] = [Math.max(0.003, (maxx - minx) * 0.7), Math.max(0.002, (maxy - miny) * 0.7)];
    return [selected.lon - dx, selected.lat - dy, selected.lon + dx, selected.lat + dy];
  }, [selected?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  const failed = list.error ?? alertList.error;
  if (failed) return <Alert type="error" showIcon message={errorMessage(failed)} />;
  // Ticks belong to the rows in view: another filter or page starts again.
  const set = (patch: AlertFilters) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
    setTicked([]);
  };
  const turnPage = (next: number) => {
    setPage(next);
    setTicked([]);
  };
  const s = summary.data?.result;
  return (
    <Card data-testid="alerts-page" styles={{ body: { paddingTop: 12 } }}>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }} data-testid="alerts-summary">
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.open')} value={s?.open ?? '-'} /></Col>
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.openAlerts')} value={s?.openAlerts ?? '-'} valueStyle={{ color: '#8c8c8c' }} /></Col>
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.new')} value={s?.byState.new ?? '-'} valueStyle={{ color: '#cf1322' }} /></Col>
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.overdue')} value={s?.overdue ?? '-'} valueStyle={{ color: '#cf1322' }} /></Col>
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.supervised')} value={s?.supervised ?? '-'} valueStyle={{ color: '#c41d7f' }} /></Col>
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.onTime')} value={s?.onTimeRate === null || s === undefined ? '-' : Math.round(s.onTimeRate * 100)} suffix={s?.onTimeRate === null || s === undefined ? undefined : '%'} /></Col>
        <Col xs={12} md={3}><Statistic title={t('alerts.summary.response')} value={s?.medianFirstResponseMin ?? '-'} suffix={s?.medianFirstResponseMin !== null && s ? t('alerts.minutes', { n: '' }).trim() : undefined} /></Col>
        <Col xs={24} md={3}>
          <Space wrap size={4} style={{ marginTop: 8 }}>
            {RISK_LEVELS.map((l) => <RiskLevelTag key={l} level={l} label={`${l} · ${s?.byLevel[l] ?? 0}`} />)}
          </Space>
        </Col>
      </Row>
      <Space wrap style={{ marginBottom: 8 }}>
        <Input.Search allowClear placeholder={t('alerts.keyword')} style={{ width: 200 }} onSearch={(v) => set({ keyword: v || undefined })} data-testid="alerts-keyword" />
        <Select aria-label={t('alerts.filters.state')}
          allowClear
          style={{ width: 150 }}
          value={filters.state}
          onChange={(v) => set({ state: v })}
          placeholder={t('alerts.filters.state')}
          data-testid="alerts-state"
          options={[{ value: 'open', label: t('alerts.filters.open') }, ...ALERT_STATES.map((v) => ({ value: v, label: t(`alerts.state.${v}`) }))]}
        />
        <Select aria-label={t('alerts.filters.level')} allowClear style={{ width: 120 }} value={filters.level} onChange={(v) => set({ level: v })} placeholder={t('alerts.filters.level')} options={RISK_LEVELS.map((v) => ({ value: v, label: v }))} />
        <Select aria-label={t('alerts.filters.source')} allowClear style={{ width: 140 }} value={filters.source} onChange={(v) => set({ source: v })} placeholder={t('alerts.filters.source')} options={ALERT_SOURCES.map((v) => ({ value: v, label: t(`alerts.source.${v}`) }))} />
        {(['overdue', 'supervised', 'mine'] as const).map((flag) => (
          <Space size={4} key={flag}>
            <Switch size="small" aria-label={t(`alerts.filters.${flag}`)} checked={filters[flag] === 'true'} onChange={(v) => set({ [flag]: v ? 'true' : undefined })} data-testid={`alerts-${flag}`} />
            {t(`alerts.filters.${flag}`)}
          </Space>
        ))}
        <Authorized action="add">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setRaising(true)} data-testid="alerts-raise">{t('alerts.raise')}</Button>
        </Authorized>
        {isAdmin && <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} data-testid="alerts-settings">{t('alerts.settings')}</Button>}
        {isAdmin && <Button icon={<NotificationOutlined />} onClick={() => setChannelsOpen(true)} data-testid="alerts-channels">{t('alerts.channels.button')}</Button>}
      </Space>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ flex: '3 1 560px', minWidth: 0 }}>
          <Tabs
            size="small"
            activeKey={tab}
            onChange={(key) => {
              setTab(key as 'incidents' | 'alerts');
              turnPage(1);
            }}
            items={[
              { key: 'incidents', label: <span data-testid="alerts-tab-incidents">{t('alerts.tabs.incidents')}</span> },
              { key: 'alerts', label: <span data-testid="alerts-tab-alerts">{t('alerts.tabs.alerts')}</span> },
            ]}
          />
          {tab === 'incidents' ? (
            <>
              {canWork && <AlertBatchBar ids={ticked} onDone={() => setTicked([])} />}
              <Table<IncidentRow>
                rowKey="id"
                size="small"
                loading={list.isFetching}
                dataSource={list.data?.result.list ?? []}
                {...incidentCards.tableProps}
                pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.result.total ?? 0, onChange: turnPage, size: 'small', showSizeChanger: false, showTotal: (total) => <span data-testid="alerts-total">{t('alerts.incidentTotal', { total })}</span> }}
                rowSelection={canWork ? { selectedRowKeys: ticked, onChange: (keys) => setTicked(keys as number[]), getCheckboxProps: (a) => ({ disabled: !batchable(a), 'aria-label': t('common.selectRow', { name: a.code }) }) } : undefined}
                // A tick is not a click on the row: the drawer stays as it is.
                onRow={(a) => ({ onClick: (e) => !(e.target as HTMLElement).closest('.ant-table-selection-column') && select(a.id), style: { cursor: 'pointer' } })}
                rowClassName={(a) => (a.id === selectedId ? 'ant-table-row-selected' : '')}
                columns={incidentCards.cards([
                  {
                    title: `${t('alerts.columns.level')} · ${t('alerts.columns.code')}`,
                    dataIndex: 'code',
                    render: (code: string, a: IncidentRow) => (
                      <span style={{ whiteSpace: 'nowrap' }}>
                        <RiskLevelTag level={a.level} /> {code}
                      </span>
                    ),
                  },
                  // When it was raised and how many alerts it holds under the incident, its deadline
                  // under its state: the list fits at 1280 with the map beside it.
                  {
                    title: t('alerts.columns.cause'),
                    key: 'title',
                    render: (_: unknown, a: IncidentRow) => (
                      <TwoLineCell
                        main={incidentTitle({ ...a, memberCount: 1 })}
                        maxWidth={240}
                        sub={
                          <>
                            {`${dayjs(a.raisedAt).format('MM-DD HH:mm')} · ${t('alerts.columns.members')} ${a.memberCount}`}
                            {a.supervised && <Tag color="magenta" style={{ marginInlineStart: 6, fontSize: 11, lineHeight: '16px' }}>{t('alerts.supervised')}</Tag>}
                          </>
                        }
                      />
                    ),
                  },
                  {
                    title: t('alerts.columns.state'),
                    dataIndex: 'state',
                    render: (v: IncidentRow['state'], a: IncidentRow) => (
                      <div style={{ lineHeight: 1.3, maxWidth: 150 }}>
                        <Tag color={STATE_TAG_COLOR[v]}>{t(`alerts.state.${v}`)}</Tag>
                        {a.deadline && (
                          <div>
                            <Typography.Text type={a.overdue ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>{`${t('alerts.columns.deadline')} ${dayjs(a.deadline).format('MM-DD HH:mm')}${a.overdue ? ` · ${t('alerts.overdue')}` : ''}`}</Typography.Text>
                          </div>
                        )}
                      </div>
                    ),
                  },
                  { title: t('alerts.columns.assignee'), dataIndex: 'assigneeName', responsive: ['md'], render: (v: string | null) => v ?? '-' },
                ])}
              />
            </>
          ) : (
            <Table<AlertRow>
              rowKey="id"
              size="small"
              data-testid="alerts-all"
              loading={alertList.isFetching}
              dataSource={alertList.data?.result.list ?? []}
              {...alertCards.tableProps}
              pagination={{ current: page, pageSize: PAGE_SIZE, total: alertList.data?.result.total ?? 0, onChange: turnPage, size: 'small', showSizeChanger: false, showTotal: (total) => <span data-testid="alerts-all-total">{t('alerts.total', { total })}</span> }}
              // An alert is worked in its incident: a click opens that.
              onRow={(a) => ({ onClick: () => a.incidentId && select(a.incidentId), style: { cursor: 'pointer' } })}
              rowClassName={(a) => (a.incidentId === selectedId ? 'ant-table-row-selected' : '')}
              columns={alertCards.cards([
                { title: t('alerts.columns.code'), dataIndex: 'code', width: 100 },
                { title: t('alerts.columns.level'), dataIndex: 'level', render: (v: AlertRow['level']) => <RiskLevelTag level={v} /> },
                { title: t('alerts.columns.title'), key: 'title', render: (_: unknown, a: AlertRow) => <Typography.Text ellipsis style={{ maxWidth: 280 }}>{alertTitle(t, a)}</Typography.Text> },
                { title: t('alerts.columns.state'), dataIndex: 'state', render: (v: AlertRow['state']) => <Tag color={STATE_TAG_COLOR[v]}>{t(`alerts.state.${v}`)}</Tag> },
                { title: t('alerts.columns.incident'), dataIndex: 'incidentCode', responsive: ['md'], render: (v: string | null) => v ?? '-' },
                { title: t('alerts.columns.raised'), dataIndex: 'raisedAt', responsive: ['md'], render: (v: string) => dayjs(v).format('MM-DD HH:mm') },
              ])}
            />
          )}
        </div>
        <div style={{ flex: '2 1 400px', minWidth: 0 }} data-testid="alerts-map">
          {settings.data ? <MapView settings={settings.data.result} height={560} overlays={overlays} focus={focus} /> : <Skeleton active />}
          <Space wrap style={{ marginTop: 8 }}>
            {RISK_LEVELS.map((l) => (
              <Space key={l} size={4}>
                <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: RISK_LEVEL_COLORS[l] }} />
                {t(`alerts.levelName.${l}`)}
              </Space>
            ))}
          </Space>
        </div>
      </div>
      <IncidentDrawer incident={selected} onClose={() => select(null)} />
      {settings.data && (
        <RaiseAlertModal
          open={raising}
          settings={settings.data.result}
          onClose={() => setRaising(false)}
          onRaised={(incident) => {
            setRaising(false);
            setTab('incidents');
            select(incident.id);
          }}
        />
      )}
      <AlertSettingsModal open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <ChannelsModal open={channelsOpen} onClose={() => setChannelsOpen(false)} />
    </Card>
  );
}
