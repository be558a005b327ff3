import autocannon from 'autocannon';
import { cpuMsOf, RssSampler } from './processes.js';

export interface LoadOptions {
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** Seconds of load before measuring (JIT, caches, connection pools), not recorded. */
  warmup: number;
}

export interface LoadSpec {
  label: string;
  baseUrl: string;
  /** Process whose memory is sampled during the load. */
  pid: number;
  /** The only status a request may get; anything else is counted as bad. */
  expectedStatus: number;
  request: autocannon.Request;
  /** Overrides the run's connection count (the single-client latency rows). */
  connections?: number;
  /** Another CPU clock (ms) measured over the same window: the database's (cpuMsOfCommand). */
  alsoCpuMs?: () => number;
}

export interface LoadResult {
  label: string;
  connections: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  /** Responses with another status than expected, plus connection errors and timeouts. */
  bad: number;
  badDetail: string;
  peakRssMiB: number;
  /** Server CPU time per request, in ms: hardly moved by other load on the machine, unlike req/s. */
  cpuMsPerRequest: number;
  /** The `alsoCpuMs` clock per request, in ms (NaN without it). */
  alsoCpuMsPerRequest: number;
}

function cannon(spec: LoadSpec, connections: number, duration: number) {
  return autocannon({
    url: spec.baseUrl,
    connections,
    duration,
    requests: [spec.request],
  });
}

/** Runs autocannon against one endpoint: a warm-up, then the measured run with memory sampled. */
export async function runLoad(spec: LoadSpec, options: LoadOptions): Promise<LoadResult> {
  const connections = spec.connections ?? options.connections;
  if (options.warmup > 0) await cannon(spec, connections, options.warmup);
  const sampler = new RssSampler(spec.pid);
  sampler.start();
  const cpuBefore = cpuMsOf(spec.pid);
  const alsoBefore = spec.alsoCpuMs?.() ?? Number.NaN;
  const result = await cannon(spec, connections, options.duration);
  const cpuMs = cpuMsOf(spec.pid) - cpuBefore;
  const alsoMs = (spec.alsoCpuMs?.() ?? Number.NaN) - alsoBefore;
  const peakRssMiB = sampler.stop();

  const statuses = Object.entries(result.statusCodeStats ?? {}).map(
    ([code, s]) => [code, s.count ?? 0] as const,
  );
  const unexpected = statuses.filter(([code]) => Number(code) !== spec.expectedStatus);
  const bad = unexpected.reduce((sum, [, n]) => sum + n, 0) + result.errors + result.timeouts;
  const detail = [
    ...unexpected.map(([code, n]) => `${n}×${code}`),
    ...(result.errors ? [`${result.errors} errors`] : []),
    ...(result.timeouts ? [`${result.timeouts} timeouts`] : []),
  ];
  return {
    label: spec.label,
    connections,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: statuses.reduce((sum, [, n]) => sum + n, 0),
    bad,
    badDetail: detail.join(', '),
    peakRssMiB,
    cpuMsPerRequest: cpuMs / Math.max(1, result.requests.total),
    alsoCpuMsPerRequest: alsoMs / Math.max(1, result.requests.total),
  };
}
