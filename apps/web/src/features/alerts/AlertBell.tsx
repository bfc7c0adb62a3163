import { useRef, useState } from 'react';
import { Badge, Button, Empty, List, Popover, Space, Typography, notification } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { RISK_LEVELS, type IncidentLiveEvent } from '@console/contract';
import { alertApi } from '../../api/alerts.ts';
import { usePermission } from '../../components/Authorized.tsx';
import { RiskLevelTag } from '../../components/RiskLevel.tsx';
import { useSession } from '../../stores/session.ts';
import { incidentTitle } from './alertStyle.ts';
import { loadAlertMessages, useLiveAlerts } from './liveAlerts.ts';

dayjs.extend(relativeTime);
// The bell is on every page of the console: the alert messages come with the layout.
await loadAlertMessages();

/** The live events the bell gives a notice of. */
type Noticed = Exclude<IncidentLiveEvent['kind'], 'changed'>;

/**
 * The header's bell: how many incidents wait for someone to confirm them, the latest of them, and
 * a notice when one is raised or rises to a graver level. Live: the server's event stream
 * refreshes every alert view at once.
 */
export function AlertBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const allowed = usePermission()('risk', 'query');
  const summary = useQuery({ queryKey: ['alerts', enterpriseID, 'summary'], queryFn: alertApi.summary, enabled: allowed && Boolean(enterpriseID) });
  const latest = useQuery({ queryKey: ['alerts', enterpriseID, 'incidents', { state: 'new', bell: true }], queryFn: () => alertApi.incidents({ state: 'new', page: 1, pageSize: 6 }), enabled: allowed && Boolean(enterpriseID) });

  const [listOpen, setListOpen] = useState(false);
  const open = (id: number) => {
    setListOpen(false);
    navigate('/risk/alerts', { state: { incidentId: id } });
  };
  // Incidents raised (or raised to a graver level) together, by a rule's run over a new delivery,
  // make one notice of each kind, not one each.
  const batches = useRef<Record<Noticed, { events: IncidentLiveEvent[]; timer: ReturnType<typeof setTimeout> | null }>>({ raised: { events: [], timer: null }, escalated: { events: [], timer: null } });
  const announce = (kind: Noticed) => {
    const events = batches.current[kind].events.sort((a, b) => RISK_LEVELS.indexOf(a.level) - RISK_LEVELS.indexOf(b.level));
    batches.current[kind] = { events: [], timer: null };
    const [first] = events;
    notification.warning({
      key: events.length === 1 ? `alert-${first.id}` : `alerts-${kind}`,
      message: events.length === 1 ? t(`alerts.bell.${kind}`, { level: first.level }) : t(kind === 'raised' ? 'alerts.bell.raisedMany' : 'alerts.bell.escalatedMany', { count: events.length }),
      description: (
        <Typography.Link data-testid="alert-notice" onClick={() => (events.length === 1 ? open(first.id) : navigate('/risk/alerts'))}>
          {events.length === 1 ? `${first.code} ${incidentTitle({ ...first, kind: first.incidentKind })}` : t('alerts.bell.gravest', { code: first.code, title: incidentTitle({ ...first, kind: first.incidentKind }), level: first.level })}
        </Typography.Link>
      ),
      placement: 'bottomRight',
      duration: 8,
    });
  };
  useLiveAlerts(enterpriseID, allowed, (event: IncidentLiveEvent) => {
    void queryClient.invalidateQueries({ queryKey: ['alerts', enterpriseID] });
    if (event.kind === 'changed') return;
    const kind: Noticed = event.kind;
    const batch = batches.current[kind];
    batch.events.push(event);
    batch.timer ??= setTimeout(() => announce(kind), 600);
  });

  if (!allowed) return null;
  const count = summary.data?.result.byState.new ?? 0;
  const content = (
    <div style={{ width: 340 }} data-testid="alert-bell-list">
      {latest.data?.result.list.length ? (
        <List
          size="small"
          dataSource={latest.data.result.list}
          renderItem={(a) => (
            <List.Item style={{ cursor: 'pointer' }} onClick={() => open(a.id)}>
              <Space direction="vertical" size={0} style={{ width: '100%' }}>
                <Space size={4}>
                  <RiskLevelTag level={a.level} />
                  <Typography.Text ellipsis style={{ maxWidth: 260 }}>{incidentTitle(a)}</Typography.Text>
                </Space>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{a.code} · {dayjs(a.raisedAt).fromNow()}</Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alerts.bell.none')} />
      )}
      <Button type="link" block onClick={() => (setListOpen(false), navigate('/risk/alerts'))} data-testid="alert-bell-all">{t('alerts.bell.all')}</Button>
    </div>
  );
  return (
    // Closed when an alert opens from it, so it does not cover the alert's drawer.
    <Popover content={content} title={t('alerts.bell.title', { count })} trigger="click" placement="bottomRight" open={listOpen} onOpenChange={setListOpen}>
      <span style={{ padding: '0 12px 0 8px', cursor: 'pointer' }} data-testid="alert-bell" aria-label={t('alerts.bell.title', { count })}>
        {/* The count beside the bell (offset), not over it; the bell in the header's own colour. */}
        <Badge count={count} size="small" overflowCount={99} offset={[8, -2]} style={{ boxShadow: 'none' }} className="alert-bell-badge" data-testid="alert-bell-count">
          <BellOutlined style={{ fontSize: 16, color: 'inherit' }} />
        </Badge>
      </span>
    </Popover>
  );
}
