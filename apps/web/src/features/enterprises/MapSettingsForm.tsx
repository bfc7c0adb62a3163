import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isMessageKey, MAP_SERVICE_TYPES, mapSettingsBody, SRIDS, translate, type MapSettings } from '@console/contract';
import { currentLanguage } from '../../locales/index.ts';
import { mapApi, saveMapSettings } from '../../api/map.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useChange } from '../../components/useChange.ts';
import { MapView } from '../../components/MapView.tsx';
import { useSession } from '../../stores/session.ts';

/** Lists are edited as comma separated text. */
interface Values {
  serviceType: MapSettings['serviceType'];
  serviceUrl?: string;
  srid: number;
  resolutions?: string;
  origin?: string;
  extent?: string;
  tileSize: number;
  zoomLevel: number;
  layerName?: string;
  tiandituKey?: string;
}

const listText = (list?: number[]) => (list ? list.join(', ') : undefined);
const textList = (text?: string) => (text && text.trim() ? text.split(',').map((v) => Number(v.trim())) : undefined);
const BUILT_IN_BASEMAP = '/api/tiles/basemap/{grid}/{z}/{x}/{y}.pbf';

/** The enterprise's map service, with a live preview; the server's validation names bad fields. */
export function MapSettingsForm() {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const [form] = Form.useForm<Values>();
  const settings = useQuery({ queryKey: ['map-settings', enterpriseID], queryFn: mapApi.settings });
  const [preview, setPreview] = useState<MapSettings | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const s = settings.data?.result;
    if (!s) return;
    form.setFieldsValue({ ...s, resolutions: listText(s.resolutions), origin: listText(s.origin), extent: listText(s.extent) });
    setPreview(s);
  }, [settings.data, form]);

  const toSettings = (v: Values) => ({
    serviceType: v.serviceType,
    serviceUrl: v.serviceUrl,
    srid: v.srid,
    resolutions: textList(v.resolutions),
    origin: textList(v.origin),
    extent: textList(v.extent),
    tileSize: v.tileSize,
    zoomLevel: v.zoomLevel,
    layerName: v.layerName,
  });

  /** Checks the form with the contract's rules; the preview follows only valid settings. */
  const refresh = () => {
    const parsed = mapSettingsBody.safeParse(toSettings(form.getFieldsValue(true)));
    if (parsed.success) {
      setProblem(null);
      setPreview(parsed.data);
    } else {
      // Custom rules carry message keys of the contract, worded in the user's language.
      setProblem(parsed.error.issues.map((i) => `${i.path.join('.')}: ${isMessageKey(i.message) ? translate(i.message, currentLanguage()) : i.message}`).join('; '));
    }
  };

  const tianditu = () => {
    const key = form.getFieldValue('tiandituKey');
    const srid = form.getFieldValue('srid') === 3857 ? 3857 : 4326;
    const set = srid === 4326 ? 'c' : 'w';
    form.setFieldsValue({
      serviceType: 'WMTS',
      serviceUrl: `https://t0.tianditu.gov.cn/vec_${set}/wmts?request=GetCapabilities&service=wmts&tk=${key ?? ''}`,
      layerName: 'vec',
    });
    refresh();
  };

  const save = useChange((values: Values) => saveMapSettings(toSettings(values)), { invalidate: ['map-settings'] });

  const previewKey = useMemo(() => JSON.stringify(preview), [preview]);
  if (!settings.data) return null;
  return (
    <Card title={t('mapSettings.title')} style={{ marginTop: 16 }} data-testid="map-settings">
      <Row gutter={24}>
        <Col xs={24} lg={10}>
          <Form form={form} layout="vertical" onValuesChange={refresh} onFinish={(v) => save.mutate(v)} name="mapSettings">
            <Form.Item name="serviceType" label={t('mapSettings.serviceType')}>
              <Select options={MAP_SERVICE_TYPES.map((type) => ({ value: type, label: t(`mapSettings.types.${type}`) }))} data-testid="map-service-type" />
            </Form.Item>
            <Form.Item name="serviceUrl" label={t('mapSettings.serviceUrl')} extra={t('mapSettings.serviceUrlHint')}>
              <Input placeholder="https://gis.example.com/arcgis/rest/services/basemap/MapServer" data-testid="map-service-url" />
            </Form.Item>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item name="srid" label={t('mapSettings.srid')}>
                  <Select options={SRIDS.map((s) => ({ value: s, label: `EPSG:${s}` }))} data-testid="map-srid" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="layerName" label={t('mapSettings.layerName')}>
                  <Input data-testid="map-layer-name" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="tileSize" label={t('mapSettings.tileSize')}>
                  <InputNumber min={64} max={1024} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="zoomLevel" label={t('mapSettings.zoomLevel')}>
                  <InputNumber min={0} max={30} style={{ width: '100%' }} data-testid="map-zoom" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="origin" label={t('mapSettings.origin')} extra="x, y">
              <Input data-testid="map-origin" />
            </Form.Item>
            <Form.Item name="resolutions" label={t('mapSettings.resolutions')} extra={t('mapSettings.resolutionsHint')}>
              <Input.TextArea rows={2} data-testid="map-resolutions" />
            </Form.Item>
            <Form.Item name="extent" label={t('mapSettings.extent')} extra="minX, minY, maxX, maxY (WGS84)">
              <Input data-testid="map-extent" />
            </Form.Item>
            <Form.Item label={t('mapSettings.tianditu')}>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="tiandituKey" noStyle>
                  <Input placeholder={t('mapSettings.tiandituKey')} />
                </Form.Item>
                <Button onClick={tianditu}>{t('mapSettings.applyPreset')}</Button>
              </Space.Compact>
            </Form.Item>
            {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 16 }} data-testid="map-settings-problem" />}
            <Space>
              <GuardedButton type="primary" htmlType="submit" loading={save.isPending} disabled={problem !== null} data-testid="map-settings-save">
                {t('common.save')}
              </GuardedButton>
              <Button
                onClick={() => {
                  form.setFieldsValue({ serviceType: 'XYZ', serviceUrl: BUILT_IN_BASEMAP, srid: 3857, layerName: 'basemap' });
                  refresh();
                }}
              >
                {t('mapSettings.builtIn')}
              </Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={14}>
          {preview && <MapView key={previewKey} settings={preview} height={520} />}
        </Col>
      </Row>
    </Card>
  );
}
