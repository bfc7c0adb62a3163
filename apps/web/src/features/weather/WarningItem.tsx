import { List, Space, Typography } from 'antd';
import { Tag } from '../../components/Tag.tsx';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import { COLD_WAVE_RULES, GALE_RULES, HEAT_RULES, RAINSTORM_RULES, WARNING_LEVEL_COLORS } from '@console/contract';
import type { WeatherWarning } from '../../api/weather.ts';
import { formatLength } from '../../utils/format.ts';

/** The rule a derived warning met, in the reader's language (from its type, level and figure). */
export function ruleText(t: TFunction, w: WeatherWarning): string | null {
  if (w.source !== 'derived' || w.value === null || !w.level) return null;
  const value = w.value;
  if (w.type === 'rainstorm') {
    const rule = RAINSTORM_RULES.find((r) => r.level === w.level)!;
    return t('weather.rule.rainstorm', { value, hours: rule.hours, mm: rule.mm });
  }
  if (w.type === 'coldWave') {
    const rule = COLD_WAVE_RULES.find((r) => r.level === w.level)!;
    return t('weather.rule.coldWave', { value, hours: rule.hours, drop: rule.drop, minimum: rule.minimumAtMost });
  }
  if (w.type === 'gale') {
    const rule = GALE_RULES.find((r) => r.level === w.level)!;
    return t('weather.rule.gale', { value, force: rule.force, ms: rule.metresPerSecond });
  }
  if (w.type === 'heat') {
    const rule = HEAT_RULES.find((r) => r.level === w.level)!;
    return t(rule.days > 1 ? 'weather.rule.heatDays' : 'weather.rule.heat', { value, maximum: rule.maximumAtLeast, days: rule.days });
  }
  return null;
}

/** A warning's type in the reader's language: the rule's, else the official event (CMA's signal names known, others as issued). */
export function warningType(w: WeatherWarning, t: TFunction): string {
  if (w.type !== 'other') return t(`weather.type.${w.type}`);
  if (!w.event) return t('weather.type.other');
  return t(`weather.event.${w.event}`, { defaultValue: w.event });
}

/** The tag of a warning: its type (or the official event) and level in the level's colour. */
export function WarningTag({ warning: w }: { warning: WeatherWarning }) {
  const { t } = useTranslation();
  const type = warningType(w, t);
  if (!w.level) return <Tag>{type}</Tag>;
  return (
    <Tag color={WARNING_LEVEL_COLORS[w.level]}>
      {type} · {t(`weather.levelName.${w.level}`)}
    </Tag>
  );
}

export const isActive = (w: WeatherWarning, now = dayjs()) => !w.cancelledAt && dayjs(w.start).isBefore(now) && dayjs(w.end).isAfter(now);

/** One warning: type and level, source, when, the rule it met or the issuer's words, its messages, and what it touches. */
export function WarningItem({ warning, selected, onSelect }: { warning: WeatherWarning; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation();
  const w = warning;
  const touches = w.touches;
  const nothing = !touches.pipes.length && !touches.riskAreas.length && !touches.sites.length;
  const rule = ruleText(t, w);
  return (
    <List.Item onClick={onSelect} style={{ cursor: 'pointer', background: selected ? '#e6f4ff' : undefined, paddingInline: 8 }} data-testid="weather-warning">
      <Space direction="vertical" size={2} style={{ width: '100%' }}>
        <Space wrap size={4}>
          <WarningTag warning={w} />
          {w.source === 'official' ? <Tag color="purple">{t('weather.official', { sender: w.senderName ?? '' })}</Tag> : w.basis && <Tag>{t(`weather.basis.${w.basis}`)}</Tag>}
          {w.cancelledAt ? <Tag>{t('weather.cancelled')}</Tag> : isActive(w) && <Tag color="red">{t('weather.active')}</Tag>}
          <Typography.Text type="secondary">
            {dayjs(w.start).format('YYYY-MM-DD HH:mm')} ~ {dayjs(w.end).format('MM-DD HH:mm')}
          </Typography.Text>
        </Space>
        {rule && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{rule}</Typography.Text>}
        {w.headline && <Typography.Text style={{ fontSize: 12 }}>{w.headline}</Typography.Text>}
        {w.instruction && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('weather.measures')}: {w.instruction}</Typography.Text>}
        {w.source === 'official' && w.updates.length > 1 && (
          <Typography.Text style={{ fontSize: 12 }} data-testid="weather-updates">
            {w.updates.map((u) => `${dayjs(u.sent).format('MM-DD HH:mm')} ${t(`weather.msgType.${u.msgType}`)}${u.msgType !== 'Cancel' && u.level ? ` ${u.level}` : ''}`).join(' → ')}
          </Typography.Text>
        )}
        {w.source === 'derived' && w.levels.length > 1 && (
          <Typography.Text style={{ fontSize: 12 }}>{w.levels.slice(1).map((l) => t('weather.raised', { level: l.level, at: dayjs(l.at).format('MM-DD HH:mm') })).join('; ')}</Typography.Text>
        )}
        <div data-testid="weather-touches">
          <Typography.Text strong>{t('weather.touches')}: </Typography.Text>
          {nothing && <Typography.Text type="secondary">{t('weather.touchesNone')}</Typography.Text>}
          {touches.riskAreas.map((a) => (
            <div key={a.id}>
              {a.name} ({a.why === 'triggerMet' ? t(w.source === 'official' ? 'weather.why.triggerExpected' : 'weather.why.triggerMet', { rain: a.rainMm, hours: a.hours, trigger: a.triggerMm }) : t('weather.why.washOut')})
            </div>
          ))}
          {touches.pipes.map((p) => (
            <div key={p.networkType + p.why}>{t('weather.pipes', { network: t(`network.${p.networkType}`), count: p.count, length: formatLength(p.lengthM), why: t(`weather.why.${p.why}`) })}</div>
          ))}
          {touches.sites.length > 0 && <div>{t('weather.sites', { list: touches.sites.map((s) => `${s.siteNo} ${s.name}`).join(', ') })}</div>}
        </div>
      </Space>
    </List.Item>
  );
}
