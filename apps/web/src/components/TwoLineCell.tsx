import type { ReactNode } from 'react';
import { Typography } from 'antd';

/**
 * A list's main cell: the name on one line (cut with an ellipsis, whole on hover) and what kind of
 * thing it is in small grey text below, so a list beside a map needs one column for both.
 */
export function TwoLineCell({ main, sub, maxWidth = 220 }: { main: string; sub: ReactNode; maxWidth?: number }) {
  return (
    <div style={{ maxWidth, lineHeight: 1.3 }}>
      <Typography.Text ellipsis={{ tooltip: main }} style={{ display: 'block', maxWidth }}>{main}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{sub}</Typography.Text>
    </div>
  );
}
