/**
 * The arm64 lane (scripts/arm64.sh): an aarch64 Node under qemu-user on an x86-64 machine without
 * a Hexagon DSP. Its tests (test/arm64/*.arm64.ts, outside the `*.test.js` glob of `npm test`)
 * mean something only there, so they fail at once anywhere else instead of passing vacuously.
 */
export interface Arm64Lane {
  /**
   * What the x86-64 addon's preprocessing produced for test/arm64/preprocessOutputs.ts, written
   * by scripts/arm64.sh on the host just before the emulated run (JSON, PreprocessOutputs).
   */
  readonly x64Preprocess: string;
}

export function arm64Lane(): Arm64Lane {
  const x64Preprocess = process.env.HTP_TEST_X64_PREPROCESS;
  if (process.env.HTP_TEST_ARM64_LANE !== '1' || process.arch !== 'arm64' || !x64Preprocess) {
    throw new Error(
      `test/arm64 runs only in the arm64 lane (npm run test:arm64), not on ${process.arch} ` +
        `with HTP_TEST_ARM64_LANE=${process.env.HTP_TEST_ARM64_LANE ?? 'unset'}`,
    );
  }
  return { x64Preprocess };
}
