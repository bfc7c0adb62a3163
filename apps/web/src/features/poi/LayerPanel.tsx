import type { CSSProperties, ReactNode } from 'react';
import { Button, Checkbox, Slider, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { NETWORK_MAP_COLOR, ACQUISITION_STATUSES, POI_PRIORITIES, POI_STATUSES, type NetworkType, type PoiOverlayLayers } from '@console/contract';

import { POI_STATUS_COLOR } from '../leaks/poiStatus.ts';
import { ACQUISITION_STATUS_COLOR } from '../saocom/footprints.ts';
import '../leaks/leakMessages.ts';
import '../saocom/saocomMessages.ts';
import './poiControlMessages.ts';

type LayerKey = keyof PoiOverlayLayers;

/** Legend symbols: a line for pipes, a disc for POIs, an outline for footprints, a dashed edge for project areas. */
const SYMBOL: Record<'line' | 'disc' | 'outline' | 'dashed', (color: string) => CSSProperties> = {
  line: (color) => ({ width: 18, height: 3, background: color }),
  disc: (color) => ({ width: 12, height: 12, borderRadius: 6, background: `${color}55`, border: `2px solid ${color}` }),
  outline: (color) => ({ width: 14, height: 10, border: `2px solid ${color}` }),
  dashed: (color) => ({ width: 14, height: 10, border: `2px dashed ${color}` }),
};

export function Symbol({ kind, color }: { kind: keyof typeof SYMBOL; color: string }) {
  return <span style={{ display: 'inline-block', verticalAlign: 'middle', marginRight: 6, ...SYMBOL[kind](color) }} />;
}

/** One layer: shown or not, how opaque, and its own filters (which double as its legend). */
function LayerSection({ layer, title, extra, value, onChange, children }: { layer: LayerKey; title: string; extra?: ReactNode; value: PoiOverlayLayers[LayerKey]; onChange: (value: PoiOverlayLayers[LayerKey]) => void; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div style={{ padding: '8px 0', borderTop: '1px solid #f0f0f0' }} data-testid={`layer-${layer}`}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space size={8}>
          <Switch size="small" aria-label={title} checked={value.visible} onChange={(visible) => onChange({ ...value, visible })} data-testid={`layer-${layer}-visible`} />
          <Typography.Text strong>{title}</Typography.Text>
        </Space>
        {extra}
      </Space>
      {value.visible && (
        <>
          <div style={{ display: 'flex', alignItems: 'center', gap: 8 }} data-testid={`layer-${layer}-opacity`}>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>{t('poiControl.opacity')}</Typography.Text>
            <Slider
              style={{ flex: 1, margin: '8px 4px' }}
              min={0.1}
              max={1}
              step={0.1}
              ariaLabelForHandle={`${title}: ${t('poiControl.opacity')}`}
              value={value.opacity}
              tooltip={{ formatter: (v) => `${Math.round((v ?? 0) * 100)} %` }}
              onChange={(opacity) => onChange({ ...value, opacity })}
            />
          </div>
          {children}
        </>
      )}
    </div>
  );
}

/** A group of kinds, each with its legend symbol; unticked kinds are hidden. */
function Kinds<T extends string>({ testId, all, value, onChange, label, symbol }: { testId: string; all: readonly T[]; value: T[]; onChange: (value: T[]) => void; label: (kind: T) => string; symbol: (kind: T) => ReactNode }) {
  return (
    <Checkbox.Group value={value} onChange={(v) => onChange(all.filter((k) => v.includes(k)))} style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', rowGap: 2 }}>
      {all.map((kind) => (
        <Checkbox key={kind} value={kind} data-testid={`${testId}-${kind}`}>
          {symbol(kind)}
          {label(kind)}
        </Checkbox>
      ))}
    </Checkbox.Group>
  );
}

/**
 * The overlay's layer control: basemap, project areas, pipes by network (those the enterprise
 * has), POIs by status and priority, scene footprints by status.
 */
export function LayerPanel({ layers, onChange, poiCount, poiFilters, networks }: { layers: PoiOverlayLayers; onChange: (layers: PoiOverlayLayers) => void; poiCount: { shown: number; total: number }; poiFilters?: ReactNode; networks: readonly NetworkType[] }) {
  const { t } = useTranslation();
  const section = <K extends LayerKey>(key: K) => ({ layer: key, value: layers[key], onChange: (value: PoiOverlayLayers[LayerKey]) => onChange({ ...layers, [key]: value }) });
  return (
    <div>
      <LayerSection title={t('map.basemap')} {...section('basemap')} />
      <LayerSection title={t('map.areas')} {...section('areas')}>
        <Symbol kind="dashed" color="#f5222d" />
        <Typography.Text type="secondary">{t('poiControl.areaLegend')}</Typography.Text>
      </LayerSection>
      <LayerSection title={t('map.pipes')} {...section('pipes')}>
        {!networks.length && <Typography.Text type="secondary">{t('poiControl.noPipes')}</Typography.Text>}
        <Kinds testId="pipe-network" all={networks} value={layers.pipes.networks} onChange={(networks) => onChange({ ...layers, pipes: { ...layers.pipes, networks } })} label={(n) => t(`network.${n}`)} symbol={(n) => <Symbol kind="line" color={NETWORK_MAP_COLOR[n]} />} />
      </LayerSection>
      <LayerSection
        title={t('poiControl.pois')}
        extra={<Typography.Text type="secondary" data-testid="poi-shown">{t('poiControl.shown', { shown: poiCount.shown, total: poiCount.total })}</Typography.Text>}
        {...section('pois')}
      >
        {poiFilters}
        <Kinds testId="poi-status" all={POI_STATUSES} value={layers.pois.statuses} onChange={(statuses) => onChange({ ...layers, pois: { ...layers.pois, statuses } })} label={(s) => t(`leak.status.${s}`)} symbol={(s) => <Symbol kind="disc" color={POI_STATUS_COLOR[s]} />} />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('leak.priorityTitle')}</Typography.Text>
        <Kinds testId="poi-priority" all={POI_PRIORITIES} value={layers.pois.priorities} onChange={(priorities) => onChange({ ...layers, pois: { ...layers.pois, priorities } })} label={(p) => t(`leak.priority.${p}`)} symbol={() => null} />
      </LayerSection>
      <LayerSection title={t('poiControl.footprints')} {...section('footprints')}>
        <Kinds testId="footprint-status" all={ACQUISITION_STATUSES} value={layers.footprints.statuses} onChange={(statuses) => onChange({ ...layers, footprints: { ...layers.footprints, statuses } })} label={(s) => t(`saocom.status.${s}`)} symbol={(s) => <Symbol kind="outline" color={ACQUISITION_STATUS_COLOR[s]} />} />
      </LayerSection>
    </div>
  );
}

export function ResetLayers({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <Button type="link" size="small" onClick={onReset} data-testid="layers-reset">
      {t('poiControl.reset')}
    </Button>
  );
}
