import cluster from 'node:cluster';
import type { onResponseHookHandler } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Registry, register } from 'prom-client';
import type { Database } from '../core/db/database.js';
import { mailQueueDepthOfAllAccounts } from '../modules/mail/mail.messages.service.js';
import { HttpMetrics } from './http-metrics.js';

/**
 * What `GET /metrics` reports (README, "Monitoring"). Each app has a registry of its own (tests
 * build several apps in one process); the process's own metrics (CPU, memory, GC, event-loop
 * lag) are collected once per process on prom-client's default registry and merged in.
 */

/** Which budget refused a request with 429. */
export type RateLimitKind = 'key' | 'address' | 'sign_in';
const RATE_LIMIT_KINDS: RateLimitKind[] = ['key', 'address', 'sign_in'];

/** The longest a scrape waits for the mail queue's count; past it the metric is left out. */
const MAIL_QUEUE_DEADLINE_MS = 1000;

export interface AppMetrics {
  /** This app's metrics and the process's own. */
  registry: Registry;
  /** The `onResponse` hook that counts and times every request. */
  recordResponse: onResponseHookHandler;
  countRateLimited(kind: RateLimitKind): void;
}

/** The metrics of one app: its requests, its rate-limit refusals, its pool, and the mail queue. */
export function createAppMetrics(database: Database): AppMetrics {
  const own = new Registry();
  const http = new HttpMetrics();
  http.registerIn(own);
  const rejections = new Counter({
    name: 'vigil_rate_limit_rejections_total',
    help: 'Requests refused with 429, by budget: key (an API key spent its budget), address (too many failed authentications from one address), sign_in (web sign-in attempts).',
    labelNames: ['kind'],
    registers: [own],
  });
  for (const kind of RATE_LIMIT_KINDS) rejections.inc({ kind }, 0);
  if (database.dialect === 'postgres') registerPoolGauge(own, () => database);
  // In an instance of several processes (WEB_CONCURRENCY) the primary counts the queue, once.
  if (!cluster.isWorker) registerMailQueueGauge(own, () => database);
  return {
    registry: Registry.merge([own, processMetrics()]),
    recordResponse: http.onResponse,
    countRateLimited: (kind) => rejections.inc({ kind }),
  };
}

/** This process within its instance: `primary` (or the only process), or `worker-<id>`. */
export function processName(): string {
  return cluster.isWorker ? `worker-${cluster.worker?.id}` : 'primary';
}

let processMetricsStarted = false;

/**
 * prom-client's default metrics of this process, labelled `process` so that those of an
 * instance's processes stay apart; started once per process.
 */
export function processMetrics(): Registry {
  if (!processMetricsStarted) {
    collectDefaultMetrics({ labels: { process: processName() } });
    processMetricsStarted = true;
  }
  return register;
}

/** The connection pool's figures (PostgreSQL), read when scraped; summed over the processes. */
export function registerPoolGauge(registry: Registry, database: () => Database | undefined): void {
  new Gauge({
    name: 'vigil_db_pool_connections',
    help: 'PostgreSQL connections: total (open), idle, and waiting (requests queued for a connection).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = database()?.poolStats();
      this.reset();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
}

/**
 * The mail queue's depth, counted when scraped from two partial indexes (never the table, whose
 * sent mail grows with history): `pending` (queued or being sent) and `failed`; left out of a
 * scrape when the database does not answer within a second. Every process of an instance would
 * report the same figures, so they are never summed.
 */
export function registerMailQueueGauge(registry: Registry, database: () => Database | undefined): void {
  new Gauge({
    name: 'vigil_mail_queue_messages',
    help: 'Messages in the mail queue, all accounts: pending (queued or being sent) and failed (gave up; retry from the Outbox). Absent when the database did not answer within 1 s.',
    labelNames: ['status'],
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const db = database();
      const counts = db
        ? await within(MAIL_QUEUE_DEADLINE_MS, mailQueueDepthOfAllAccounts(db.db))
        : undefined;
      this.reset();
      if (!counts) return;
      for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
    },
  });
}

/** The promise's value, or undefined when it fails or takes longer than `ms`. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
