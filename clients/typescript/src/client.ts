import type { OperationId, Success } from './operations.js';
import { PhishingCampaigns, PhishingReports, TrainingCampaigns } from './resources/campaigns.js';
import { Employees } from './resources/employees.js';
import { Groups } from './resources/groups.js';
import { Webhooks } from './resources/webhooks.js';
import {
  type ApiResponse,
  type CallArgs,
  type RequestOptions,
  Transport,
  type VigilClientOptions,
} from './transport.js';

/**
 * The Vigil Customer API:
 *
 * ```ts
 * const vigil = new VigilClient({ baseUrl: 'https://vigil.example.com', apiKey: process.env.VIGIL_API_KEY! });
 * for await (const employee of vigil.employees.list()) console.log(employee.email);
 * ```
 *
 * Every call retries what is safe to retry (network errors, timeouts, 429 and 503 after their
 * `Retry-After`, other 5xx with back-off), sends each write with one `Idempotency-Key` for all
 * its attempts, and throws a `VigilError` whose `code` says what went wrong.
 */
export class VigilClient {
  readonly employees: Employees;
  readonly groups: Groups;
  readonly campaigns: { readonly training: TrainingCampaigns; readonly phishing: PhishingCampaigns };
  readonly phishingReports: PhishingReports;
  readonly webhooks: Webhooks;
  readonly #transport: Transport;

  constructor(options: VigilClientOptions) {
    this.#transport = new Transport(options);
    this.employees = new Employees(this.#transport);
    this.groups = new Groups(this.#transport);
    this.campaigns = {
      training: new TrainingCampaigns(this.#transport),
      phishing: new PhishingCampaigns(this.#transport),
    };
    this.phishingReports = new PhishingReports(this.#transport);
    this.webhooks = new Webhooks(this.#transport);
  }

  /**
   * Any operation of the API by its `operationId`, typed from the OpenAPI document, with the
   * answer's status and headers: `await vigil.request('getGroup', { path: { group_id: 3 } })`.
   * Operations added to the API are callable here as soon as the types are regenerated.
   */
  request<K extends OperationId>(
    operation: K,
    args: CallArgs<K>,
    options?: RequestOptions,
  ): Promise<ApiResponse<Success<K>>> {
    return this.#transport.call(operation, args, options);
  }
}
