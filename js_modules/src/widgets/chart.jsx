// <Chart x={["2026-11-01", ...]} xLabel="Date" series={[{name, values, type: "bar"|"line", axis: "left"|"right",
//        format: "number"|"money"|"percent"}]} height={300} locale="en" emptyText="No data" />
// A time-series chart drawn by uPlot. ECharts was the first choice, but even its smallest
// tree-shaken build (core, bar, line, grid, tooltip, canvas) is 185 KB gzipped, more than a whole
// dashboard may load (150 KB); uPlot draws the same bars and lines in about 20 KB.
// Props are data only: no string in them is ever evaluated.
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import uPlotCss from 'uplot/dist/uPlot.min.css';
import { adoptCss } from '../lib/css.js';
import { intlLocale } from '../lib/locale.js';

export { bind } from '../lib/bind.js';

adoptCss('uplot', uPlotCss);
adoptCss('dsp-chart', `
.dsp-chart { position: relative; width: 100%; }
.dsp-chart .uplot { font-family: inherit; }
.dsp-chart .u-legend { font-size: .8125rem; color: var(--bs-secondary-color, #6c757d); }
.dsp-chart .u-legend .u-marker { border-radius: 2px; }
.dsp-chart-empty {
  position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
  flex-direction: column; gap: .25rem; color: var(--bs-secondary-color, #6c757d);
  font-size: .875rem; pointer-events: none;
}
.dsp-chart-empty .bi { font-size: 1.75rem; opacity: .5; }
`);

const SECOND_COLOURS = ['#f59f00', '#12b886', '#7048e8', '#e8590c'];
const LEGEND_HEIGHT = 32;

function formatter(format, locale) {
  const loc = intlLocale(locale);
  if (format === 'money') {
    // "$" first in every language, as every other figure of the console shows money ($1.234,50): Intl's
    // currency style wrote "250,00 US$" in Spanish, and the axis cut it off.
    const amount = new Intl.NumberFormat(loc, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (v) => (v == null ? '–' : `${v < 0 ? '-' : ''}$${amount.format(Math.abs(v))}`);
  }
  if (format === 'percent') {
    const pct = new Intl.NumberFormat(loc, { maximumFractionDigits: 2 });
    return (v) => (v == null ? '–' : `${pct.format(v)}%`);
  }
  const compact = new Intl.NumberFormat(loc, { notation: 'compact', maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(loc, { maximumFractionDigits: 2 });
  return (v, axis) => (v == null ? '–' : axis ? compact.format(v) : whole.format(v));
}

function buildOptions({ series, xLabel, width, height, locale, node }) {
  const style = getComputedStyle(node);
  const primary = style.getPropertyValue('--dsp-primary').trim() || '#0d6efd';
  const grid = style.getPropertyValue('--bs-border-color').trim() || '#dee2e6';
  const text = style.getPropertyValue('--bs-secondary-color').trim() || '#6c757d';
  const dateFormat = new Intl.DateTimeFormat(intlLocale(locale), { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const scales = { x: { time: true } };
  const axes = [{
    stroke: text, grid: { stroke: grid, width: 1 }, ticks: { show: false },
    values: (u, ticks) => ticks.map((t) => dateFormat.format(new Date(t * 1000))),
  }];
  const uSeries = [{ label: xLabel, value: (u, t) => (t == null ? '–' : dateFormat.format(new Date(t * 1000))) }];
  series.forEach((s, index) => {
    const scale = s.axis === 'right' ? 'right' : 'left';
    const format = formatter(s.format, locale);
    if (!scales[scale]) {
      scales[scale] = { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] };
      axes.push({
        scale, side: scale === 'right' ? 1 : 3, stroke: text, size: 64,
        grid: { show: scale === 'left', stroke: grid, width: 1 }, ticks: { show: false },
        values: (u, ticks) => ticks.map((v) => format(v, true)),
      });
    }
    const colour = index === 0 ? primary : SECOND_COLOURS[(index - 1) % SECOND_COLOURS.length];
    const bar = s.type === 'bar';
    uSeries.push({
      label: s.name, scale, stroke: colour, width: bar ? 0 : 2,
      fill: bar ? `${colour}bf` : undefined,
      paths: bar ? uPlot.paths.bars({ size: [0.6, 48], align: 0 }) : undefined,
      points: { show: !bar && s.values.length <= 45, size: 5 },
      value: (u, v) => format(v, false),
    });
  });
  // Away from the plot, the legend shows the last day's figures (uPlot's live legend would show "–" until the
  // pointer hovers a day); over it, the day under the pointer.
  const last = series.length ? Math.max(0, ...series.map((s) => (s.values || []).length - 1)) : 0;
  const showLastDay = (u) => {
    if (!u.legend.idxs.some((i) => i != null) && u.data[0].length) u.setLegend({ idx: Math.min(last, u.data[0].length - 1) }, false);
  };
  return { width, height: height - LEGEND_HEIGHT, scales, axes, series: uSeries, legend: { live: true },
    cursor: { points: { size: 7 } }, hooks: { ready: [showLastDay], setLegend: [showLastDay] } };
}

function toSeconds(day) {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

export function Chart({ x = [], xLabel = '', series = [], height = 300, locale, emptyText = 'No data' }) {
  const holder = useRef(null);
  const plot = useRef(null);
  // Every server update sends new (equal) arrays: compare by content, not identity.
  const key = useMemo(() => JSON.stringify([x, xLabel, series, height, locale]), [x, xLabel, series, height, locale]);
  const empty = !x.length || !series.some((s) => (s.values || []).some((v) => v));

  useEffect(() => {
    const node = holder.current;
    if (!node || empty) return undefined;
    const data = [x.map(toSeconds), ...series.map((s) => s.values)];
    const chart = new uPlot(buildOptions({ series, xLabel, width: node.clientWidth || 600, height, locale, node }), data, node);
    plot.current = chart;
    const observer = new ResizeObserver(() => chart.setSize({ width: node.clientWidth, height: height - LEGEND_HEIGHT }));
    observer.observe(node);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [key, empty]);

  return (
    <div className="dsp-chart" style={{ minHeight: `${Number(height) || 300}px` }}>
      <div ref={holder} />
      {empty && (
        <div className="dsp-chart-empty" role="status">
          <i className="bi bi-bar-chart" aria-hidden="true" />
          <span>{emptyText}</span>
        </div>
      )}
    </div>
  );
}
