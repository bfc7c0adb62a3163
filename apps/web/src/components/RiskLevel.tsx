import { Tag } from 'antd';
import { RISK_LEVEL_COLORS, type RiskLevel } from '@console/contract';

/** A risk level in its colour (yellow with dark text, to be read). */
export function RiskLevelTag({ level, label }: { level: RiskLevel; label?: string }) {
  return (
    <Tag color={RISK_LEVEL_COLORS[level]} style={level === 'III' ? { color: '#614700' } : undefined}>
      {label ?? level}
    </Tag>
  );
}

/** A 1-5 factor score as a small square: the darker, the worse. */
const SCORE_COLORS = ['#f0f0f0', '#d9f7be', '#fff1b8', '#ffd591', '#ffa39e', '#ff4d4f'];
export function ScoreCell({ score, title }: { score: number; title: string }) {
  return (
    <span title={`${title}: ${score}`} style={{ display: 'inline-block', width: 18, height: 18, lineHeight: '18px', textAlign: 'center', fontSize: 11, borderRadius: 3, marginRight: 2, background: SCORE_COLORS[score], color: score === 5 ? '#fff' : '#262626' }}>
      {score}
    </span>
  );
}
