/** The instrument mapping of a conversion (YAML): which source files and symbols become which catalog instrument, with its tick, lot and assets. */
import { basename } from 'node:path';
import { z } from 'zod';
import { configErrorFromZod, readYamlFile } from '../core/config.ts';
import { instrumentSchema, type Instrument } from './instruments.ts';

const entrySchema = instrumentSchema.extend({
  /** Glob (`*`, `?`) on the input file's name; the entry applies to every file when absent. */
  files: z.string().min(1).optional(),
  /** The symbol as the source names it (e.g. BTCUSD_PERP); the entry applies to any when absent. */
  source: z.string().min(1).optional(),
});

export const mappingSchema = z.strictObject({ instruments: z.array(entrySchema).default([]) });
export type MappingEntry = z.infer<typeof entrySchema>;

/** Source symbols and files mapped to catalog instruments; the first matching entry wins. */
export class InstrumentMapping {
  private readonly entries: { re: RegExp | undefined; e: MappingEntry }[];

  constructor(entries: readonly MappingEntry[]) {
    this.entries = entries.map((e) => ({ re: e.files === undefined ? undefined : globToRegExp(e.files), e }));
  }

  /** Returns the instrument that `sourceSymbol` of `file` maps to, or undefined when no entry matches. */
  find(file: string, sourceSymbol: string | undefined): Instrument | undefined {
    const name = basename(file);
    for (const { re, e } of this.entries) {
      if (re && !re.test(name)) continue;
      if (e.source !== undefined && sourceSymbol !== undefined && e.source.toUpperCase() !== sourceSymbol.toUpperCase()) continue;
      const { files: _f, source: _s, ...inst } = e;
      return inst;
    }
    return undefined;
  }
}

/** Returns the mapping of a YAML file; throws ConfigError naming the bad key. */
export function loadMapping(file: string): InstrumentMapping {
  const parsed = mappingSchema.safeParse(readYamlFile(file));
  if (!parsed.success) throw configErrorFromZod(parsed.error, '', undefined, { file });
  return new InstrumentMapping(parsed.data.instruments);
}

/** Returns the mapping of already-parsed YAML (for tests and embedded use); throws ConfigError naming the bad key. */
export function mappingFrom(raw: unknown): InstrumentMapping {
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) throw configErrorFromZod(parsed.error);
  return new InstrumentMapping(parsed.data.instruments);
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}
