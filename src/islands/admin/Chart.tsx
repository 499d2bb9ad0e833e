import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const DAY = 86_400;

/**
 * The Y axis as wide as its longest label ("10,000" whole, not "0,000"): uPlot calls this with the
 * labels it will draw, and again once the width changed the ticks.
 */
const labelWidth: uPlot.Axis.Size = (self, values, axisIdx, cycleNum) => {
  const axis = self.axes[axisIdx]!;
  // The size uPlot settled on in an earlier cycle stands (it converges in two).
  if (cycleNum > 1) return (axis as { _size?: number })._size ?? 50;
  const longest = (values ?? []).reduce((a, v) => (v.length > a.length ? v : a), '');
  self.ctx.font = Array.isArray(axis.font) ? String(axis.font[0]) : '12px system-ui, sans-serif';
  const text = longest ? self.ctx.measureText(longest).width / devicePixelRatio : 0;
  return Math.ceil((axis.ticks?.size ?? 10) + (axis.gap ?? 5) + text + 8);
};

/**
 * The Y range: from 0 (or, for a band far from 0, near its low end) to a round number above the
 * highest point, so every point, a single one included, sits inside the plot.
 */
const yRange: uPlot.Range.Function = (_self, min, max) => {
  const hi = Math.max(max, 1);
  const lo = min < max && min > max / 2 ? min : 0;
  const [niceLo, niceHi] = uPlot.rangeNum(lo, hi, 0.1, true);
  return [lo === 0 ? 0 : Math.max(0, niceLo ?? 0), Math.max(niceHi ?? hi, hi)];
};

/**
 * The X range: a single day (uPlot gives it the day after as its end) gets a day either side, so
 * its point sits inside the plot with dates under it.
 */
const xRange: uPlot.Range.Function = (self, min, max) => {
  const xs = self.data[0] ?? [];
  const only = xs.length === 1 ? xs[0] : undefined;
  return only == null ? [min, max] : [only - DAY, only + DAY];
};

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
}

/**
 * A uPlot line chart with the same numbers as a table beneath it, so the figures are
 * readable without the canvas (screen readers, copy-paste).
 */
export function Chart({
  title,
  labels,
  series,
  height = 220,
}: {
  title: string;
  /** One label per point (ISO dates). */
  labels: string[];
  series: ChartSeries[];
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el || labels.length === 0) return;
    const xs = labels.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(160, el.clientWidth),
        height,
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { size: 5 } }))],
        axes: [
          {
            // Whole days only: the points are daily totals.
            incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY],
            values: (_u, splits) => splits.map((v) => new Date(v * 1000).toISOString().slice(5, 10)),
          },
          { size: labelWidth },
        ],
        scales: { x: { time: true, range: xRange }, y: { range: yRange } },
      },
      [xs, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(160, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, series, height]);

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      {labels.length === 0 ? (
        <p className="muted">No data for this period yet.</p>
      ) : (
        <div ref={box} className="chart-canvas" aria-hidden="true" />
      )}
      <details className="chart-table" open={labels.length > 0 && labels.length <= 7}>
        <summary>Data table</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((d, i) => (
                <tr key={d}>
                  <th scope="row">{d}</th>
                  {series.map((s) => (
                    <td key={s.label}>{(s.values[i] ?? 0).toLocaleString()}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
