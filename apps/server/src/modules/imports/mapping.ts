import { badRequest } from '../../http/errors.ts';
import type { ImportJob } from './jobs.ts';

const normalName = (name: string) => name.trim().toLowerCase().replace(/[\s\-_.()（）]/g, '');

/**
 * Our attributes matched to a file's fields by name (each field used once), for the mapping step
 * to start from. `names` lists, per attribute, the names files use for it.
 */
export function suggestMapping<T extends string>(fieldNames: string[], names: Record<T, string[]>): Partial<Record<T, string>> {
  const mapping: Partial<Record<T, string>> = {};
  for (const target of Object.keys(names) as T[]) {
    const known = names[target].map(normalName);
    const match = fieldNames.find((field) => known.includes(normalName(field)) && !Object.values(mapping).includes(field));
    if (match) mapping[target] = match;
  }
  return mapping;
}

/** Every field the mapping names must be one of the file's. */
export function assertMappingFields(job: ImportJob, mapping: Record<string, string | undefined>) {
  const names = new Set(job.fields.map((f) => f.name));
  for (const [target, name] of Object.entries(mapping)) {
    if (name && !names.has(name)) throw badRequest('import.mappingField', { target, name });
  }
}
