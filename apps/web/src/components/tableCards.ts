import type { TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { usePhone } from './usePhone.ts';

/**
 * A list's table as a card per row on a phone: no header, each cell on its own line under the
 * column's name, nothing off-screen to scroll sideways to (the `table-cards` styles in
 * global.css). Wider screens keep the table as it is, with its own sideways scroll.
 */
export function useTableCards<T>(wideScroll: TableProps<T>['scroll']): { phone: boolean; tableProps: Pick<TableProps<T>, 'className' | 'scroll'>; cards: (columns: ColumnsType<T>) => ColumnsType<T> } {
  const phone = usePhone();
  return {
    phone,
    tableProps: phone ? { className: 'table-cards', scroll: undefined } : { scroll: wideScroll },
    // Each cell names its column (data-label), as the header would.
    cards: (columns) =>
      phone
        ? columns.map((column) => ({
            ...column,
            // Every column shows on a card: hiding is for a table's width, which a card does not have.
            responsive: undefined,
            onCell: (row: T, index?: number) => ({ ...(column.onCell?.(row, index) ?? {}), 'data-label': typeof column.title === 'string' ? column.title : undefined }) as never,
          }))
        : columns,
  };
}
