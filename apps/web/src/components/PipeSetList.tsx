import { useState } from 'react';
import { Table, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PipeSetPage } from '@console/contract';

const PAGE_SIZE = 10;

/**
 * Every pipe a place holds or threatens (a site's corridor, a risk-prone area), nearest first, a
 * page at a time from the server: the count is the whole set's, never a list cut for display.
 */
export function PipeSetList({ queryKey, load, testId }: { queryKey: readonly unknown[]; load: (page: number, pageSize: number) => Promise<PipeSetPage>; testId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery({ queryKey: [...queryKey, 'pipes', page], queryFn: () => load(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const data = query.data;
  return (
    <div data-testid={testId}>
      <Typography.Text strong data-testid={`${testId}-count`}>
        {data ? (data.total ? t('pipeline.setCount', { count: data.total }) : t('pipeline.setEmpty')) : '…'}
      </Typography.Text>
      {data && data.total > 0 && (
        <Table
          size="small"
          rowKey="pipeRowId"
          loading={query.isFetching}
          dataSource={data.list}
          style={{ marginTop: 8 }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, showSizeChanger: false, size: 'small', onChange: setPage }}
          columns={[
            { title: t('pipeline.pipeId'), dataIndex: 'pipeId', ellipsis: true },
            { title: t('pipeline.networkType'), dataIndex: 'networkType', width: 86, render: (n: string) => t(`network.${n}`) },
            { title: 'DN', dataIndex: 'diameterMm', width: 56, render: (d: number | null) => d ?? '-' },
            { title: t('pipeline.distance'), dataIndex: 'distanceM', width: 86, align: 'right', render: (m: number) => m.toFixed(m < 10 ? 2 : 1) },
          ]}
        />
      )}
    </div>
  );
}
