/**
 * The results chart (recharts), loaded on demand: the chart library stays out of the app's start-up bundle
 * and out of the editor until a results page is opened.
 */
import { Area, AreaChart, Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CampaignResults } from '@shared/schemas/entities';

const series = [
  { key: 'sent', name: 'Sent', color: '#64748b' },
  { key: 'delivered', name: 'Delivered', color: '#2d58b8' },
  { key: 'read', name: 'Read', color: '#15803d' },
  { key: 'failed', name: 'Failed', color: '#b92f2f' },
] as const;

const time = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const axisTick = { fontSize: 11, fill: 'var(--fg-muted)' };
const tooltipStyle = { background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12 };

export default function ResultsChart({ timeline }: { timeline: CampaignResults['timeline'] }) {
  const data = timeline.map((p) => ({ ...p, label: time.format(new Date(p.at)) }));
  if (data.length === 1) return <OnePointChart data={data} />;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis dataKey="label" tick={axisTick} minTickGap={24} />
        <YAxis allowDecimals={false} tick={axisTick} width={40} />
        <Tooltip contentStyle={tooltipStyle} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.map((s) => (
          <Area key={s.key} type="monotone" dataKey={s.key} name={s.name} stroke={s.color} fill={s.color} fillOpacity={0.08} strokeWidth={2} isAnimationActive={false} />
        ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}

/**
 * A single time point (every status update came in the same bucket) has no line to draw: the series' dots
 * would sit on one another, Read hiding Sent and Delivered. Side-by-side bars, each with its number, show all
 * four; a zero keeps a 2 px stub so its "0" shows in its place.
 */
function OnePointChart({ data }: { data: (CampaignResults['timeline'][number] & { label: string })[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 20, right: 16, bottom: 0, left: 0 }} barCategoryGap="25%" barGap={6}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
        <XAxis dataKey="label" tick={axisTick} />
        <YAxis allowDecimals={false} tick={axisTick} width={40} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--border)', fillOpacity: 0.3 }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} maxBarSize={56} minPointSize={2} isAnimationActive={false} className={`results-series-${s.key}`}>
            <LabelList dataKey={s.key} position="top" fontSize={12} fontWeight={600} fill="var(--fg)" className={`results-value-${s.key}`} />
          </Bar>
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
