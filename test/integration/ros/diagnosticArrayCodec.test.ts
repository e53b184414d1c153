import { strict as assert } from 'node:assert';
import {
  type DiagnosticStatusFields,
  encodeDiagnosticArray,
} from '../../../src/ros/codecs/diagnosticArrayCodec';
import type { RosHeader } from '../../../src/ros/rosHeader';
import { repoPath } from '../../support/paths';
import { runPythonJson } from '../../support/python';

const SERDE = repoPath('test', 'fixtures', 'ros', 'diagnostics_serde.py');

interface Readback {
  fields: {
    header: { stamp: { sec: number; nanosec: number }; frame_id: string };
    status: {
      level: number;
      name: string;
      message: string;
      hardware_id: string;
      values: [string, string][];
    }[];
  };
  reserialized: string;
}

const header: RosHeader = { stamp: { sec: 1_763_900_002, nanosec: 999_999_999 }, frameId: '' };
const node: DiagnosticStatusFields = {
  level: 1,
  name: 'htp_perception: /robot/detector',
  message: 'processing: 29.8 fps; 2 dropped (input faster than inference)',
  hardwareId: '/robot/detector',
  values: [
    ['frames_in', '300'],
    ['provider', 'CPUExecutionProvider'],
    ['empty', ''],
    ['unicode', 'température 40 °C'],
  ],
};

// rclpy is the reference: the bytes every node publishes on /diagnostics read back as built, and
// are the bytes rclpy writes for the same message (alignment after the level byte included).
describe('encodeDiagnosticArray (our CDR) against rclpy', function () {
  it("reads back as built, with rclpy's bytes, for one, several and no statuses", function () {
    const cases: [RosHeader, DiagnosticStatusFields[]][] = [
      [header, [node]],
      [
        { ...header, frameId: 'cam' },
        [
          { ...node, level: 2, values: [] },
          { ...node, level: 0, name: 'n', message: '' },
        ],
      ],
      [header, []],
    ];
    const bytes = cases.map(([h, s]) => encodeDiagnosticArray(h, s));
    const back = runPythonJson<Readback[]>(
      SERDE,
      bytes.map((b) => b.toString('base64')),
    );
    cases.forEach(([h, status], i) => {
      const f = back[i]!.fields;
      assert.deepEqual(f.header, { stamp: h.stamp, frame_id: h.frameId });
      assert.deepEqual(
        f.status,
        status.map((s) => ({
          level: s.level,
          name: s.name,
          message: s.message,
          hardware_id: s.hardwareId,
          values: s.values.map(([k, v]) => [k, v]),
        })),
      );
      // rclpy leaves alignment padding uninitialized; ours is zero: every other byte is equal.
      const theirs = Buffer.from(back[i]!.reserialized, 'base64');
      assert.equal(bytes[i]!.length, theirs.length, `case ${i}: length`);
      const differing = [...bytes[i]!.entries()].filter(([j, v]) => v !== theirs[j] && v !== 0);
      assert.deepEqual(differing, [], `case ${i}: bytes other than padding`);
    });
  });
});
