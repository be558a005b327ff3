import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';
import type { Database } from '../core/db/database.js';
import type { Sample } from './http-metrics.js';
import { processMetrics, registerMailQueueGauge, registerPoolGauge } from './metrics.js';

/**
 * `GET /metrics` in an instance of several processes (WEB_CONCURRENCY > 1). The scrape lands on
 * any HTTP worker; it asks the primary (IPC), which asks every worker for its own metrics,
 * adds its own (the mail queue, its pool, its process metrics) and answers the whole instance,
 * aggregated by prom-client's AggregatorRegistry rules: counters and histograms summed over the
 * workers, per-process metrics kept apart by their `process` label, the mail queue not summed.
 *
 * Why not `AggregatorRegistry#clusterMetrics()`: it cannot add the primary's own metrics, and one
 * worker that does not answer (a worker restarting, waiting for the database) fails the whole
 * scrape after 5 s. Here a worker that does not answer within a second is reported from its
 * previous answer, and the counts of a worker that exited are kept, so the instance's counters
 * never go backwards (which Prometheus would read as a reset, and a burst of requests).
 */

type MetricJson = { name: string; type: string; values: Sample[] } & Record<string, unknown>;

/** Worker → primary: the instance's metrics, please. Primary → worker: here they are (or null). */
const SCRAPE = 'vigil:metrics:scrape';
const SCRAPED = 'vigil:metrics:scraped';
/** Primary → each worker: your own metrics, please. Worker → primary: here they are. */
const COLLECT = 'vigil:metrics:collect';
const COLLECTED = 'vigil:metrics:collected';

/** How long the primary waits for each worker's own metrics. */
const COLLECT_TIMEOUT_MS = 1000;
/** How long the worker that received a scrape waits for the primary's answer (then 503). */
const SCRAPE_TIMEOUT_MS = 3000;

interface Message {
  type: string;
  id: number;
  text?: string | null;
  metrics?: MetricJson[] | null;
}

/** A registry's metrics as the processes exchange them. */
async function metricsJson(registry: Registry): Promise<MetricJson[]> {
  return (await registry.getMetricsAsJSON()) as unknown as MetricJson[];
}

function isMessage(message: unknown, type: string): message is Message {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/** Sends over IPC; a channel closed meanwhile (the other side exiting) only loses the message. */
function send(to: Worker | NodeJS.Process, message: Message): void {
  try {
    if (to.send) to.send(message, undefined, {}, () => {});
  } catch {
    // Gone: its answer is not needed any more.
  }
}

// ---- In an HTTP worker -------------------------------------------------------------------

let answering: Registry | undefined;
const scrapes = new Map<number, (text: string | undefined) => void>();
let nextScrape = 0;

/** Lets the primary collect this worker's metrics (the latest registry given). */
export function answerCollections(registry: Registry): void {
  const first = answering === undefined;
  answering = registry;
  if (!first) return;
  process.on('message', (message: unknown) => {
    if (isMessage(message, COLLECT)) {
      metricsJson(answering as Registry).then(
        (metrics) => send(process, { type: COLLECTED, id: message.id, metrics }),
        () => send(process, { type: COLLECTED, id: message.id, metrics: null }),
      );
    } else if (isMessage(message, SCRAPED)) {
      scrapes.get(message.id)?.(message.text ?? undefined);
    }
  });
}

/** The whole instance's metrics in the text format, from the primary; undefined when it does not answer in time. */
export function scrapeInstance(): Promise<string | undefined> {
  const id = nextScrape++;
  return new Promise((resolve) => {
    const finish = (text: string | undefined) => {
      clearTimeout(timer);
      scrapes.delete(id);
      resolve(text);
    };
    const timer = setTimeout(() => finish(undefined), SCRAPE_TIMEOUT_MS);
    scrapes.set(id, finish);
    send(process, { type: SCRAPE, id });
  });
}

// ---- In the primary ----------------------------------------------------------------------

export interface InstanceMetricsOptions {
  /** The primary's database, once it has opened it. */
  database: () => Database | undefined;
  postgres: boolean;
}

/** Answers the workers' scrapes with the metrics of the whole instance. Call once, in the primary. */
export function serveInstanceMetrics(options: InstanceMetricsOptions): void {
  const own = new Registry();
  if (options.postgres) registerPoolGauge(own, options.database);
  registerMailQueueGauge(own, options.database);
  const registry = Registry.merge([own, processMetrics()]);

  /** Each worker's latest answer; a worker that answers late is reported from it. */
  const latest = new Map<number, MetricJson[]>();
  /** The counters and histograms of workers that exited, summed. */
  let retired: MetricJson[] = [];
  let retiring = Promise.resolve();
  const collections = new Map<number, (workerId: number, metrics: MetricJson[] | null) => void>();
  let nextCollection = 0;

  cluster.on('exit', (worker) => {
    const last = latest.get(worker.id);
    latest.delete(worker.id);
    if (!last) return;
    const counts = last.filter(
      (m) => m.name.startsWith('vigil_') && ['counter', 'histogram'].includes(m.type),
    );
    retiring = retiring.then(async () => {
      retired = await metricsJson(AggregatorRegistry.aggregate([retired, counts]));
    });
  });

  async function collectWorkers(): Promise<{ metrics: MetricJson[][]; answered: number; late: number }> {
    const workers = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => w?.isConnected() === true,
    );
    const replied = new Set<number>();
    const answers = new Map<number, MetricJson[]>();
    const id = nextCollection++;
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        collections.delete(id);
        resolve();
      };
      const timer = setTimeout(finish, COLLECT_TIMEOUT_MS);
      collections.set(id, (workerId, metrics) => {
        replied.add(workerId);
        if (metrics) answers.set(workerId, metrics);
        if (replied.size === workers.length) finish();
      });
      for (const worker of workers) send(worker, { type: COLLECT, id });
      if (workers.length === 0) finish();
    });
    // A worker that exited meanwhile has been retired with its previous answer: leave it there.
    for (const [workerId, metrics] of answers) if (cluster.workers?.[workerId]) latest.set(workerId, metrics);
    const metrics = workers.flatMap((w) => {
      const last = latest.get(w.id);
      return last ? [last] : [];
    });
    return { metrics, answered: answers.size, late: workers.length - answers.size };
  }

  async function instanceMetrics(): Promise<string> {
    const [workers, primary] = await Promise.all([collectWorkers(), metricsJson(registry)]);
    await retiring;
    const coverage: MetricJson = {
      name: 'vigil_metrics_workers',
      help: 'HTTP worker processes of this instance whose metrics this scrape holds fresh (answered) or from their previous answer (late: no answer within 1 s).',
      type: 'gauge',
      aggregator: 'first',
      values: [
        { labels: { state: 'answered' }, value: workers.answered },
        { labels: { state: 'late' }, value: workers.late },
      ],
    };
    const all = [...workers.metrics, retired, primary, [coverage]];
    return AggregatorRegistry.aggregate(all).metrics();
  }

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage(message, COLLECTED)) {
      collections.get(message.id)?.(worker.id, message.metrics ?? null);
    } else if (isMessage(message, SCRAPE)) {
      instanceMetrics().then(
        (text) => send(worker, { type: SCRAPED, id: message.id, text }),
        () => send(worker, { type: SCRAPED, id: message.id, text: null }),
      );
    }
  });
}
