import './spark.css';

/**
 * Two small SVG charts for the workplace, which must stay light (its first load has a byte budget that
 * echarts alone would exceed): a trend line with its area, and a share bar with a legend. Both scale
 * to 100 % of their box's width.
 */

export function TrendLine({
  points,
  label,
  peakLabel,
  format,
}: {
  points: { period: string; value: number }[];
  label: string;
  /** "highest" in the page's language, before the peak value */
  peakLabel: string;
  format: (v: number) => string;
}) {
  const width = 600;
  const height = 160;
  const max = Math.max(1, ...points.map((p) => p.value));
  const step = points.length > 1 ? width / (points.length - 1) : width;
  const xy = points.map((p, i) => [i * step, height - 8 - (p.value / max) * (height - 24)] as const);
  const line = xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  return (
    <figure className="spark" aria-label={label}>
      <div className="spark-peak">
        {peakLabel} {format(max)}
      </div>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label}>
        <polygon className="spark-area" points={`0,${height} ${line} ${width},${height}`} />
        <polyline className="spark-line" points={line} vectorEffect="non-scaling-stroke" />
        {xy.map(([x], i) => (
          <rect key={points[i]?.period} x={x - step / 2} y={0} width={step} height={height} className="spark-hit">
            <title>{`${points[i]?.period}: ${format(points[i]?.value ?? 0)}`}</title>
          </rect>
        ))}
        <circle cx={xy.at(-1)?.[0]} cy={xy.at(-1)?.[1]} r={3} className="spark-dot" />
      </svg>
      <figcaption className="spark-axis">
        <span>{points[0]?.period}</span>
        <span>{points.at(-1)?.period}</span>
      </figcaption>
    </figure>
  );
}

const COLORS = ['#165DFF', '#14C9C9', '#F7BA1E', '#722ED1', '#F77234', '#3491FA', '#9FDB1D', '#86909C'];

export function ShareBar({
  parts,
  label,
  format,
}: {
  parts: { name: string; value: number }[];
  label: string;
  format: (v: number) => string;
}) {
  const total = parts.reduce((sum, p) => sum + p.value, 0) || 1;
  return (
    <div className="share" role="img" aria-label={label}>
      <div className="share-bar">
        {parts.map((p, i) => (
          <span
            key={p.name}
            style={{ width: `${(p.value / total) * 100}%`, background: COLORS[i % COLORS.length] }}
            title={`${p.name}: ${format(p.value)}`}
          />
        ))}
      </div>
      <ul className="share-legend">
        {parts.map((p, i) => (
          <li key={p.name}>
            <i style={{ background: COLORS[i % COLORS.length] }} />
            <span className="share-name">{p.name}</span>
            <span className="share-value">{((p.value / total) * 100).toFixed(1)}%</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
