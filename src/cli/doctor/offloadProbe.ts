/**
 * Child process of `doctor` (see offloadRow): runs the tiny QDQ graph through the QNN provider
 * with CPU fallback disabled and prints the resulting row.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineSession } from '../../engine/engineSession';
import { tinyQdqFrame, tinyQdqModelBytes } from '../../model/tinyQdqModel';
import { type DoctorRow, fail, ok } from './doctorRow';
import { offloadCheckName, printProbeRow } from './stackChecks';

function message(e: unknown): string {
  return e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
}

/**
 * Runs the tiny QDQ graph through the QNN provider once and reports where its nodes went. On an
 * x86-64 host QNN's HTP library is a simulator: the row then proves partitioning, never a device.
 */
export async function probeOffload(
  providerLibrary: string,
  simulated: boolean,
): Promise<DoctorRow> {
  const check = offloadCheckName(simulated);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-doctor-'));
  const model = path.join(dir, 'doctor_qdq_conv.onnx');
  const label = simulated ? 'x86-64 HTP simulator, not a device: ' : '';
  try {
    fs.writeFileSync(model, tinyQdqModelBytes());
    const session = await EngineSession.load({
      model,
      provider: 'htp',
      threads: 1,
      // Without fallback the boundary Q/DQ nodes go to the HTP as well, and any node QNN
      // refuses fails the load (ERR_ACCELERATOR_FALLBACK, naming the nodes) instead of
      // quietly running on the CPU.
      htp: { provider_library: providerLibrary, require_accelerator: true },
    });
    try {
      const r = await session.run(tinyQdqFrame());
      const rep = session.providerReport;
      const counts = Object.entries(rep.nodesByProvider)
        .map(([p, n]) => `${p} ${n}`)
        .join(', ');
      if (!rep.assignmentKnown) {
        return fail(
          'device',
          check,
          `${label}graph ran but placement is unknown (${rep.note})`,
          'use ONNX Runtime >= 1.24 (graph assignment record)',
        );
      }
      return rep.fullyAccelerated
        ? ok(
            'device',
            check,
            `${label}every node on QNN (${counts}), one run in ${r.timings.inferenceMs.toFixed(1)} ms`,
          )
        : fail(
            'device',
            check,
            `${label}nodes fell back to the CPU (${counts}): ${rep.cpuNodes.map((n) => n.opType).join(', ')}`,
            'check the device rows above (CDSP, FastRPC, stub/skel); with all OK, run with ORT verbose logs to see why QNN refused the nodes',
          );
    } finally {
      session.dispose();
    }
  } catch (e) {
    return fail(
      'device',
      check,
      `${label}${message(e)}`,
      'fix the rows above first (addon, QNN provider, device)',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [providerLibrary, mode] = process.argv.slice(2);
  void probeOffload(providerLibrary ?? '', mode === 'simulated').then((row) => {
    printProbeRow(row);
    process.exit(0);
  });
}
