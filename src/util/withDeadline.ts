/**
 * `work`, or a rejection with `late()` once `ms` have passed without it settling. The work itself
 * is not cancelled (a native run cannot be): its later result or failure is dropped, and handled,
 * so a run that outlives its deadline never becomes an unhandled rejection.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
