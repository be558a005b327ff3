/** The training context as the contexts above it use it. */

export {
  type EmployeeEnrollment,
  type EmployeeEnrollmentCourse,
  employeeEnrollments,
} from './campaigns/campaigns.employee.service.js';
export type { TrainingCampaignChange } from './campaigns/campaigns.events.model.js';
export { trainingCampaignKind } from './campaigns/campaigns.kind.service.js';
export { enrollNewMembers } from './campaigns/campaigns.launch.commands.js';
export { createRemedialCampaign } from './campaigns/campaigns.remedial.commands.js';
export {
  presentTrainingChange,
  type TrainingWebhookEvent,
} from './campaigns/campaigns.webhooks.presenter.js';
export { findCourses } from './courses/courses.lookup.service.js';
export { html, SafeHtml } from './learner/learner.html.presenter.js';
export { BRAND_BAR_STYLE, brandBar, type PageBrand } from './learner/learner.layout.presenter.js';
export type { LearnerLinkOffer } from './learner/learner.service.js';
export { learnerLinkOffer } from './learner/learner.service.js';
