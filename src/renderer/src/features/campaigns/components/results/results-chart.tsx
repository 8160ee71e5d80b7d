/**
 * The results chart (recharts), loaded on demand: the chart library stays out of the app's start-up bundle
 * and out of the editor until a results page is opened.
 */
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CampaignResults } from '@shared/schemas/entities';

const series = [
  { key: 'sent', name: 'Sent', color: '#64748b' },
  { key: 'delivered', name: 'Delivered', color: '#2d58b8' },
  { key: 'read', name: 'Read', color: '#15803d' },
  { key: 'failed', name: 'Failed', color: '#b92f2f' },
] as const;

const time = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export default function ResultsChart({ timeline }: { timeline: CampaignResults['timeline'] }) {
  const data = timeline.map((p) => ({ ...p, label: time.format(new Date(p.at)) }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis dataKey="label" tick={{ fontSize: 11, fill: 'var(--fg-muted)' }} minTickGap={24} />
        <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--fg-muted)' }} width={40} />
        <Tooltip contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12 }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.map((s) => (
          <Area key={s.key} type="monotone" dataKey={s.key} name={s.name} stroke={s.color} fill={s.color} fillOpacity={0.08} strokeWidth={2} isAnimationActive={false} />
        ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}
