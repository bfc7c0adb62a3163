import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { RISK_LEVEL_COLORS, type RiskLevel } from '@console/contract';
import { readableTextOn } from '../../components/Tag.tsx';

export interface BoardItem {
  id: number;
  code: string;
  title: string;
  level: RiskLevel;
  state: string;
  raisedAt: string;
  /** Raised while the screen was open. */
  fresh: boolean;
}

/** Rows in view, and how often the board moves on by one. */
export const BOARD_ROWS = 5;
export const BOARD_STEP_MS = 2_000;
const ROW_HEIGHT = 42;

/**
 * The rolling alert board: five rows in view, one row up every two seconds, still while the
 * pointer is over it: the rows then held as they were, so an alert coming in live does not move
 * the row being read (it comes in at the top when the pointer leaves). Texts are rendered as
 * text, never as HTML.
 */
export function RollingBoard({ items }: { items: BoardItem[] }) {
  const [offset, setOffset] = useState(0);
  // The rows as they were when the pointer came to rest on the board; null while it rolls.
  const [held, setHeld] = useState<BoardItem[] | null>(null);
  const paused = held !== null;
  const rows = held ?? items;
  const rolls = rows.length > BOARD_ROWS;
  useEffect(() => {
    if (!rolls || paused) return;
    const timer = setInterval(() => setOffset((o) => (o + 1) % rows.length), BOARD_STEP_MS);
    return () => clearInterval(timer);
  }, [rolls, paused, rows.length]);
  // A new alert comes in at the top: the board starts over so it shows.
  const first = rows[0]?.id;
  useEffect(() => setOffset(0), [first]);
  const shown = rolls ? Array.from({ length: BOARD_ROWS }, (_, i) => rows[(offset + i) % rows.length]) : rows;
  return (
    <div className="datav-board" data-testid="datav-board-rows" data-paused={paused} onMouseEnter={() => setHeld(items)} onMouseLeave={() => setHeld(null)} style={{ height: ROW_HEIGHT * BOARD_ROWS }}>
      {shown.map((item) => (
        <div key={`${item.id}-${offset}`} className={`datav-board-row${item.fresh ? ' datav-board-fresh' : ''}`} style={{ height: ROW_HEIGHT }} data-testid="datav-board-row">
          <span className="datav-board-level" style={{ background: RISK_LEVEL_COLORS[item.level], color: readableTextOn(RISK_LEVEL_COLORS[item.level]) }}>{item.level}</span>
          <span className="datav-board-title" title={item.title}>{item.title}</span>
          <span className="datav-board-state">{item.state}</span>
          <span className="datav-board-time">{dayjs(item.raisedAt).format('MM-DD HH:mm')}</span>
        </div>
      ))}
    </div>
  );
}
