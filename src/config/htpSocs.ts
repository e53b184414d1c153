/**
 * The Qualcomm SoCs whose HTP we compile for, by the name users know them by. The QNN provider
 * wants the HTP architecture and its own SoC model number; a context binary compiled for one pair
 * does not load on another, so this table is the one place the pairs are written down.
 */
export interface HtpSoc {
  readonly name: string;
  /** QNN `htp_arch` (Hexagon architecture version). */
  readonly htpArch: number;
  /** QNN `soc_model` (the id the QNN SDK gives the chip). */
  readonly socModel: number;
  readonly description: string;
}

export const HTP_SOCS: readonly HtpSoc[] = [
  {
    name: 'qcs6490',
    htpArch: 68,
    socModel: 35,
    description: 'QCS6490 / QCM6490 (Hexagon v68): RB3 Gen 2, Radxa Dragon Q6A, Thundercomm boards',
  },
];

export const HTP_SOC_NAMES = HTP_SOCS.map((s) => s.name) as [string, ...string[]];

/** The table entry for `name` (case-insensitive), or undefined. */
export function findHtpSoc(name: string): HtpSoc | undefined {
  const n = name.toLowerCase();
  return HTP_SOCS.find((s) => s.name === n);
}

/** The SoC a (htp_arch, soc_model) pair names, or undefined for a pair outside the table. */
export function htpSocFor(htpArch: number, socModel: number): HtpSoc | undefined {
  return HTP_SOCS.find((s) => s.htpArch === htpArch && s.socModel === socModel);
}
