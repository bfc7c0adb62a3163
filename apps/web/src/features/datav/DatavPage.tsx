import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { NETWORK_MAP_COLOR, RISK_LEVELS, RISK_LEVEL_COLORS, type DatavOverview, type MapSettings, type NetworkType } from '@console/contract';
import { get } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import type { IncidentPlace } from '../../api/alerts.ts';
import { usePermission } from '../../components/Authorized.tsx';
import { Chart } from '../../components/Chart.tsx';
import { MapView, type MapLayerVisibility, type MapOverlay } from '../../components/MapView.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { incidentFeatures, incidentTitle } from '../alerts/alertStyle.ts';
import { loadAlertMessages, useLiveAlerts } from '../alerts/liveAlerts.ts';
import { RollingBoard } from './RollingBoard.tsx';
import './datav.css';

await loadAlertMessages();
await loadNamespace('datav', { 'zh-CN': () => import('../../locales/datav/zh-CN.ts'), 'en-US': () => import('../../locales/datav/en-US.ts') });

/** The canvas the screen is laid out on, scaled to the window (DOMAIN: big screen). */
const WIDTH = 1920;
const HEIGHT = 1080;
const TEXT = '#cfe8ff';
const DIM = 'rgba(207,232,255,0.65)';
const PALETTE = ['#36cfc9', '#597ef7', '#ffc53d', '#ff7a45', '#9254de', '#73d13d', '#f759ab', '#40a9ff'];

const datavApi = {
  overview: () => get<DatavOverview>('/datav/overview'),
  alerts: () => get<IncidentPlace[]>('/datav/alerts'),
};

/** scale = min(w/1920, h/1080), the canvas centred in the window. */
function useCanvasPlacement() {
  const measure = () => {
    const scale = Math.min(window.innerWidth / WIDTH, window.innerHeight / HEIGHT);
    return { scale, left: (window.innerWidth - WIDTH * scale) / 2, top: (window.innerHeight - HEIGHT * scale) / 2 };
  };
  const [placement, setPlacement] = useState(measure);
  useEffect(() => {
    const onResize = () => setPlacement(measure());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return placement;
}

function Panel({ title, children, testId, height }: { title: string; children: ReactNode; testId?: string; height?: number }) {
  return (
    <section className="datav-panel" data-testid={testId} style={{ height }}>
      <h2>{title}</h2>
      <div className="datav-panel-body">{children}</div>
    </section>
  );
}

/** A figure of the screen: a number with its thousands separated in the reader's language. */
function Figure({ label, value, unit, color }: { label: string; value: ReactNode; unit?: string; color?: string }) {
  const { i18n } = useTranslation();
  return (
    <div className="datav-figure">
      <div className="datav-figure-value" style={{ color }}>
        {typeof value === 'number' ? value.toLocaleString(i18n.language) : value}
        {unit && <small>{unit}</small>}
      </div>
      <div className="datav-figure-label">{label}</div>
    </div>
  );
}

const pie = (data: { name: string; value: number; itemStyle?: object }[]) => ({
  color: PALETTE,
  tooltip: { trigger: 'item' },
  legend: { orient: 'vertical', right: 0, top: 'middle', textStyle: { color: TEXT, fontSize: 14 }, itemWidth: 12, itemHeight: 12 },
  series: [{ type: 'pie', radius: ['45%', '72%'], center: ['32%', '50%'], label: { show: false }, data }],
});

const bars = (names: string[], values: number[], colors: string[] | string, unit = '') => ({
  grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
  tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v} ${unit}` },
  xAxis: { type: 'value', axisLabel: { color: DIM, fontSize: 12 }, splitLine: { lineStyle: { color: 'rgba(255,255,255,0.08)' } } },
  yAxis: { type: 'category', data: names, axisLabel: { color: TEXT, fontSize: 14 }, axisLine: { lineStyle: { color: 'rgba(255,255,255,0.2)' } } },
  series: [{ type: 'bar', barWidth: 14, data: values.map((value, i) => ({ value, itemStyle: { color: Array.isArray(colors) ? colors[i % colors.length] : colors, borderRadius: [0, 4, 4, 0] } })), label: { show: true, position: 'right', color: TEXT, fontSize: 13 } }],
});

/**
 * The supervision centre's wall screen: the network coloured by composite risk with the open alerts
 * and the warnings in force on a central map, every monitor's figures around it, and the newest
 * alerts rolling by. New alerts and state changes arrive live from the alert stream.
 */
export default function DatavPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { scale, left, top } = useCanvasPlacement();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const enterprise = useSession((s) => s.enterprises?.find((e) => e.id === s.enterpriseID));
  const live = usePermission()('risk', 'query');
  const [now, setNow] = useState(dayjs());
  const [fresh, setFresh] = useState<number[]>([]);
  useEffect(() => {
    const timer = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(timer);
  }, []);

  const overview = useQuery({ queryKey: ['datav', enterpriseID, 'overview'], queryFn: datavApi.overview, refetchInterval: 60_000 });
  const places = useQuery({ queryKey: ['datav', enterpriseID, 'alerts'], queryFn: datavApi.alerts, refetchInterval: 60_000 });
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  useLiveAlerts(enterpriseID, live, (event) => {
    void queryClient.invalidateQueries({ queryKey: ['datav', enterpriseID] });
    void queryClient.invalidateQueries({ queryKey: ['alerts', enterpriseID] });
    if (event.kind === 'raised') setFresh((ids) => [event.id, ...ids].slice(0, 20));
  });

  const o = overview.data?.result;
  const overlays = useMemo<MapOverlay[]>(() => {
    const warnings = (o?.weather.warnings ?? []).map((w) => ({ id: w.id, geometry: w.area as never, color: w.level ? RISK_LEVEL_COLORS[w.level] : '#8c8c8c', outline: true, label: w.headline ?? t(`alerts.weatherType.${w.type}`) }));
    return [
      { key: 'warnings', features: warnings, opacity: 0.9 },
      { key: 'alerts', features: incidentFeatures(places.data?.result ?? [], t) },
    ];
  }, [o?.weather.warnings, places.data, t]);
  const visibility = useMemo<MapLayerVisibility>(() => ({ basemap: true, areas: false, networks: Object.keys(NETWORK_MAP_COLOR) as NetworkType[], colourBy: 'risk' }), []);

  const types = Object.entries(o?.network.byType ?? {}).sort((a, b) => b[1].km - a[1].km);
  const totalKm = types.reduce((sum, [, v]) => sum + v.km, 0);
  const a = o?.alerts;
  const place = o?.weather.places[0];
  return (
    <div className="datav-root" data-testid="datav">
      <div className="datav-canvas" data-testid="datav-canvas" style={{ width: WIDTH, height: HEIGHT, transform: `scale(${scale})`, left, top }}>
        <header className="datav-header">
          <Button type="text" icon={<ArrowLeftOutlined />} className="datav-back" onClick={() => navigate('/')}>
            {t('common.back')}
          </Button>
          <div className="datav-enterprise">{enterprise?.enterpriseName}</div>
          <h1>{t('datav.title')}</h1>
          <div className="datav-clock" data-testid="datav-clock">{now.format('YYYY-MM-DD HH:mm:ss')}</div>
        </header>

        <div className="datav-column datav-left">
          <Panel title={t('datav.network', { km: totalKm.toFixed(1) })} testId="datav-network" height={250}>
            <Chart height={200} option={bars(types.map(([k]) => t(`network.${k}`)), types.map(([, v]) => v.km), types.map(([k]) => NETWORK_MAP_COLOR[k as NetworkType] ?? PALETTE[0]), 'km')} />
          </Panel>
          <Panel title={t('datav.diameter')} height={220}>
            <Chart height={170} option={pie(Object.entries(o?.network.byDiameterKm ?? {}).map(([name, value]) => ({ name: name === 'unknown' ? t('datav.unknown') : name, value })))} />
          </Panel>
          <Panel title={t('datav.material')} height={220}>
            <Chart height={170} option={pie(Object.entries(o?.network.byMaterialKm ?? {}).sort((x, y) => y[1] - x[1]).slice(0, 7).map(([name, value]) => ({ name: name === 'unknown' ? t('datav.unknown') : t(`material.${name}`, { defaultValue: name }), value })))} />
          </Panel>
          <Panel title={t('datav.leaks')} testId="datav-leaks" height={240}>
            <div className="datav-figures">
              <Figure label={t('datav.leakDelivered')} value={o?.leaks.delivered ?? '-'} />
              <Figure label={t('datav.leakInvestigated')} value={o?.leaks.investigated ?? '-'} />
              <Figure label={t('datav.leakConfirmed')} value={o?.leaks.confirmed ?? '-'} color="#ff7a45" />
              <Figure label={t('datav.leakRepaired')} value={o?.leaks.repaired ?? '-'} color="#73d13d" />
              <Figure label={t('datav.surveyed')} value={o?.leaks.surveyedKm ?? '-'} unit="km" />
              <Figure label={t('datav.saved')} value={o?.leaks.waterSavedM3PerDay ?? '-'} unit="m³/d" color="#36cfc9" />
            </div>
          </Panel>
        </div>

        <div className="datav-center">
          <div className="datav-kpis" data-testid="datav-kpis">
            <Figure label={t('datav.openAlerts')} value={a?.open ?? '-'} color="#ff7a45" />
            <Figure label={t('datav.overdue')} value={a?.overdue ?? '-'} color="#ff4d4f" />
            <Figure label={t('datav.onTime')} value={a?.onTimeRate === null || !a ? '-' : Math.round(a.onTimeRate * 100)} unit={a?.onTimeRate === null || !a ? undefined : '%'} color="#73d13d" />
            <Figure label={t('datav.riskHigh')} value={o?.risk ? o.risk.levels.I + o.risk.levels.II : '-'} color="#fa8c16" />
            <Figure label={t('datav.warnings')} value={o?.weather.warnings.length ?? '-'} color="#ffc53d" />
          </div>
          <div className="datav-map" data-testid="datav-map">
            {settings.data && <MapView settings={settings.data.result as MapSettings} height={700} visibility={visibility} overlays={overlays} theme="dark" />}
            <div className="datav-legend">
              {RISK_LEVELS.map((l) => (
                <span key={l}>
                  <i style={{ background: RISK_LEVEL_COLORS[l] }} />
                  {t(`alerts.levelName.${l}`)} {o?.risk ? o.risk.levels[l].toLocaleString(i18n.language) : ''}
                </span>
              ))}
            </div>
          </div>
          <div className="datav-strip">
            <Panel title={t('datav.settlement')} testId="datav-settlement" height={150}>
              <div className="datav-figures datav-figures-row">
                <Figure label={t('datav.points')} value={o ? o.settlement.points : '-'} />
                <Figure label={t('datav.segments')} value={o ? o.settlement.segments : '-'} />
                <Figure label={t('datav.warn')} value={o?.settlement.warn ?? '-'} color="#ffc53d" />
                <Figure label={t('datav.alarm')} value={o?.settlement.alarm ?? '-'} color="#ff4d4f" />
              </div>
            </Panel>
            <Panel title={t('datav.construction')} testId="datav-construction" height={150}>
              <div className="datav-figures datav-figures-row">
                <Figure label={t('datav.sites')} value={o?.construction.total ?? '-'} />
                <Figure label={t('datav.threats')} value={o?.construction.openThreats ?? '-'} color="#ff7a45" />
                <Figure label={t('datav.insideGas')} value={o?.construction.insideGasProtection ?? '-'} color="#ff4d4f" />
                <Figure label={t('datav.toReview')} value={o?.construction.byStatus.review ?? 0} color="#ffc53d" />
              </div>
            </Panel>
            <Panel title={t('datav.sensors')} testId="datav-sensors" height={150}>
              <div className="datav-figures datav-figures-row">
                <Figure label={t('datav.devices')} value={o?.sensors.total ?? '-'} />
                <Figure label={t('datav.alarm')} value={o?.sensors.byState.alarm ?? 0} color="#ff4d4f" />
                <Figure label={t('datav.warn')} value={o?.sensors.byState.warning ?? 0} color="#ffc53d" />
                <Figure label={t('datav.outOfOrder')} value={o ? (o.sensors.byState.silent ?? 0) + (o.sensors.byState.fault ?? 0) : '-'} color="#8c8c8c" />
              </div>
            </Panel>
          </div>
        </div>

        <div className="datav-column datav-right">
          <Panel title={t('datav.alertsByLevel')} testId="datav-alert-levels" height={220}>
            <Chart height={170} option={pie(RISK_LEVELS.map((l) => ({ name: t(`alerts.levelName.${l}`), value: a?.byLevel[l] ?? 0, itemStyle: { color: RISK_LEVEL_COLORS[l] } })))} />
          </Panel>
          <Panel title={t('datav.alertsByState')} height={230}>
            <Chart
              height={180}
              option={bars(
                (['new', 'confirmed', 'dispatched', 'handling', 'handled', 'closed'] as const).map((s) => t(`alerts.state.${s}`)),
                (['new', 'confirmed', 'dispatched', 'handling', 'handled', 'closed'] as const).map((s) => a?.byState[s] ?? 0),
                PALETTE,
              )}
            />
          </Panel>
          <Panel title={t('datav.weather')} testId="datav-weather" height={210}>
            {place?.latest ? (
              <div className="datav-weather-now">
                <div className="datav-weather-place">{place.name} · {dayjs(place.latest.time).format('MM-DD HH:mm')}</div>
                <div className="datav-figures datav-figures-row">
                  <Figure label={t('datav.temperature')} value={place.latest.temperature ?? '-'} unit="°C" />
                  <Figure label={t('datav.rain')} value={place.latest.precipitation ?? '-'} unit="mm" />
                  <Figure label={t('datav.wind')} value={place.latest.windSpeed ?? '-'} unit="m/s" />
                </div>
              </div>
            ) : (
              <div className="datav-empty">{t('datav.noWeather')}</div>
            )}
            <div className="datav-warnings">
              {(o?.weather.warnings ?? []).slice(0, 3).map((w) => (
                <span key={w.id} className="datav-warning" style={{ borderColor: w.level ? RISK_LEVEL_COLORS[w.level] : '#8c8c8c', color: w.level ? RISK_LEVEL_COLORS[w.level] : TEXT }}>
                  {t(`alerts.weatherType.${w.type}`)} {w.level ?? ''}
                </span>
              ))}
            </div>
          </Panel>
          <Panel title={t('datav.board')} testId="datav-board" height={270}>
            <RollingBoard items={(o?.board ?? []).map((b) => ({ ...b, title: incidentTitle(b), state: t(`alerts.state.${b.state}`), fresh: fresh.includes(b.id) }))} />
          </Panel>
        </div>
      </div>
    </div>
  );
}
