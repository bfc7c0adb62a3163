import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import type { AcquisitionStatus } from '@console/contract';
import type { Acquisition } from '../../api/leaks.ts';
import type { MapOverlayFeature } from '../../components/MapView.tsx';
import './saocomMessages.ts';

/** Colours of scene statuses on maps, legends and charts. */
export const ACQUISITION_STATUS_COLOR: Record<AcquisitionStatus, string> = { planned: '#8c8c8c', acquired: '#1677ff', processing: '#fa8c16', delivered: '#52c41a', failed: '#f5222d' };

/** Scene footprints as map areas: outlined in their status colour (stacked footprints would hide the map), labelled by satellite and date. */
export function footprintFeatures(list: Acquisition[], t: TFunction, selectedId?: number | null): MapOverlayFeature[] {
  return list.map((a) => ({
    id: a.id,
    geometry: a.footprint,
    color: ACQUISITION_STATUS_COLOR[a.status],
    label: `${a.satellite} ${dayjs(a.acquiredAt).format('YYYY-MM-DD')} · ${t(`saocom.status.${a.status}`)}`,
    selected: a.id === selectedId,
    outline: true,
  }));
}
