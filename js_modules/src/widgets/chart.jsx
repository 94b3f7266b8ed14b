// <Chart option={...} height={320} emptyText="No data" />: an ECharts chart driven by a plain
// option object from Python. The option is data only: no string in it is ever evaluated.
import { useEffect, useMemo, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import {
  DatasetComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { adoptCss } from '../lib/css.js';

export { bind } from '../lib/bind.js';

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  CanvasRenderer,
]);

// ECharts 6's default palette after its first colour; --dsp-primary takes the first place.
const DEFAULT_PALETTE_TAIL = [
  '#b6d634', '#505372', '#ff994d', '#0ca8df', '#ffd10a', '#fb628b', '#785db0', '#3fbe95',
];

adoptCss('dsp-chart', `
.dsp-chart { position: relative; width: 100%; }
.dsp-chart-canvas { position: absolute; inset: 0; }
.dsp-chart-empty {
  position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
  flex-direction: column; gap: .25rem; color: var(--bs-secondary-color, #6c757d);
  font-size: .875rem; pointer-events: none;
}
.dsp-chart-empty .bi { font-size: 1.75rem; opacity: .5; }
`);

function hasData(option) {
  if (!option || typeof option !== 'object') return false;
  const datasets = [].concat(option.dataset || []);
  if (datasets.some((d) => d && Array.isArray(d.source) && d.source.length > 0)) return true;
  const series = [].concat(option.series || []);
  return series.some((s) => s && Array.isArray(s.data) && s.data.length > 0);
}

function withPageDefaults(option, node) {
  const style = getComputedStyle(node);
  const result = { ...option };
  const primary = style.getPropertyValue('--dsp-primary').trim();
  if (primary && !option.color) result.color = [primary, ...DEFAULT_PALETTE_TAIL];
  if (!option.textStyle || !option.textStyle.fontFamily) {
    result.textStyle = { fontFamily: style.fontFamily, ...(option.textStyle || {}) };
  }
  return result;
}

export function Chart({ option, height = 320, emptyText = 'No data' }) {
  const canvasRef = useRef(null);
  const chartRef = useRef(null);
  // Every server update sends a new (equal) object: compare by content, not identity.
  const optionJson = useMemo(() => JSON.stringify(option ?? {}), [option]);
  const empty = !hasData(option);

  useEffect(() => {
    const node = canvasRef.current;
    const chart = echarts.init(node, null, { renderer: 'canvas' });
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    if (empty) {
      chart.clear();
      return;
    }
    chart.setOption(withPageDefaults(JSON.parse(optionJson), canvasRef.current), {
      notMerge: true,
    });
  }, [optionJson, empty]);

  return (
    <div className="dsp-chart" style={{ height: `${Number(height) || 320}px` }}>
      <div ref={canvasRef} className="dsp-chart-canvas" />
      {empty && (
        <div className="dsp-chart-empty" role="status">
          <i className="bi bi-bar-chart" aria-hidden="true" />
          <span>{emptyText}</span>
        </div>
      )}
    </div>
  );
}
