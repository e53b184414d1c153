/**
 * Child process of `doctor` (see qnnProgramRows): loads one QNN-delegated ExecuTorch program on
 * provider htp, as the node does, and prints the resulting row.
 */
import { EngineSession } from '../../engine/engineSession';
import { type DoctorRow, fail, ok } from './doctorRow';
import { printQnnProgramRow, QNN_PROGRAM_FIX, qnnProgramCheckName } from './qnnProgramChecks';

export async function probeQnnProgram(model: string, file: string): Promise<DoctorRow> {
  const check = qnnProgramCheckName(model);
  const where = process.arch === 'x64' ? ' (the x86-64 HTP simulator, not a device)' : '';
  try {
    const session = await EngineSession.load({ model: file, provider: 'htp', threads: 1 });
    try {
      const counts = Object.entries(session.providerReport.nodesByProvider)
        .map(([p, n]) => `${p} ${n}`)
        .join(', ');
      return session.providerReport.fullyAccelerated
        ? ok('stack', check, `loads${where}: ${counts}`)
        : {
            // It runs; require_accelerator would refuse it.
            section: 'stack',
            check,
            status: 'warn',
            detail: `loads${where}, but not all on the HTP: ${counts}`,
            fix: 'lower the program again with every operator delegated to QNN',
          };
    } finally {
      session.dispose();
    }
  } catch (e) {
    return fail('stack', check, e instanceof Error ? e.message : String(e), QNN_PROGRAM_FIX);
  }
}

if (require.main === module) {
  const [model, file] = process.argv.slice(2);
  void probeQnnProgram(model ?? '', file ?? '').then((row) => {
    printQnnProgramRow(row);
    process.exit(0);
  });
}
