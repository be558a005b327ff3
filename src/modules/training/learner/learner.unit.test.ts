import { describe, expect, it } from 'vitest';
import { builtIn } from '../../../../test/helpers/learner.js';
import type { AnswersShown } from '../../../core/db/schema.js';
import { answersRevealed, attemptsLeft, bestScore } from '../courses/courses.quiz-rules.model.js';
import { html, SafeHtml } from './learner.html.presenter.js';
import { readQuizAnswers, summarizeEnrollment } from './learner.quiz.model.js';

describe('summarizeEnrollment', () => {
  type Taken = { attempts: number; bestScore: number | null; passedAt: number | null };
  const taken = (bestScore: number, passed: boolean): Taken => ({
    attempts: 1,
    bestScore,
    passedAt: passed ? 1 : null,
  });

  it('has no score until every quiz has been taken', () => {
    expect(summarizeEnrollment(['a', 'b'], new Map([['a', taken(100, true)]]))).toEqual({
      score: null,
      complete: false,
    });
    const untried = new Map<string, Taken>([
      ['a', taken(100, true)],
      ['b', { attempts: 0, bestScore: null, passedAt: null }],
    ]);
    expect(summarizeEnrollment(['a', 'b'], untried).score).toBeNull();
  });

  it('scores the floor of the mean best score, complete only when every quiz is passed', () => {
    const passedAll = new Map([
      ['a', taken(100, true)],
      ['b', taken(87, true)],
    ]);
    expect(summarizeEnrollment(['a', 'b'], passedAll)).toEqual({ score: 93, complete: true });
    const oneFailed = new Map([
      ['a', taken(100, true)],
      ['b', taken(50, false)],
    ]);
    expect(summarizeEnrollment(['a', 'b'], oneFailed)).toEqual({ score: 75, complete: false });
  });

  it('never completes a campaign without courses', () => {
    expect(summarizeEnrollment([], new Map())).toEqual({ score: null, complete: false });
  });
});

describe('readQuizAnswers', () => {
  const course = builtIn('phishing');

  it('reads one choice per question and lists the questions left unanswered or answered with nonsense', () => {
    const form: Record<string, unknown> = {
      q0: '2',
      q1: '0',
      q2: '9',
      q3: ['1', '2'],
      q4: '-1',
      q5: ' 1',
      extra: '1',
    };
    const { answers, missing } = readQuizAnswers(course, form);
    expect(answers).toEqual([2, 0, null, null, null, null, null]);
    expect(missing).toEqual([2, 3, 4, 5, 6]);
  });
});

describe('html templates', () => {
  it('escape every interpolated value, except HTML made by a template', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    expect(html`<ul>${['<a>', html`<li>${'<b>'}</li>`]}</ul>`.value).toBe(
      '<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>',
    );
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
    expect(html`${new SafeHtml('<em>kept</em>')}`.value).toBe('<em>kept</em>');
  });
});

describe('quiz rules', () => {
  const rules = (max_attempts: number | null, answers_shown: AnswersShown = 'passed_or_last') => ({
    max_attempts,
    answers_shown,
  });

  it('counts the attempts left, none for unlimited', () => {
    expect(attemptsLeft(rules(null), 40)).toBeNull();
    expect(attemptsLeft(rules(3), 1)).toBe(2);
    expect(attemptsLeft(rules(3), 5)).toBe(0);
  });

  it('reveals the answers once passed or after the last attempt by default, always or never otherwise', () => {
    expect(answersRevealed(rules(null), { passed: false, attempts: 9 })).toBe(false);
    expect(answersRevealed(rules(null), { passed: true, attempts: 1 })).toBe(true);
    expect(answersRevealed(rules(2), { passed: false, attempts: 1 })).toBe(false);
    expect(answersRevealed(rules(2), { passed: false, attempts: 2 })).toBe(true);
    expect(answersRevealed(rules(null, 'always'), { passed: false, attempts: 1 })).toBe(true);
    expect(answersRevealed(rules(1, 'never'), { passed: true, attempts: 1 })).toBe(false);
  });

  it('keeps the best passing attempt, else the best attempt', () => {
    expect(bestScore({ bestScore: null, passed: false }, { score: 40, passed: false })).toBe(40);
    expect(bestScore({ bestScore: 40, passed: false }, { score: 30, passed: false })).toBe(40);
    expect(bestScore({ bestScore: 85, passed: true }, { score: 60, passed: false })).toBe(85);
    expect(bestScore({ bestScore: 85, passed: true }, { score: 100, passed: true })).toBe(100);
    // A pass mark lowered since: a passing 60 beats a failing 70 of before.
    expect(bestScore({ bestScore: 70, passed: false }, { score: 60, passed: true })).toBe(60);
    // A pass mark raised since: a failing 95 never replaces a passing 85.
    expect(bestScore({ bestScore: 85, passed: true }, { score: 95, passed: false })).toBe(85);
  });
});
