import { AppError, notFound } from '../../../core/errors.js';

/**
 * The learner page's errors. They are the catalogue's AppErrors, so anything else that meets
 * them still renders sensibly; the learner routes' own handler shows each as an HTML page,
 * chosen by its code.
 */

/** Altered, made up, or its enrollment is gone: the page says no more than that. */
export const invalidLearnerLink = () => new AppError('invalid_learner_link');

/** A course or lesson the learner's campaign does not have. */
export const learnerPageNotFound = notFound;

/** Correctly signed but past its expiry: the page offers a new link by email. */
export const learnerLinkExpired = () => new AppError('learner_link_expired');

/** The campaign was stopped; a learner who completed it can still see their completion. */
export const trainingEnded = (completed: boolean) =>
  new AppError('training_ended', { details: { completed } });

/** The quiz opens once every lesson of the course is read. */
export const quizLocked = () => new AppError('quiz_locked');

/** The course's quiz rules allow no more attempts to this learner. */
export const quizAttemptsUsed = () => new AppError('quiz_attempts_used');
