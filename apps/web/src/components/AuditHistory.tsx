import { useState } from 'react';
import { Alert, Collapse, Empty, List, Space, Typography } from 'antd';
import { Tag } from './Tag.tsx';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { AuditChange } from '@console/contract';
import { auditApi } from '../api/audit.ts';
import { errorMessage } from '../api/http.ts';

/** A recorded value as one line of text. */
export const auditText = (value: unknown) => (value === undefined ? '–' : value === null ? '∅' : typeof value === 'string' ? value : JSON.stringify(value));

/** The fields one record changed: "field: before → after". */
export function AuditChanges({ changes }: { changes: Record<string, AuditChange> | null }) {
  if (!changes) return null;
  return (
    <>
      {Object.entries(changes).map(([field, change]) => (
        <div key={field} style={{ wordBreak: 'break-all' }}>
          <Typography.Text code>{field}</Typography.Text> {'before' in change && <Typography.Text delete type="secondary">{auditText(change.before)}</Typography.Text>}
          {'before' in change && ' → '}
          <Typography.Text>{auditText(change.after)}</Typography.Text>
        </div>
      ))}
    </>
  );
}

/** An object's changes as the audit trail recorded them (who, when, which fields), read when opened. */
export function AuditHistory({ object, objectId }: { object: string; objectId: number | string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const history = useQuery({ queryKey: ['audit', 'history', object, String(objectId)], queryFn: () => auditApi.history(object, objectId), enabled: open });
  const entries = history.data?.result ?? [];
  return (
    <Collapse
      size="small"
      onChange={(keys) => setOpen(keys.length > 0)}
      data-testid="audit-history"
      items={[
        {
          key: 'audit',
          label: t('audit.history'),
          children: history.isError ? (
            <Alert type="error" showIcon message={errorMessage(history.error)} />
          ) : !history.isLoading && !entries.length ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audit.noHistory')} />
          ) : (
            <List
              size="small"
              loading={history.isLoading}
              dataSource={entries}
              renderItem={(entry) => (
                <List.Item key={entry.id} data-testid="audit-history-entry">
                  <Space direction="vertical" size={0} style={{ width: '100%' }}>
                    <Space wrap size={4}>
                      <Typography.Text type="secondary">{dayjs(entry.at).format('YYYY-MM-DD HH:mm:ss')}</Typography.Text>
                      <Typography.Text strong>{entry.username ?? '–'}</Typography.Text>
                      <Tag>{t(`audit.method.${entry.method}`, { defaultValue: entry.method })}</Tag>
                      {entry.outcome !== 'ok' && <Tag color={entry.outcome === 'failed' ? 'red' : 'orange'}>{t(`audit.outcome.${entry.outcome}`)}</Tag>}
                    </Space>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{entry.route}</Typography.Text>
                    <AuditChanges changes={entry.changes} />
                  </Space>
                </List.Item>
              )}
            />
          ),
        },
      ]}
    />
  );
}
