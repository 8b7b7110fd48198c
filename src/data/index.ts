/** The data layer: the Parquet catalog, its converters and importers, and replay into bus events. */
export { readCatalog, CatalogWriter, type CatalogIndex, type CatalogFile } from './catalog.ts';
export { convert, type ConvertOptions, type ConvertResult } from './convert.ts';
export { formatInfo, formatLs, summarise, type TableSummary } from './info.ts';
export { instrumentSchema, StepFormatter, toSteps, type Instrument, type InstrumentKind } from './instruments.ts';
export { loadMapping, mappingFrom, InstrumentMapping } from './mapping.ts';
export { replay, type ReplayOptions, type ReplayStats } from './replay.ts';
export { ConvertReport, type GapRecord, type Problem } from './report.ts';
export { TABLES, COLUMNS, SIDE, type TableName } from './tables.ts';
