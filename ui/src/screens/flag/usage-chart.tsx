import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HourlyUsage } from './usage-data';

const HEIGHT = 220;

// Each count belongs to a whole hour: a step from the start of the hour, not a slope between hours.
const hourly = uPlot.paths.stepped!({ align: 1 });

function options(width: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      {},
      {
        label: 'Yes',
        stroke: '#1a7f37',
        fill: 'rgba(26, 127, 55, 0.12)',
        width: 2,
        paths: hourly,
        points: { show: false },
      },
      { label: 'No', stroke: '#6e7781', width: 2, dash: [6, 4], paths: hourly, points: { show: false } },
    ],
    axes: [{}, { size: 56 }],
  };
}

/**
 * The series with one more point at the end of the last hour, so that the last hour (the current
 * one) is drawn as wide as the others instead of as a line at the right edge.
 */
function stepData(usage: HourlyUsage): uPlot.AlignedData {
  const last = usage.hours.length - 1;
  if (last < 0) return [[], [], []];
  return [
    [...usage.hours, usage.hours[last]! + 3600],
    [...usage.yes, usage.yes[last]!],
    [...usage.no, usage.no[last]!],
  ];
}

/** Yes and no per hour as steps; it follows the width of its container. */
export function UsageChart({ usage }: { usage: HourlyUsage }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current!;
    const plot = new uPlot(options(element.clientWidth), stepData(usage), element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [usage]);
  return <div class="usage-chart" ref={box} aria-hidden="true" />;
}
