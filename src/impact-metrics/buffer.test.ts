import pino from 'pino';
import { expect, it } from 'vitest';
import { ImpactMetricsBuffer, type MinutePoint } from './buffer.js';
import type { Observation } from './observations.js';

const MINUTE_MS = 60_000;

const gauge = (series: number, value: number): Observation => ({
  metric: 'queue_depth',
  type: 'gauge',
  help: '',
  labels: { series: String(series) },
  labelsKey: String(series),
  value,
});

/** A logger that keeps what it was given, to read back. */
function recordingLogger() {
  const lines: { level: number; msg: string; points?: number; refused?: number }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

it('writes a large flush as several short writes, oldest minutes first', async () => {
  const writes: MinutePoint[][] = [];
  const { log } = recordingLogger();
  const buffer = new ImpactMetricsBuffer(
    async (points) => {
      writes.push(points);
      return 0;
    },
    log,
    60_000,
    50,
  );
  // 60 series in a later minute reported first, then the same 60 in an earlier one.
  const later = 10 * MINUTE_MS;
  buffer.add(
    'token',
    Array.from({ length: 60 }, (_, i) => gauge(i, 2)),
    later,
  );
  buffer.add(
    'token',
    Array.from({ length: 60 }, (_, i) => gauge(i, 1)),
    later - MINUTE_MS,
  );
  await buffer.close();

  expect(writes.map((w) => w.length)).toEqual([50, 50, 20]);
  const minutes = writes.flat().map((p) => p.minute);
  expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
  expect(minutes[0]).toBe(later - MINUTE_MS);
  // A gauge's last value is the later minute's: written after the earlier one.
  expect(
    writes
      .flat()
      .filter((p) => p.observation.labelsKey === '7')
      .map((p) => p.observation.value),
  ).toEqual([1, 2]);
});

it('stops at the first write that fails, saying once how many points were dropped', async () => {
  const { log, lines } = recordingLogger();
  let calls = 0;
  const buffer = new ImpactMetricsBuffer(
    async (points) => {
      calls++;
      if (calls === 2) throw new Error('database away');
      return points.length === 50 ? 3 : 0;
    },
    log,
    60_000,
    50,
  );
  buffer.add(
    'token',
    Array.from({ length: 120 }, (_, i) => gauge(i, 1)),
    0,
  );
  await buffer.close();

  expect(calls).toBe(2);
  expect(lines.filter((l) => l.level >= 40).map((l) => [l.msg, l.points ?? l.refused])).toEqual([
    ['impact metrics: cannot write; dropped', 70],
    ['impact metrics: samples over the limits of series or of another type dropped', 3],
  ]);
});
