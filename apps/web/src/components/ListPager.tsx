import type { ReactNode } from 'react';
import { Button, Pagination, Select, Space, Tooltip, Typography } from 'antd';
import { DoubleLeftOutlined, DoubleRightOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EXACT_LIST_LIMIT, type ListPage } from '@console/contract';

/** Where a list stands: a page by number, or the page after / before a key, or the last page. */
export interface ListPosition {
  page: number | null;
  pageSize: number;
  after?: string;
  before?: string;
  last?: boolean;
}

export const firstPosition = (pageSize = 20): ListPosition => ({ page: 1, pageSize });

/** The query parameters of a position. */
export const positionParams = ({ page, pageSize, after, before, last }: ListPosition) => ({
  ...(page !== null ? { page } : {}),
  pageSize,
  ...(after !== undefined ? { after } : {}),
  ...(before !== undefined ? { before } : {}),
  ...(last ? { last: 'true' } : {}),
});

const PAGE_SIZES = [10, 20, 50, 100];

/**
 * The pager of a list that may hold millions of rows: page numbers while the list fits in the
 * rows the server counts exactly, first / previous / next / last by key beyond (no deep offsets).
 */
export function ListPager<T>({
  data,
  position,
  keyOf,
  onChange,
  total,
  testId,
}: {
  data: ListPage<T> | undefined;
  position: ListPosition;
  keyOf: (row: T) => string;
  onChange: (position: ListPosition) => void;
  /** The total as the list names it ("12,345 pipes"); `exact` false means "more than". */
  total: (total: number, exact: boolean) => ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!data) return null;
  const { pageSize } = position;
  const totalText = <span data-testid={testId && `${testId}-total`}>{total(data.total, data.totalExact)}</span>;
  if (data.totalExact && data.total <= EXACT_LIST_LIMIT) {
    return (
      <Pagination
        style={{ marginTop: 16, textAlign: 'right' }}
        current={position.page ?? data.page ?? 1}
        pageSize={pageSize}
        total={data.total}
        showSizeChanger
        pageSizeOptions={PAGE_SIZES}
        showTotal={() => totalText}
        onChange={(page, size) => onChange({ page: size === pageSize ? page : 1, pageSize: size })}
        data-testid={testId}
      />
    );
  }
  const pages = data.totalExact ? Math.ceil(data.total / pageSize) : null;
  // The number of the page shown: 1 when nothing is before it; the server's for the last page
  // (known when the total is exact); otherwise counted here while moving page by page.
  const page = !data.hasPrev ? 1 : position.last ? data.page : position.page;
  const first = data.list[0];
  const last = data.list.at(-1);
  const button = (title: string, icon: ReactNode, disabled: boolean, to: () => ListPosition, name: string) => (
    <Tooltip title={title}>
      <Button size="small" icon={icon} aria-label={title} disabled={disabled} onClick={() => onChange(to())} data-testid={testId && `${testId}-${name}`} />
    </Tooltip>
  );
  return (
    <Space wrap style={{ marginTop: 16, width: '100%', justifyContent: 'flex-end' }} data-testid={testId}>
      {totalText}
      {button(t('pager.first'), <DoubleLeftOutlined />, !data.hasPrev, () => ({ page: 1, pageSize }), 'first')}
      {button(t('pager.prev'), <LeftOutlined />, !data.hasPrev || !first, () => ({ page: page === null ? null : Math.max(1, page - 1), pageSize, before: keyOf(first!) }), 'prev')}
      <Typography.Text data-testid={testId && `${testId}-page`}>
        {page === null ? t('pager.lastPage') : pages !== null ? t('pager.pageOf', { page: page.toLocaleString(), pages: pages.toLocaleString() }) : t('pager.page', { page: page.toLocaleString() })}
      </Typography.Text>
      {button(t('pager.next'), <RightOutlined />, !data.hasNext || !last, () => ({ page: page === null ? null : page + 1, pageSize, after: keyOf(last!) }), 'next')}
      {button(t('pager.last'), <DoubleRightOutlined />, !data.hasNext, () => ({ page: null, pageSize, last: true }), 'last')}
      <Select
        size="small"
        aria-label={t('pager.pageSize')}
        value={pageSize}
        onChange={(size) => onChange({ page: 1, pageSize: size })}
        options={PAGE_SIZES.map((size) => ({ value: size, label: t('pager.perPage', { size }) }))}
        style={{ width: 110 }}
      />
    </Space>
  );
}
