import type { PoiStatus } from '@console/contract';

/** Colours of POI statuses on the map, tags and charts. */
export const POI_STATUS_COLOR: Record<PoiStatus, string> = {
  new: '#8c8c8c',
  assigned: '#1677ff',
  investigating: '#fa8c16',
  leakFound: '#f5222d',
  noLeak: '#52c41a',
  repaired: '#722ed1',
};
