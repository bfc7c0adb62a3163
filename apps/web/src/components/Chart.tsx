import ReactEChartsCore from 'echarts-for-react/esm/core.js';
import * as echarts from 'echarts/core';
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only the charts the console draws, not all of ECharts.
echarts.use([BarChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

/** An ECharts chart (bars and pies). */
export function Chart({ option, height = 240 }: { option: object; height?: number }) {
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height }} notMerge />;
}
