import { AppError, notFound } from '../../errors.js';

/**
 * The learner page's errors. They are the catalogue's AppErrors, so anything else that meets
 * them still renders sensibly; the learner routes' own handler shows each as an HTML page.
 */

/** Altered, made up, or its enrollment is gone: the page says no more than that. */
export const INVALID_LINK = 'This link is not valid';
export const invalidLearnerLink = () => notFound(INVALID_LINK);

/** A course or lesson the learner's campaign does not have. */
export const PAGE_NOT_FOUND = 'Page not found';
export const learnerPageNotFound = () => notFound(PAGE_NOT_FOUND);

/** Correctly signed but past its expiry: the page offers a new link by email. */
export const LINK_EXPIRED = 'This link has expired';
export const learnerLinkExpired = () => new AppError(403, LINK_EXPIRED);

/** The campaign was stopped; a learner who completed it can still see their completion. */
export const TRAINING_ENDED = 'This training has ended';
export const trainingEnded = (completed: boolean) => new AppError(410, TRAINING_ENDED, { completed });

/** The quiz opens once every lesson of the course is read. */
export const quizLocked = () => new AppError(409, 'Read every lesson before taking the quiz');
