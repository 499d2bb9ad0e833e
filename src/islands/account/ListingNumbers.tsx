import { useEffect, useMemo, useState } from 'react';
import { formatPercent } from '~/lib/format';
import { Chart } from '../admin/Chart';
import { client, messageOf, parseResponse } from './api';

type Numbers = Awaited<ReturnType<typeof loadNumbers>>;
const loadNumbers = (id: number) =>
  parseResponse(client.api.account.listings[':id'].numbers.$get({ param: { id: String(id) } }));

/**
 * A listing's numbers for its owner: views, join clicks and conversion for 7, 30 and 90 days as a
 * table, then the daily views and clicks and the member history as charts (the console's uPlot
 * chart, each with the same figures as a table beneath).
 */
export function ListingNumbers({ id, name }: { id: number; name: string }) {
  const [numbers, setNumbers] = useState<Numbers | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    loadNumbers(id)
      .then(setNumbers)
      .catch((err) => setError(messageOf(err)));
  }, [id]);

  const daily = useMemo(() => {
    const days = numbers?.daily.slice(-30) ?? [];
    return {
      labels: days.map((d) => d.date),
      series: [
        { label: 'Views', values: days.map((d) => d.views), color: '#4f46e5' },
        { label: 'Join clicks', values: days.map((d) => d.clicks), color: '#059669' },
      ],
    };
  }, [numbers]);
  const members = useMemo(
    () => ({
      labels: numbers?.members.map((m) => m.date) ?? [],
      series: [
        { label: 'Members', values: numbers?.members.map((m) => m.members) ?? [], color: '#4f46e5' },
        { label: 'Online', values: numbers?.members.map((m) => m.online ?? 0) ?? [], color: '#d97706' },
      ],
    }),
    [numbers],
  );

  const captionId = `numbers-${id}`;
  return (
    <section className="account-numbers" aria-labelledby={captionId}>
      <h4 id={captionId}>Numbers</h4>
      {error && <p className="alert alert-error">{error}</p>}
      {!numbers && !error && (
        <p className="muted" role="status">
          Loading the numbers…
        </p>
      )}
      {numbers && (
        <>
          <div className="account-table">
            <table>
              <caption className="visually-hidden">Views, join clicks and conversion of {name}</caption>
              <thead>
                <tr>
                  <th scope="col">Period</th>
                  <th scope="col">Views</th>
                  <th scope="col">Join clicks</th>
                  <th scope="col">Conversion</th>
                </tr>
              </thead>
              <tbody>
                {numbers.windows.map((w) => (
                  <tr key={w.days}>
                    <th scope="row">{`${w.days}\u00a0days`}</th>
                    <td>{w.views.toLocaleString('en-US')}</td>
                    <td>{w.clicks.toLocaleString('en-US')}</td>
                    <td>{formatPercent(w.conversion, { digits: 1 })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="hint">
            Views are visits to the listing's page on this site; join clicks are clicks on its Join button; conversion
            is join clicks per view.
          </p>
          <Chart title="Views and join clicks per day, last 30 days" labels={daily.labels} series={daily.series} />
          <Chart title="Members, from Discord's counts at each check" labels={members.labels} series={members.series} />
        </>
      )}
    </section>
  );
}
