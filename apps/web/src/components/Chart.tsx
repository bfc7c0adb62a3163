import ReactEChartsCore from 'echarts-for-react/esm/core.js';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

// Only the charts the console draws, not all of ECharts.
echarts.use([BarChart, LineChart, PieChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent, CanvasRenderer, SVGRenderer]);

/** An ECharts chart (bars, lines and pies); `print` draws it as SVG without animation, sharp on paper. */
export function Chart({ option, height = 240, print }: { option: object; height?: number; print?: boolean }) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      option={print ? { ...option, animation: false } : option}
      opts={print ? { renderer: 'svg' } : undefined}
      style={{ height }}
      notMerge
    />
  );
}
