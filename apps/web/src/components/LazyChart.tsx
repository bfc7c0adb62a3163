import { later } from './later.tsx';

/** The chart, its code (ECharts) loaded when a chart first shows: for pages whose first view has none. */
export const LazyChart = later(() => import('./Chart.tsx').then((m) => m.Chart));
