import { useMemo, useState } from 'react';
import { Alert, Button, Card, Checkbox, Descriptions, Drawer, Skeleton, Space, Switch, Typography } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NETWORK_MAP_COLOR, NETWORK_TYPES, RISK_LEVEL_COLORS, RISK_LEVELS, type NetworkType } from '@console/contract';
import { errorMessage } from '../../api/http.ts';
import { mapApi } from '../../api/map.ts';
import { projectApi } from '../../api/projects.ts';
import { MapView, type MapLayerVisibility } from '../../components/MapView.tsx';
import { pipeRiskApi } from '../../api/pipeRisk.ts';
import { PipeRiskPanel } from '../pipeRisk/PipeRiskPanel.tsx';
import { PIPE_RISK_DRAWER_WIDTH } from '../pipeRisk/PipeRiskDrawer.tsx';
import { useSession } from '../../stores/session.ts';
import { materialLabel } from '../../utils/format.ts';
import { sensorApi } from '../../api/sensors.ts';
import { usePermission } from '../../components/Authorized.tsx';
import { later } from '../../components/later.tsx';
import { sensorFeatures } from '../sensors/sensorState.ts';

// The devices on a picked pipe load with its drawer.
const PipeSensors = later(() => import('../sensors/PipeSensors.tsx').then((m) => m.PipeSensors));

/**
 * All project areas and the whole network of the enterprise, with a layer switcher and legend; the
 * four-colour risk map (pipes by composite risk level) with the risk list beside it.
 */
export default function EnterpriseMapPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  const [visibility, setVisibility] = useState<MapLayerVisibility>({ basemap: true, areas: true, networks: [...NETWORK_TYPES] });
  const [picked, setPicked] = useState<Record<string, unknown> | null>(null);
  const [riskList, setRiskList] = useState(false);
  const [riskPipe, setRiskPipe] = useState<number | null>(null);
  const riskDetail = useQuery({ queryKey: ['pipe-risk', enterpriseID, 'one', riskPipe], queryFn: () => pipeRiskApi.get(riskPipe!), enabled: riskPipe !== null });
  const byRisk = visibility.colourBy === 'risk';
  const canSeeSensors = usePermission()('sensor', 'query');
  const [sensorsOn, setSensorsOn] = useState(false);
  const sensors = useQuery({ queryKey: ['sensors', enterpriseID, 'places'], queryFn: sensorApi.places, enabled: sensorsOn && canSeeSensors, refetchInterval: 10_000 });
  const overlays = useMemo(() => (sensorsOn && sensors.data ? [{ key: 'sensors', features: sensorFeatures(sensors.data.result, t) }] : []), [sensorsOn, sensors.data, t]);
  const areas = useMemo(() => (projects.data?.result ?? []).map((p) => ({ id: p.id, name: p.name, area: p.area })), [projects.data]);
  // Only the networks the enterprise has in its projects are offered in the legend.
  const networks = useMemo(() => {
    const inUse = new Set((projects.data?.result ?? []).flatMap((p) => Object.keys(p.pipeLengthM)));
    return NETWORK_TYPES.filter((n) => inUse.has(n));
  }, [projects.data]);

  if (settings.isError) return <Alert type="error" showIcon message={errorMessage(settings.error)} />;
  if (!settings.data) return <Skeleton active />;
  return (
    // The risk list docks beside the map (not over it): the zoom buttons and the selected segment stay in sight.
    <div style={{ display: 'flex', gap: 12, alignItems: 'stretch' }} data-testid="enterprise-map">
      {riskList && (
        <Card size="small" title={t('pipeRisk.list')} style={{ flex: '0 0 min(660px, 50%)', height: 'calc(100vh - 150px)', overflow: 'auto' }} extra={<Button size="small" type="text" aria-label={t('footer.close')} onClick={() => setRiskList(false)}>×</Button>} data-testid="risk-list">
          <PipeRiskPanel onSelect={(row) => setRiskPipe(row?.pipeRowId ?? null)} />
        </Card>
      )}
      <div style={{ position: 'relative', flex: '1 1 0', minWidth: 0 }}>
      <MapView settings={settings.data.result} areas={areas} visibility={visibility} height="calc(100vh - 150px)" onPipeClick={setPicked} overlays={overlays} highlight={riskPipe !== null ? (riskDetail.data?.result.geometry ?? null) : null} coveredRight={riskPipe !== null ? PIPE_RISK_DRAWER_WIDTH : 0} />
      <Card size="small" title={t('map.layers')} style={{ position: 'absolute', top: 12, right: 12, width: 220 }} data-testid="layer-switcher">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <Switch size="small" aria-label={t('map.basemap')} checked={visibility.basemap} onChange={(basemap) => setVisibility((v) => ({ ...v, basemap }))} data-testid="layer-basemap" />
            {t('map.basemap')}
          </Space>
          <Space>
            <Switch size="small" aria-label={t('map.areas')} checked={visibility.areas} onChange={(areasOn) => setVisibility((v) => ({ ...v, areas: areasOn }))} />
            {t('map.areas')}
          </Space>
          {canSeeSensors && (
            <Space>
              <Switch size="small" aria-label={t('sensors.layer')} checked={sensorsOn} onChange={setSensorsOn} data-testid="layer-sensors" />
              {t('sensors.layer')}
            </Space>
          )}
          <Space>
            <Switch size="small" aria-label={t('pipeRisk.riskMap')} checked={byRisk} onChange={(on) => setVisibility((v) => ({ ...v, colourBy: on ? 'risk' : 'network' }))} data-testid="layer-risk" />
            {t('pipeRisk.riskMap')}
          </Space>
          {byRisk && (
            <Space direction="vertical" size={2} data-testid="risk-legend">
              {RISK_LEVELS.map((l) => (
                <span key={l}>
                  <span style={{ display: 'inline-block', width: 18, height: 5, background: RISK_LEVEL_COLORS[l], verticalAlign: 'middle', marginRight: 6 }} />
                  {t(`pipeRisk.levelName.${l}`)}
                </span>
              ))}
              <Button size="small" icon={<UnorderedListOutlined />} onClick={() => setRiskList((v) => !v)} data-testid="risk-list-toggle">{t('pipeRisk.list')}</Button>
            </Space>
          )}
          <Typography.Text type="secondary">{t('map.pipes')}</Typography.Text>
          <Checkbox.Group
            value={visibility.networks}
            onChange={(list) => setVisibility((v) => ({ ...v, networks: list as NetworkType[] }))}
            style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
          >
            {networks.map((n) => (
              <Checkbox key={n} value={n} data-testid={`layer-${n}`}>
                {/* On the risk map pipes take their level's colour: a network's own colour (water's blue, gas's orange) would read as a level. */}
                {!byRisk && <span style={{ display: 'inline-block', width: 18, height: 4, background: NETWORK_MAP_COLOR[n], verticalAlign: 'middle', marginRight: 6 }} />}
                {t(`network.${n}`)}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Space>
      </Card>
      </div>
      <Drawer open={picked !== null} onClose={() => setPicked(null)} title={t('map.pipeDetail')} width={360} mask={false}>
        {picked && (
          <Descriptions column={1} size="small" bordered data-testid="map-pipe-detail">
            <Descriptions.Item label={t('pipeline.pipeId')}>{String(picked.pipeId)}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.networkType')}>{t(`network.${picked.networkType}`)}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.material')}>{materialLabel(t, picked.material)}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.diameter')}>{String(picked.diameterMm ?? '-')}</Descriptions.Item>
            <Descriptions.Item label={t('pipeline.installYear')}>{String(picked.installYear ?? '-')}</Descriptions.Item>
          </Descriptions>
        )}
        {picked && canSeeSensors && <PipeSensors pipeId={String(picked.pipeId)} />}
      </Drawer>
    </div>
  );
}
