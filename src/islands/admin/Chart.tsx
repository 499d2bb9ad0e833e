import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

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
            incrs: [86_400, 7 * 86_400, 30 * 86_400],
            values: (_u, splits) => splits.map((v) => new Date(v * 1000).toISOString().slice(5, 10)),
          },
          { size: 50 },
        ],
        scales: { x: { time: true } },
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
