import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HourlyUsage } from './usage-data';

const HEIGHT = 220;

function options(width: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      {},
      { label: 'Yes', stroke: '#1a7f37', fill: 'rgba(26, 127, 55, 0.12)', width: 2 },
      { label: 'No', stroke: '#8c959f', width: 2, dash: [6, 4] },
    ],
    axes: [{}, { size: 56 }],
  };
}

/** Yes and no per hour as lines; it follows the width of its container. */
export function UsageChart({ usage }: { usage: HourlyUsage }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current!;
    const plot = new uPlot(options(element.clientWidth), [usage.hours, usage.yes, usage.no], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [usage]);
  return <div class="usage-chart" ref={box} aria-hidden="true" />;
}
