import { useMemo, useState } from 'react';
import { Alert, Button, Card, DatePicker, Dropdown, Input, Result, Select, Space, Table, Typography, message } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { DownloadOutlined } from '@ant-design/icons';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { AUDIT_KINDS, AUDIT_OUTCOMES, type AuditEvent, type AuditFilters, type AuditKind, type AuditOutcome } from '@console/contract';
import { auditApi, type AuditScope } from '../../api/audit.ts';
import { errorMessage } from '../../api/http.ts';
import { platformApi } from '../../api/platform.ts';
import { AuditChanges } from '../../components/AuditHistory.tsx';
import { useSession } from '../../stores/session.ts';
import { saveBlob } from '../../utils/download.ts';
import { useTableCards } from '../../components/tableCards.ts';

const OUTCOME_COLOR: Record<AuditOutcome, string> = { ok: 'green', refused: 'orange', failed: 'red' };
const METHOD_COLOR: Record<string, string> = { POST: 'blue', PUT: 'geekblue', PATCH: 'geekblue', DELETE: 'red' };

/**
 * The audit trail: every write and sign-in attempt, newest first, with filters and exports.
 * Enterprise admins read their enterprise's; platform admins every enterprise's and the sign-ins.
 */
export default function AuditPage() {
  const { t } = useTranslation();
  // On a phone a card per row (every column on it), no sideways scrolling.
  const auditCards = useTableCards<AuditEvent>({ x: 1300 });
  const isPlatformAdmin = useSession((s) => s.isPlatformAdmin);
  const role = useSession((s) => s.enterpriseRole);
  const enterpriseId = useSession((s) => s.enterpriseID);
  const scope: AuditScope | null = isPlatformAdmin ? 'platform' : role === 'admin' ? 'enterprise' : null;
  const [username, setUsername] = useState('');
  const [object, setObject] = useState('');
  const [objectId, setObjectId] = useState('');
  const [kind, setKind] = useState<AuditKind | undefined>();
  const [outcome, setOutcome] = useState<AuditOutcome | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [enterprise, setEnterprise] = useState<number | undefined>();

  const filters: AuditFilters = useMemo(
    () => ({
      username: username.trim() || undefined,
      object: object.trim() || undefined,
      objectId: objectId.trim() || undefined,
      kind,
      outcome,
      from: range?.[0]?.startOf('day').toISOString(),
      to: range?.[1]?.endOf('day').toISOString(),
      enterpriseId: scope === 'platform' ? enterprise : undefined,
    }),
    [username, object, objectId, kind, outcome, range, enterprise, scope],
  );
  const pages = useInfiniteQuery({
    queryKey: ['audit', scope, enterpriseId, filters],
    queryFn: async ({ pageParam }) => (await auditApi.list(scope!, filters, pageParam)).result,
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    enabled: scope !== null,
  });
  const enterprises = useQuery({ queryKey: ['platform', 'enterprises', 'all'], queryFn: () => platformApi.enterprises('all'), enabled: scope === 'platform' });
  const names = new Map((enterprises.data?.result ?? []).map((e) => [e.id, e.enterpriseName]));

  if (scope === null) return <Result status="403" title="403" subTitle={t('audit.onlyAdmins')} />;
  const rows = pages.data?.pages.flatMap((p) => p.list) ?? [];
  const first = pages.data?.pages[0];
  const download = async (format: 'csv' | 'xlsx') => {
    try {
      saveBlob(await auditApi.exportFile(scope, filters, format), `audit-${dayjs().format('YYYYMMDD-HHmm')}.${format}`);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  return (
    <Card
      title={t('audit.title')}
      extra={
        <Dropdown menu={{ items: (['csv', 'xlsx'] as const).map((f) => ({ key: f, label: <span data-testid={`audit-export-${f}`}>{f.toUpperCase()}</span> })), onClick: ({ key }) => void download(key as 'csv' | 'xlsx') }}>
          <Button icon={<DownloadOutlined />} data-testid="audit-export">
            {t('audit.export')}
          </Button>
        </Dropdown>
      }
    >
      <Typography.Paragraph type="secondary">{t(scope === 'platform' ? 'audit.leadPlatform' : 'audit.lead')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder={t('audit.user')} onSearch={setUsername} style={{ width: 160 }} data-testid="audit-user" />
        <Input.Search allowClear placeholder={t('audit.object')} onSearch={setObject} style={{ width: 200 }} data-testid="audit-object" />
        <Input.Search allowClear placeholder={t('audit.objectId')} onSearch={setObjectId} style={{ width: 150 }} data-testid="audit-object-id" />
        <Select aria-label={t('audit.kind')} allowClear placeholder={t('audit.kind')} value={kind} onChange={setKind} style={{ width: 130 }} options={AUDIT_KINDS.map((k) => ({ value: k, label: t(`audit.kinds.${k}`) }))} data-testid="audit-kind" />
        <Select aria-label={t('audit.outcomeTitle')} allowClear placeholder={t('audit.outcomeTitle')} value={outcome} onChange={setOutcome} style={{ width: 130 }} options={AUDIT_OUTCOMES.map((o) => ({ value: o, label: t(`audit.outcome.${o}`) }))} data-testid="audit-outcome" />
        <DatePicker.RangePicker value={range} onChange={(value) => setRange(value)} data-testid="audit-range" />
        {scope === 'platform' && (
          <Select aria-label={t('audit.enterprise')}
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('audit.enterprise')}
            value={enterprise}
            onChange={setEnterprise}
            style={{ width: 220 }}
            options={(enterprises.data?.result ?? []).map((e) => ({ value: e.id, label: e.enterpriseName }))}
            data-testid="audit-enterprise"
          />
        )}
      </Space>
      {pages.isError ? (
        <Alert type="error" showIcon message={errorMessage(pages.error)} />
      ) : (
        <>
          <Table<AuditEvent>
            rowKey="id"
            size="small"
            loading={pages.isLoading}
            dataSource={rows}
            pagination={false}
            {...auditCards.tableProps}
            data-testid="audit-table"
            expandable={{
              rowExpandable: (e) => !!e.changes || !!e.userAgent,
              expandedRowRender: (e) => (
                <Space direction="vertical" size={4}>
                  <AuditChanges changes={e.changes} />
                  {e.userAgent && <Typography.Text type="secondary">{e.userAgent}</Typography.Text>}
                </Space>
              ),
            }}
            columns={auditCards.cards([
              { title: t('audit.at'), dataIndex: 'at', width: 170, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
              { title: t('audit.user'), dataIndex: 'username', width: 120, render: (v: string | null, e) => <>{v ?? '–'}{e.role && <div><Typography.Text type="secondary">{t(`audit.roles.${e.role}`, { defaultValue: e.role })}</Typography.Text></div>}</> },
              ...(scope === 'platform' ? [{ title: t('audit.enterprise'), dataIndex: 'enterpriseId', width: 160, render: (v: number | null) => (v === null ? '–' : (names.get(v) ?? `#${v}`)) }] : []),
              { title: t('audit.kind'), dataIndex: 'kind', responsive: ['md'], width: 90, render: (k: AuditKind) => t(`audit.kinds.${k}`) },
              {
                title: t('audit.action'),
                dataIndex: 'route',
                width: 300,
                render: (route: string, e) => (
                  <Space size={4}>
                    {e.kind === 'write' && <Tag color={METHOD_COLOR[e.method]}>{t(`audit.method.${e.method}`, { defaultValue: e.method })}</Tag>}
                    <Typography.Text style={{ wordBreak: 'break-all' }}>{route}</Typography.Text>
                  </Space>
                ),
              },
              { title: t('audit.object'), dataIndex: 'object', width: 200, render: (o: string, e) => <>{o}{e.objectId && <Typography.Text type="secondary"> #{e.objectId}</Typography.Text>}</> },
              { title: t('audit.outcomeTitle'), dataIndex: 'outcome', responsive: ['md'], width: 100, render: (o: AuditOutcome, e) => <Tag color={OUTCOME_COLOR[o]}>{t(`audit.outcome.${o}`)} {e.status}</Tag> },
              { title: t('audit.address'), dataIndex: 'address', responsive: ['md'], width: 130 },
            ])}
          />
          <Space style={{ marginTop: 12, width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text type="secondary" data-testid="audit-count">
              {first ? t(first.totalExact ? 'audit.count' : 'audit.countMore', { count: first.total, shown: rows.length }) : ''}
            </Typography.Text>
            {pages.hasNextPage && (
              <Button onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage} data-testid="audit-more">
                {t('audit.more')}
              </Button>
            )}
          </Space>
        </>
      )}
    </Card>
  );
}
