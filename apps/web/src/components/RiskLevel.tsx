import { Tag } from './Tag.tsx';
import { RISK_LEVEL_COLORS, type RiskLevel } from '@console/contract';

/** A risk level in its colour (the text white or dark by the colour: components/Tag.tsx). */
export function RiskLevelTag({ level, label }: { level: RiskLevel; label?: string }) {
  return (
    <Tag color={RISK_LEVEL_COLORS[level]}>
      {label ?? level}
    </Tag>
  );
}

/** A 1-5 factor score as a small square: the darker, the worse. */
const SCORE_COLORS = ['#f0f0f0', '#d9f7be', '#fff1b8', '#ffd591', '#ffa39e', '#ff4d4f'];
export function ScoreCell({ score, title }: { score: number; title: string }) {
  return (
    <span title={`${title}: ${score}`} style={{ display: 'inline-block', width: 16, height: 18, lineHeight: '18px', textAlign: 'center', fontSize: 11, borderRadius: 3, marginRight: 1, background: SCORE_COLORS[score], color: score === 5 ? '#fff' : '#262626' }}>
      {score}
    </span>
  );
}

/**
 * The risk index (1-25) as a bar in its level's colour filled to the segment's percentile within
 * its level, so segments of one level read apart at a glance; the figure beside it.
 */
export function RiskIndexBar({ index, level, percentile, title }: { index: number; level: RiskLevel; percentile: number; title: string }) {
  return (
    <span title={title} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, whiteSpace: 'nowrap' }}>
      <span style={{ display: 'inline-block', width: 48, height: 8, borderRadius: 4, background: '#f0f0f0', overflow: 'hidden' }}>
        <span style={{ display: 'block', width: `${Math.max(4, percentile)}%`, height: '100%', background: RISK_LEVEL_COLORS[level] }} />
      </span>
      <span style={{ fontVariantNumeric: 'tabular-nums' }}>{index.toFixed(1)}</span>
    </span>
  );
}
