import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { Empty } from '../../components/status';
import { type ChartData, formatValue } from './chart-series';
import type { YAxisMin } from './impact-api';

const HEIGHT = 220;
/** Up to this many times a line's every value is marked; past it, only those a line does not reach. */
const MARK_ALL = 12;

/** The values with no value on either side: a line passes through the others, these it would skip. */
function lonely(values: (number | null)[]): number[] {
  return values.flatMap((v, i) => (v !== null && values[i - 1] == null && values[i + 1] == null ? [i] : []));
}

function options(width: number, data: ChartData, yAxisMin: YAxisMin): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    scales: {
      // The whole range asked for, even where no SDK sent anything: an empty hour is news too.
      x: { time: true, range: () => [data.from, data.to] },
      y:
        yAxisMin === 'zero'
          ? { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] }
          : { range: (_u, min, max) => uPlot.rangeNum(min, max, 0.1, true) },
    },
    series: [
      {},
      ...data.lines.map((line) => ({
        label: line.name,
        stroke: line.color,
        width: 2,
        points: {
          show: true,
          fill: line.color,
          filter: data.times.length <= MARK_ALL ? null : lonely(line.values),
        },
      })),
    ],
    // The legend is the page's own, under the chart: uPlot's follows the cursor only.
    legend: { show: false },
    axes: [{}, { size: 64, values: (_u, splits) => splits.map(formatValue) }],
  };
}

function Plot({ data, yAxisMin }: { data: ChartData; yAxisMin: YAxisMin }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current!;
    const aligned: uPlot.AlignedData = [data.times, ...data.lines.map((l) => l.values)];
    const plot = new uPlot(options(element.clientWidth, data, yAxisMin), aligned, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, yAxisMin]);
  return <div class="impact-plot" ref={box} aria-hidden="true" />;
}

/** The series as lines over the time range, with a legend that says each one's latest value. */
export function ImpactChart({ data, yAxisMin }: { data: ChartData; yAxisMin: YAxisMin }) {
  if (data.times.length === 0) return <Empty>No SDK sent this metric in this time range.</Empty>;
  return (
    <>
      <Plot data={data} yAxisMin={yAxisMin} />
      <ul class="impact-legend" aria-label="Series">
        {data.lines.map((line) => (
          <li key={line.name}>
            <span class="impact-swatch" style={{ background: line.color }} aria-hidden="true" />
            <span class="impact-series-name">{line.name}</span>
            <span class="impact-last">
              latest <strong>{formatValue(line.last)}</strong>, highest{' '}
              <strong>{formatValue(line.highest)}</strong>
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
