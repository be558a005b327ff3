import type { JsonBody, QueryParams, Success } from '../operations.js';
import { PageIterator } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';

export type TrainingCampaign = Success<'getTrainingCampaign'>;
export type Enrollment = Success<'listTrainingCampaignEnrollments'>['results'][number];
export type PhishingCampaign = Success<'getPhishingCampaign'>;
export type PhishingRecipientResult = Success<'listPhishingCampaignResults'>['results'][number];
export type TrainingCampaignListParams = QueryParams<'listTrainingCampaigns'>;
export type EnrollmentListParams = QueryParams<'listTrainingCampaignEnrollments'>;
export type PhishingCampaignListParams = QueryParams<'listPhishingCampaigns'>;
export type PhishingResultListParams = QueryParams<'listPhishingCampaignResults'>;

/** `client.campaigns.training`: training campaigns and their enrollments. */
export class TrainingCampaigns {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every training campaign (ordered by id), page by page as you iterate. */
  list(params: TrainingCampaignListParams = {}): PageIterator<TrainingCampaign, TrainingCampaignListParams> {
    return new PageIterator((query) => this.page(query), params);
  }

  async page(params: TrainingCampaignListParams = {}, options?: RequestOptions) {
    return (await this.#t.call('listTrainingCampaigns', { query: params }, options)).data;
  }

  async get(id: number, options?: RequestOptions): Promise<TrainingCampaign> {
    return (await this.#t.call('getTrainingCampaign', { path: { campaign_id: id } }, options)).data;
  }

  /** Every enrollment of the campaign (`status` filters), page by page as you iterate. */
  enrollments(id: number, params: EnrollmentListParams = {}): PageIterator<Enrollment, EnrollmentListParams> {
    return new PageIterator((query) => this.enrollmentsPage(id, query), params);
  }

  async enrollmentsPage(id: number, params: EnrollmentListParams = {}, options?: RequestOptions) {
    const args = { path: { campaign_id: id }, query: params };
    return (await this.#t.call('listTrainingCampaignEnrollments', args, options)).data;
  }
}

/** `client.campaigns.phishing`: phishing simulations and each recipient's result. */
export class PhishingCampaigns {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  list(params: PhishingCampaignListParams = {}): PageIterator<PhishingCampaign, PhishingCampaignListParams> {
    return new PageIterator((query) => this.page(query), params);
  }

  async page(params: PhishingCampaignListParams = {}, options?: RequestOptions) {
    return (await this.#t.call('listPhishingCampaigns', { query: params }, options)).data;
  }

  async get(id: number, options?: RequestOptions): Promise<PhishingCampaign> {
    return (await this.#t.call('getPhishingCampaign', { path: { campaign_id: id } }, options)).data;
  }

  /** Every recipient's result (`status`, `employee_id` filter), page by page as you iterate. */
  results(
    id: number,
    params: PhishingResultListParams = {},
  ): PageIterator<PhishingRecipientResult, PhishingResultListParams> {
    return new PageIterator((query) => this.resultsPage(id, query), params);
  }

  async resultsPage(id: number, params: PhishingResultListParams = {}, options?: RequestOptions) {
    const args = { path: { campaign_id: id }, query: params };
    return (await this.#t.call('listPhishingCampaignResults', args, options)).data;
  }
}

/** `client.phishingReports`: an employee reported a simulated phishing email. */
export class PhishingReports {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Reports by the simulation's token (the reported email's `X-Vigil-Simulation` header); answers the recipient's result. */
  async create(
    body: JsonBody<'reportPhishingSimulation'>,
    options?: RequestOptions,
  ): Promise<PhishingRecipientResult> {
    return (await this.#t.call('reportPhishingSimulation', { body }, options)).data;
  }

  /** Reports the email as received (the `.eml` text or bytes, sent as `message/rfc822`). */
  async createFromMessage(
    message: string | Uint8Array,
    options?: RequestOptions,
  ): Promise<PhishingRecipientResult> {
    const raw = { contentType: 'message/rfc822', data: message };
    return (await this.#t.call('reportPhishingSimulation', { body: undefined as never, raw }, options)).data;
  }
}
