import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Grid, Input, Select, Skeleton, Space, Tooltip, message } from 'antd';
import { BorderOutlined, ColumnWidthOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BBox, PoiOverlayLayers } from '@console/contract';
import { leakApi } from '../../api/leaks.ts';
import { mapApi } from '../../api/map.ts';
import { pipelineApi } from '../../api/pipelines.ts';
import { errorMessage } from '../../api/http.ts';
import { MapView, type MeasureMode } from '../../components/MapView.tsx';
import { usePreference } from '../../components/usePreference.ts';
import { useLeaks } from '../../stores/leaks.ts';
import { useSession } from '../../stores/session.ts';
import { PoiDrawer } from '../leaks/PoiDrawer.tsx';
import { poiFeatures } from '../leaks/poiStatus.ts';
import { useSurveyProject } from '../leaks/useSurveyProject.ts';
import { footprintFeatures } from '../saocom/footprints.ts';
import { DEFAULT_LAYERS, withDefaults } from './layers.ts';
import './poiControl.css';
import { LayerPanel, ResetLayers } from './LayerPanel.tsx';
import '../leaks/leakMessages.ts';
import './poiControlMessages.ts';

const boxOf = (coordinates: number[][]): BBox => {
  const lons = coordinates.map((c) => c[0]), lats = coordinates.map((c) => c[1]);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
};

/**
 * The POI overlay: one project's survey on a full map. Layers (basemap, project area, pipes, POIs,
 * scene footprints) with visibility, opacity and filters kept per user on the server; measuring
 * distances and areas; a POI clicked or found by number opens with its pipes and history.
 */
export default function PoiControlPage() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const screens = Grid.useBreakpoint();
  const { projectId, setProjectId, projects } = useSurveyProject();
  const { currentLeak, setCurrentLeak, setList } = useLeaks();
  const stored = usePreference<PoiOverlayLayers | null>('poiOverlayLayers', null);
  const layers = useMemo(() => withDefaults(stored.value), [stored.value]);
  const [deliveryIds, setDeliveryIds] = useState<number[]>([]);
  const [measure, setMeasure] = useState<MeasureMode | null>(null);
  const [panelOpen, setPanelOpen] = useState(true);
  const [focus, setFocus] = useState<BBox | null>(null);
  useEffect(() => setPanelOpen(screens.md !== false), [screens.md]);

  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  // The networks the enterprise has pipes of (the layer offers only those).
  const facets = useQuery({ queryKey: ['pipelines', enterpriseID, 'facets'], queryFn: pipelineApi.facets });
  const params = { projectId, pageSize: 1000 };
  const pois = useQuery({ queryKey: ['leaks', enterpriseID, 'pois', params], queryFn: () => leakApi.pois(params), enabled: projectId !== undefined });
  const deliveries = useQuery({ queryKey: ['leaks', enterpriseID, 'deliveries', projectId], queryFn: () => leakApi.deliveries(projectId), enabled: projectId !== undefined });
  const scenes = useQuery({ queryKey: ['leaks', enterpriseID, 'acquisitions', projectId], queryFn: () => leakApi.acquisitions(projectId), enabled: projectId !== undefined });

  const all = useMemo(() => pois.data?.result.list ?? [], [pois.data]);
  const shown = useMemo(
    () => all.filter((p) => layers.pois.statuses.includes(p.status) && layers.pois.priorities.includes(p.priority) && (!deliveryIds.length || deliveryIds.includes(p.deliveryId))),
    [all, layers.pois.statuses, layers.pois.priorities, deliveryIds],
  );
  useEffect(() => setList(shown), [shown, setList]);
  useEffect(() => () => setCurrentLeak(null), [setCurrentLeak]);

  const project = (projects.data?.result ?? []).find((p) => p.id === projectId);
  const areas = useMemo(() => (project ? [{ id: project.id, name: project.name, area: project.area }] : []), [project]);
  const overlays = useMemo(
    () => [
      { key: 'footprints', features: footprintFeatures((scenes.data?.result ?? []).filter((a) => layers.footprints.statuses.includes(a.status)), t), visible: layers.footprints.visible, opacity: layers.footprints.opacity },
      // The current POI stays drawn even when the filters hide its kind (found by number, say).
      { key: 'pois', features: poiFeatures(currentLeak && !shown.some((p) => p.id === currentLeak.id) ? [...shown, currentLeak] : shown, t, currentLeak?.id), visible: layers.pois.visible, opacity: layers.pois.opacity, onClick: (id: number) => setCurrentLeak(all.find((p) => p.id === id) ?? null) },
    ],
    [scenes.data, layers.footprints, layers.pois.visible, layers.pois.opacity, shown, all, currentLeak?.id, setCurrentLeak, t],
  );
  const visibility = useMemo(
    () => ({
      basemap: layers.basemap.visible,
      areas: layers.areas.visible,
      networks: layers.pipes.visible ? layers.pipes.networks : [],
      opacity: { basemap: layers.basemap.opacity, areas: layers.areas.opacity, pipes: layers.pipes.opacity },
    }),
    [layers.basemap, layers.areas, layers.pipes],
  );

  const find = (text: string) => {
    const wanted = text.trim().toLowerCase();
    if (!wanted) return;
    const poi = all.find((p) => p.poiNo.toLowerCase() === wanted) ?? all.find((p) => p.poiNo.toLowerCase().includes(wanted));
    if (!poi) return void message.warning(t('poiControl.notFound', { poiNo: text.trim() }));
    setCurrentLeak(poi);
    // Its surroundings too: a box three times the POI's size.
    const [minx, miny, maxx, maxy] = boxOf(poi.geometry.type === 'Polygon' ? poi.geometry.coordinates[0] : poi.geometry.coordinates.flat(2));
    const dx = maxx - minx, dy = maxy - miny;
    setFocus([minx - dx, miny - dy, maxx + dx, maxy + dy]);
  };

  if (projects.isError) return <Alert type="error" showIcon message={errorMessage(projects.error)} />;
  return (
    <div className="poi-control" style={{ position: 'relative', height: 'calc(100vh - 100px)', minHeight: 420 }} data-testid="poi-control">
      {settings.data ? (
        <MapView settings={settings.data.result} areas={areas} fitAreas visibility={visibility} overlays={overlays} measure={measure} focus={focus} height="100%" />
      ) : (
        <Skeleton active />
      )}
      <Space style={{ position: 'absolute', top: 12, right: 12 }}>
        <Tooltip title={t('poiControl.measureDistance')}>
          <Button type={measure === 'distance' ? 'primary' : 'default'} icon={<ColumnWidthOutlined />} onClick={() => setMeasure(measure === 'distance' ? null : 'distance')} data-testid="measure-distance">
            {screens.md && t('poiControl.distance')}
          </Button>
        </Tooltip>
        <Tooltip title={t('poiControl.measureArea')}>
          <Button type={measure === 'area' ? 'primary' : 'default'} icon={<BorderOutlined />} onClick={() => setMeasure(measure === 'area' ? null : 'area')} data-testid="measure-area">
            {screens.md && t('poiControl.area')}
          </Button>
        </Tooltip>
      </Space>
      <Button style={{ position: 'absolute', top: 12, left: 12, display: panelOpen ? 'none' : undefined }} icon={<MenuUnfoldOutlined />} onClick={() => setPanelOpen(true)} data-testid="layers-open">
        {t('map.layers')}
      </Button>
      {panelOpen && (
        <Card
          size="small"
          title={t('map.layers')}
          extra={
            <Space size={0}>
              <ResetLayers onReset={() => stored.set(DEFAULT_LAYERS)} />
              <Button type="text" size="small" icon={<MenuFoldOutlined />} onClick={() => setPanelOpen(false)} aria-label={t('poiControl.hidePanel')} />
            </Space>
          }
          style={{ position: 'absolute', top: 12, left: 12, width: screens.md ? 320 : 'calc(100% - 24px)', maxHeight: 'calc(100% - 24px)', overflowY: 'auto', boxShadow: '0 2px 8px rgba(0,0,0,0.15)' }}
          data-testid="layer-panel"
        >
          <Space direction="vertical" style={{ width: '100%', marginBottom: 8 }} size={6}>
            <Select aria-label={t('leak.project')}
              style={{ width: '100%' }}
              value={projectId}
              onChange={(id) => { setProjectId(id); setDeliveryIds([]); setCurrentLeak(null); }}
              options={(projects.data?.result ?? []).map((p) => ({ value: p.id, label: p.name }))}
              placeholder={t('leak.project')}
              data-testid="poi-control-project"
            />
            <Input.Search placeholder={t('poiControl.findPoi')} allowClear onSearch={find} data-testid="poi-find" />
          </Space>
          <LayerPanel
            networks={facets.data?.result.networks ?? []}
            layers={layers}
            onChange={stored.set}
            poiCount={{ shown: shown.length, total: all.length }}
            poiFilters={
              <Select aria-label={t('leak.allDeliveries')}
                mode="multiple"
                allowClear
                size="small"
                style={{ width: '100%', marginBottom: 6 }}
                placeholder={t('leak.allDeliveries')}
                value={deliveryIds}
                onChange={setDeliveryIds}
                options={(deliveries.data?.result ?? []).map((d) => ({ value: d.id, label: d.name }))}
                data-testid="poi-deliveries"
              />
            }
          />
        </Card>
      )}
      <PoiDrawer poi={currentLeak} onClose={() => setCurrentLeak(null)} />
    </div>
  );
}
