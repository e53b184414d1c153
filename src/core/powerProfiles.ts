/**
 * HTP performance profiles (docs: shared reference htp.md) as data. `qnnMode` is the QNN
 * provider's htp_performance_mode name that carries the vote; `idleQnnMode` is the level the vote
 * drops to when the hold timer expires (relaxed ~ SVS2/SVS, released ~ minimum corners).
 */
export type PowerProfileName =
  | 'burst'
  | 'sustained_high_performance'
  | 'high_performance'
  | 'balanced'
  | 'low_balanced'
  | 'high_power_saver'
  | 'power_saver'
  | 'low_power_saver'
  | 'extreme_power_saver';

export type Corner =
  'MAX' | 'TURBO' | 'NOM_PLUS' | 'NOM' | 'SVS_PLUS' | 'SVS' | 'SVS2' | 'DISABLE' | 'MIN';

export interface PowerProfile {
  readonly name: PowerProfileName;
  readonly sleepLatencyUs: number;
  readonly dcvs: boolean;
  readonly rpcPolling: boolean;
  readonly corner: Corner;
  /** Idle state between inferences once the hold expires. */
  readonly idle: 'relaxed' | 'released';
  readonly qnnMode: string;
  readonly idleQnnMode: string;
}

const RELAXED_MODE = 'low_power_saver';
const RELEASED_MODE = 'extreme_power_saver';

function p(
  name: PowerProfileName,
  sleepLatencyUs: number,
  rpcPolling: boolean,
  corner: Corner,
  idle: 'relaxed' | 'released',
): PowerProfile {
  return {
    name,
    sleepLatencyUs,
    dcvs: false,
    rpcPolling,
    corner,
    idle,
    qnnMode: name,
    idleQnnMode: idle === 'relaxed' ? RELAXED_MODE : RELEASED_MODE,
  };
}

export const POWER_PROFILES: Readonly<Record<PowerProfileName, PowerProfile>> = {
  burst: p('burst', 40, true, 'MAX', 'relaxed'),
  sustained_high_performance: p('sustained_high_performance', 100, true, 'TURBO', 'relaxed'),
  high_performance: p('high_performance', 100, true, 'TURBO', 'relaxed'),
  balanced: p('balanced', 1000, false, 'NOM_PLUS', 'released'),
  low_balanced: p('low_balanced', 1000, false, 'NOM', 'released'),
  high_power_saver: p('high_power_saver', 1000, false, 'SVS_PLUS', 'released'),
  power_saver: p('power_saver', 1000, false, 'SVS', 'released'),
  low_power_saver: p('low_power_saver', 1000, false, 'SVS2', 'released'),
  extreme_power_saver: p('extreme_power_saver', 1000, false, 'DISABLE', 'released'),
};

export const POWER_PROFILE_NAMES = Object.keys(POWER_PROFILES) as PowerProfileName[];
