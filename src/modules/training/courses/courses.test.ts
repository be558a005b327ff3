import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogueError, loadCatalogue, scoreQuiz } from './courses.catalogue.service.js';
import { renderMarkdown } from './courses.markdown.presenter.js';

const REQUIRED = [
  'passwords-and-mfa',
  'phishing',
  'reporting-incidents',
  'safe-browsing',
  'sensitive-data',
  'social-engineering',
];

describe('the built-in catalogue', () => {
  const courses = loadCatalogue();

  it('holds the six security-awareness courses', () => {
    expect(courses.map((c) => c.slug)).toEqual(expect.arrayContaining(REQUIRED));
  });

  it.each(REQUIRED)('%s has lessons, a quiz with varied answers and a pass mark', (slug) => {
    const course = courses.find((c) => c.slug === slug)!;
    expect(course.lessons.length).toBeGreaterThanOrEqual(3);
    expect(course.quiz.length).toBeGreaterThanOrEqual(6);
    expect(course.pass_mark).toBe(80);
    // The right answer is not always in the same place.
    expect(new Set(course.quiz.map((q) => q.answer)).size).toBeGreaterThan(1);
    for (const lesson of course.lessons) {
      expect(lesson.markdown.split(/\s+/).length, lesson.title).toBeGreaterThan(150);
      const html = renderMarkdown(lesson.markdown);
      expect(html).not.toMatch(/<script|<iframe|javascript:/i);
    }
  });
});

describe('a course that cannot be loaded', () => {
  const root = mkdtempSync(join(tmpdir(), 'vigil-courses-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const course = {
    slug: 'demo',
    title: 'Demo',
    summary: 'A demo course.',
    minutes: 5,
    pass_mark: 80,
    lessons: [{ title: 'One', file: '01-one.md' }],
    quiz: [{ question: 'Q?', choices: ['a', 'b'], answer: 1, explanation: 'Because.' }],
  };
  function write(folder: string, json: unknown, lesson = true) {
    const dir = join(root, folder);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'course.json'), typeof json === 'string' ? json : JSON.stringify(json));
    if (lesson) writeFileSync(join(dir, '01-one.md'), '## Hello\n\nText.');
    return dir;
  }

  it('names the file and what is wrong', () => {
    write('demo', course);
    expect(loadCatalogue(root).map((c) => c.slug)).toEqual(['demo']);
    write('demo', { ...course, quiz: [{ ...course.quiz[0], answer: 2 }] });
    expect(() => loadCatalogue(root)).toThrow(
      /demo[\\/]course\.json: \/quiz\/0\/answer points past the last choice/,
    );
    write('demo', { ...course, pass_mark: 0 });
    expect(() => loadCatalogue(root)).toThrow(CatalogueError);
    write('demo', '{ not json');
    expect(() => loadCatalogue(root)).toThrow(/course\.json: .*JSON/);
    write('demo', course, false);
    expect(() => loadCatalogue(root)).toThrow(/lesson file 01-one\.md is missing/);
    write('demo', { ...course, slug: 'other' });
    expect(() => loadCatalogue(root)).toThrow(/slug "other" differs from its folder/);
    write('demo', { ...course, lessons: [{ title: 'x', file: '../../etc/passwd' }] });
    expect(() => loadCatalogue(root)).toThrow(/\/lessons\/0\/file/);
    rmSync(join(root, 'demo'), { recursive: true });
  });
});

describe('lesson Markdown', () => {
  it('renders text and structure, but never raw HTML or script links', () => {
    const html = renderMarkdown(
      '## Check the sender\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n' +
        '[click](javascript:alert(1)) and [help](https://help.example/)\n\n- one\n- two',
    );
    expect(html).toContain('<h2>Check the sender</h2>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toMatch(/href="javascript:/);
    expect(html).toContain(
      '<a href="https://help.example/" target="_blank" rel="noopener noreferrer nofollow">help</a>',
    );
    expect(html).toContain('<li>two</li>');
  });
});

describe('scoring a quiz', () => {
  const course = {
    pass_mark: 80,
    quiz: Array.from({ length: 8 }, (_, i) => ({
      question: `Q${i}`,
      choices: ['a', 'b'],
      answer: i % 2,
      explanation: '',
    })),
  };
  const right = course.quiz.map((q) => q.answer);

  it('passes at the pass mark and fails below it, rounding the score down', () => {
    expect(scoreQuiz(course, right)).toEqual({ correct: 8, total: 8, score: 100, passed: true });
    expect(scoreQuiz(course, [...right.slice(0, 7), 1 - right[7]!])).toEqual({
      correct: 7,
      total: 8,
      score: 87,
      passed: true,
    });
    expect(scoreQuiz(course, right.slice(0, 6))).toEqual({ correct: 6, total: 8, score: 75, passed: false });
    expect(scoreQuiz({ ...course, pass_mark: 88 }, [...right.slice(0, 7), null]).passed).toBe(false);
  });
});
