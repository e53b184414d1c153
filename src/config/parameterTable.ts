/**
 * What every node derives from its table of parameter specs: the zod object that checks the
 * declared values, the defaults and the descriptions for --help. One table per node, so the ROS
 * descriptors, the config schema and the help text cannot disagree.
 */
import { z } from 'zod';
import type { ParameterSpec } from '../core/parameterSpec';

type Table = Readonly<Record<string, ParameterSpec>>;

export type TableShape<T extends Table> = { [K in keyof T]: T[K]['schema'] };

export type TableDefaults<T extends Table> = { [K in keyof T]: T[K]['default'] };

/** The zod object of a table: one key per parameter, each with its own check. */
export function tableSchema<T extends Table>(table: T): z.ZodObject<TableShape<T>> {
  const shape = Object.fromEntries(Object.entries(table).map(([k, v]) => [k, v.schema]));
  return z.object(shape as TableShape<T>);
}

export function tableDefaults<T extends Table>(table: T): TableDefaults<T> {
  return Object.fromEntries(
    Object.entries(table).map(([k, v]) => [k, v.default]),
  ) as TableDefaults<T>;
}

export function tableDescriptions(table: Table): Record<string, string> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, v.description]));
}
