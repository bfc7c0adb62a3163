import type { ReactNode } from 'react';
import { Empty, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';

export interface HistoryEntry {
  id: number;
  /** What happened, worded for the reader. */
  title: string;
  color: string;
  at: string;
  userName: string | null;
  /** Notes the step carried (a reason, a remark...). */
  lines: string[];
  /** Shown under the notes (photos, say). */
  extra?: ReactNode;
}

/** An item's history, newest first: what happened, when, who, and what they noted. */
export function HistoryTimeline({ entries, testId }: { entries: HistoryEntry[]; testId: string }) {
  if (!entries.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <Timeline
      data-testid={testId}
      items={entries.map((h) => ({
        key: h.id,
        color: h.color,
        children: (
          <>
            <Typography.Text strong>{h.title}</Typography.Text> <Typography.Text type="secondary">{dayjs(h.at).format('YYYY-MM-DD HH:mm')} {h.userName ?? ''}</Typography.Text>
            {h.lines.map((line, i) => <div key={i}>{line}</div>)}
            {h.extra}
          </>
        ),
      }))}
    />
  );
}

/** The text notes of a history entry's details, in this order. */
export const detailLines = (details: Record<string, unknown> | null, keys: string[]) => keys.flatMap((k) => (typeof details?.[k] === 'string' && details[k] ? [String(details[k])] : []));
