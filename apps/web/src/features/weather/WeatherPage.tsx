import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, DatePicker, Empty, List, Row, Select, Skeleton, Space } from 'antd';
import { CloudServerOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { WARNING_LEVEL_COLORS, type BBox } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { weatherApi, type WeatherHourRow, type WeatherPlace } from '../../api/weather.ts';
import { Authorized, usePermission } from '../../components/Authorized.tsx';
import { LazyChart as Chart } from '../../components/LazyChart.tsx';
import { MapView } from '../../components/MapView.tsx';
import { loadNamespace } from '../../locales/index.ts';
import { useSession } from '../../stores/session.ts';
import { WarningItem, WarningTag, isActive, warningType } from './WarningItem.tsx';
import { WeatherSourceModal } from './WeatherSourceModal.tsx';
import { WeatherUploadModal } from './WeatherUploadModal.tsx';

// The screen's messages come with it, not with the sign-in page.
await loadNamespace('weather', { 'zh-CN': () => import('../../locales/weather/zh-CN.ts'), 'en-US': () => import('../../locales/weather/en-US.ts') });

/** Rolling sums of the last `n` hours (what the rainstorm rules look at). */
function rolling(rows: WeatherHourRow[], n: number) {
  return rows.map((_, i) => Math.round(rows.slice(Math.max(0, i - n + 1), i + 1).reduce((s, r) => s + (r.precipitation ?? 0), 0) * 10) / 10);
}

/** Rain bars with their 3/6/12 h sums, temperature and wind, observed then forecast (dashed). */
function chartOptions(t: TFunction, observed: WeatherHourRow[], forecast: WeatherHourRow[]) {
  const all = [...observed, ...forecast];
  const times = all.map((r) => dayjs(r.time).format('MM-DD HH:mm'));
  const split = (values: (number | null)[]) => [values.map((v, i) => (i < observed.length ? v : null)), values.map((v, i) => (i >= observed.length - 1 ? v : null))];
  const base = { tooltip: { trigger: 'axis' }, grid: { left: 48, right: 16, top: 36, bottom: 28 }, xAxis: { type: 'category', data: times, axisLabel: { hideOverlap: true } } };
  const [tObserved, tForecast] = split(all.map((r) => r.temperature));
  const [wObserved, wForecast] = split(all.map((r) => r.windSpeed));
  const [gObserved, gForecast] = split(all.map((r) => r.windGust));
  const dashed = { lineStyle: { type: 'dashed' } };
  return {
    rain: {
      ...base,
      legend: { top: 0 },
      yAxis: { type: 'value', name: 'mm' },
      series: [
        { name: t('weather.charts.hourly'), type: 'bar', data: all.map((r, i) => ({ value: r.precipitation, itemStyle: { color: i < observed.length ? '#1677ff' : '#91caff' } })) },
        ...([3, 6, 12] as const).map((n, k) => ({ name: t(`weather.charts.sum${n}`), type: 'line', showSymbol: false, data: rolling(all, n), lineStyle: { width: 1.5 }, color: ['#fa8c16', '#faad14', '#73d13d'][k] })),
      ],
    },
    temperature: {
      ...base,
      legend: { top: 0 },
      yAxis: { type: 'value', name: '°C', scale: true },
      series: [
        { name: t('weather.charts.temperature'), type: 'line', showSymbol: false, data: tObserved, color: '#cf1322' },
        { name: `${t('weather.charts.temperature')} · ${t('weather.charts.forecast')}`, type: 'line', showSymbol: false, data: tForecast, color: '#cf1322', ...dashed },
      ],
    },
    wind: {
      ...base,
      legend: { top: 0 },
      yAxis: { type: 'value', name: 'm/s' },
      series: [
        { name: t('weather.charts.mean'), type: 'line', showSymbol: false, data: wObserved, color: '#13c2c2' },
        { name: t('weather.charts.gust'), type: 'line', showSymbol: false, data: gObserved, color: '#722ed1' },
        { name: `${t('weather.charts.mean')} · ${t('weather.charts.forecast')}`, type: 'line', showSymbol: false, data: wForecast, color: '#13c2c2', ...dashed },
        { name: `${t('weather.charts.gust')} · ${t('weather.charts.forecast')}`, type: 'line', showSymbol: false, data: gForecast, color: '#722ed1', ...dashed },
      ],
    },
  };
}

/** A station's current values as the map writes them under its name. */
function currentValues(t: TFunction, p: WeatherPlace) {
  const h = p.latest;
  if (!h) return p.name;
  const parts = [h.temperature !== null && `${h.temperature} °C`, h.windSpeed !== null && `${h.windSpeed} m/s`, h.precipitation !== null && `${h.precipitation} mm`].filter(Boolean);
  return `${p.name}\n${parts.join(' · ')}${parts.length ? ` (${t('weather.at', { time: dayjs(h.time).format('MM-DD HH:mm') })})` : ''}`;
}

/**
 * The weather screen: a station's last days and its forecast (rain with the 3/6/12 h sums the
 * rainstorm rules read, temperature, wind), the warnings derived from them and the official ones
 * with what each touches, stations with their current values and warning areas on the map, and
 * the warnings by month.
 */
export default function WeatherPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const can = usePermission();
  const [placeId, setPlaceId] = useState<number>();
  const [period, setPeriod] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(7, 'day').startOf('day'), dayjs().endOf('day')]);
  const [selected, setSelected] = useState<number | null>(null);
  const [uploading, setUploading] = useState(false);
  const [sourceOpen, setSourceOpen] = useState(false);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const places = useQuery({ queryKey: ['weather', enterpriseID, 'places'], queryFn: weatherApi.places });
  const list = places.data?.result ?? [];
  useEffect(() => {
    if (placeId === undefined && list.length) setPlaceId(list[0].id);
  }, [list, placeId]);
  const range = { from: period[0].toISOString(), to: period[1].toISOString() };
  const observed = useQuery({ queryKey: ['weather', enterpriseID, 'hours', placeId, 'observed', range], queryFn: () => weatherApi.hours(placeId!, { kind: 'observed', ...range }), enabled: placeId !== undefined });
  const forecastRange = { from: period[1].toISOString(), to: period[1].add(7, 'day').toISOString() };
  const forecast = useQuery({ queryKey: ['weather', enterpriseID, 'hours', placeId, 'forecast', forecastRange], queryFn: () => weatherApi.hours(placeId!, { kind: 'forecast', ...forecastRange }), enabled: placeId !== undefined });
  const yearAgo = useMemo(() => dayjs(period[1]).subtract(1, 'year').toISOString(), [period]);
  const warnings = useQuery({ queryKey: ['weather', enterpriseID, 'warnings', yearAgo, forecastRange.to], queryFn: () => weatherApi.warnings({ from: yearAgo, to: forecastRange.to }) });
  // The station's derived warnings, and every official one (issued for areas, not stations).
  const placeWarnings = (warnings.data?.result ?? []).filter((w) => w.placeId === placeId || w.source === 'official');
  const inPeriod = placeWarnings.filter((w) => dayjs(w.end).isAfter(period[0]) && dayjs(w.start).isBefore(forecastRange.to));
  const active = (warnings.data?.result ?? []).filter((w) => isActive(w));
  const charts = useMemo(() => chartOptions(t, observed.data?.result ?? [], forecast.data?.result ?? []), [t, observed.data, forecast.data]);
  const byMonth = useMemo(() => {
    const months = Array.from({ length: 12 }, (_, i) => dayjs(period[1]).subtract(11 - i, 'month').format('YYYY-MM'));
    const types = ['rainstorm', 'coldWave', 'gale', 'heat'] as const;
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 36, right: 12, top: 32, bottom: 24 },
      xAxis: { type: 'category', data: months },
      yAxis: { type: 'value', minInterval: 1 },
      series: types.map((type) => ({ name: t(`weather.type.${type}`), type: 'bar', stack: 'all', data: months.map((m) => placeWarnings.filter((w) => w.basis !== 'forecast' && w.type === type && dayjs(w.start).format('YYYY-MM') === m).length) })),
    };
  }, [placeWarnings, period, t]);

  const place = list.find((p) => p.id === placeId);
  const current = inPeriod.find((w) => w.id === selected) ?? inPeriod[0];
  const overlays = useMemo(
    () => [
      { key: 'warning', features: current ? [{ id: current.id, geometry: current.area, color: current.level ? WARNING_LEVEL_COLORS[current.level] : '#8c8c8c', outline: false, label: `${warningType(current, t)} ${current.level ?? ''}` }] : [] },
      { key: 'places', features: list.map((p) => ({ id: p.id, geometry: { type: 'Point' as const, coordinates: [p.lon, p.lat] }, color: p.id === placeId ? '#141414' : '#595959', label: p.name, text: currentValues(t, p), textRow: 1 })), onClick: (id: number) => setPlaceId(id) },
    ],
    [current, list, placeId, t],
  );
  const focus = useMemo<BBox | null>(() => (place ? [place.lon - 0.06, place.lat - 0.05, place.lon + 0.06, place.lat + 0.05] : null), [place]);

  if (places.isError) return <Alert type="error" showIcon message={errorMessage(places.error)} />;
  return (
    <Card data-testid="weather-page" styles={{ body: { paddingTop: 12 } }}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select aria-label={t('weather.place')} style={{ width: 220 }} value={placeId} onChange={setPlaceId} placeholder={t('weather.place')} options={list.map((p) => ({ value: p.id, label: p.name }))} data-testid="weather-place" />
        <DatePicker.RangePicker value={period} onChange={(v) => v?.[0] && v[1] && setPeriod([v[0].startOf('day'), v[1].endOf('day')])} allowClear={false} />
        <Authorized action="import">
          <Button icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="weather-upload">{t('weather.upload')}</Button>
        </Authorized>
        {can('enterprise', 'edit') && (
          <Button icon={<CloudServerOutlined />} onClick={() => setSourceOpen(true)} data-testid="weather-source">{t('weather.source.title')}</Button>
        )}
      </Space>
      {active.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="weather-active"
          message={
            <Space wrap size={4}>
              {t('weather.activeNow', { count: active.length })}
              {active.map((w) => <WarningTag key={w.id} warning={w} />)}
            </Space>
          }
        />
      )}
      {!places.isLoading && !list.length && <Empty description={t('weather.noPlace')} />}
      {place && (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={15}>
            <Card size="small" title={t('weather.charts.rain')}><Chart option={charts.rain} height={220} /></Card>
            <Card size="small" title={t('weather.charts.temperature')} style={{ marginTop: 12 }}><Chart option={charts.temperature} height={180} /></Card>
            <Card size="small" title={t('weather.charts.wind')} style={{ marginTop: 12 }}><Chart option={charts.wind} height={180} /></Card>
            <Card size="small" title={t('weather.history')} style={{ marginTop: 12 }}><Chart option={byMonth} height={200} /></Card>
          </Col>
          <Col xs={24} xl={9}>
            <Card size="small" title={t('weather.warnings')} styles={{ body: { padding: 4 } }}>
              {/* A box that scrolls is reachable by keyboard (WCAG 2.1.1): focusable, named. */}
              <div role="region" aria-label={t('weather.warnings')} tabIndex={0} style={{ maxHeight: 412, overflow: 'auto' }}>
              {inPeriod.length ? (
                <List size="small" dataSource={inPeriod} renderItem={(w) => <WarningItem warning={w} selected={w.id === current?.id} onSelect={() => setSelected(w.id)} />} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('weather.noWarnings')} />
              )}
              </div>
            </Card>
            <div style={{ marginTop: 12 }} data-testid="weather-map">
              {settings.data ? <MapView settings={settings.data.result} height={360} overlays={overlays} focus={focus} /> : <Skeleton active />}
            </div>
          </Col>
        </Row>
      )}
      <WeatherUploadModal open={uploading} onClose={() => setUploading(false)} onKept={(id) => id && setPlaceId(id)} />
      <WeatherSourceModal open={sourceOpen} onClose={() => setSourceOpen(false)} />
    </Card>
  );
}
