/** The learner page's addresses, all under the personal link `/learn/<token>`. */
export function learnerPaths(token: string) {
  const root = `/learn/${encodeURIComponent(token)}`;
  const course = (key: string) => `${root}/courses/${encodeURIComponent(key)}`;
  return {
    overview: root,
    lesson: (key: string, lessonNumber: number) => `${course(key)}/lessons/${lessonNumber}`,
    quiz: (key: string) => `${course(key)}/quiz`,
    result: (key: string) => `${course(key)}/result`,
    done: `${root}/done`,
    newLink: `${root}/new-link`,
  };
}

export type LearnerPaths = ReturnType<typeof learnerPaths>;
