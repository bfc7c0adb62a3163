import { List, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { sensorApi } from '../../api/sensors.ts';
import { Tag } from '../../components/Tag.tsx';
import { useSession } from '../../stores/session.ts';
import { SENSOR_STATE_COLOR, formatAge, formatReading } from './sensorState.ts';

/** The devices watching one pipe, with their last values and states (a pipe's drawer); each opens on the Sensors screen. */
export function PipeSensors({ pipeId }: { pipeId: string }) {
  const { t } = useTranslation();
  const enterpriseID = useSession((s) => s.enterpriseID);
  const sensors = useQuery({ queryKey: ['sensors', enterpriseID, 'list', { pipeId }], queryFn: () => sensorApi.list({ pipeId, pageSize: 50 }), refetchInterval: 10_000 });
  const list = sensors.data?.result.list ?? [];
  return (
    <div data-testid="pipe-sensors" style={{ marginTop: 12 }}>
      <Typography.Text strong>{t('sensors.onPipe', { count: list.length })}</Typography.Text>
      {list.length > 0 && (
        <List
          size="small"
          dataSource={list}
          renderItem={(d) => (
            <List.Item>
              <Link to="/risk/sensors" state={{ sensorId: d.id }}>{d.code}</Link>
              <span>{t(`sensors.kind.${d.kind}`)}</span>
              <Tag color={SENSOR_STATE_COLOR[d.state]}>{t(`sensors.state.${d.state}`)}</Tag>
              <span title={formatAge(d.lastAt, t)}>{formatReading(d.lastValue, d.unit)}</span>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
