/** Capture: `bhtrade record`'s recorder, its gzip line files and their reader, and a run's recording of its market and orders. */
export { CaptureReader, captureFiles, type CaptureIssue, type CaptureReaderOptions } from './reader.ts';
export { CaptureWriter, type CaptureWriterOptions, type CaptureWriterStats } from './writer.ts';
export { CAPTURE_FORMAT, MARKERS, parseLine, type CaptureRecord, type MarkerKind } from './line-format.ts';
export { MarketRecorder, type MarketRecorderOptions, type MarketRecorderStats } from './recorder.ts';
export { OrdersJournal } from './orders-journal.ts';
export { recordShape, recordTopic, runRecordSchema, type RecordSettings, type RunRecordConfig } from './options.ts';
export { startRunRecording, type RunRecording, type RunRecordingContext } from './run-recording.ts';
export { epochNanos } from './nanos.ts';
