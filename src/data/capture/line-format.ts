/** The lines of a capture file: `<ns> <frame>` for a frame as received, `<ns> !<marker> <json>` for what the recorder notes itself. */

/**
 * What the recorder writes beside the venue's frames:
 * - `session`: first line of every file: format version, stream, venue, symbols and topics;
 * - `instruments`: second line of a market file: the venue's brokerInfo answer as received;
 * - `reconnect`: the market socket was lost and is open again (frames in between were never received);
 * - `gap`: a diffDepth version did not follow the one before (a diff was lost or came out of order);
 * - `snapshot`: a REST depth snapshot fetched after a gap or reconnect, with the request's time and the answer as received.
 */
export const MARKERS = ['session', 'instruments', 'reconnect', 'gap', 'snapshot'] as const;
export type MarkerKind = (typeof MARKERS)[number];

/** The format version written in every session line. */
export const CAPTURE_FORMAT = 1;

/** One line read back. `frame` is the venue's text for a frame, the JSON payload for a marker. */
export interface CaptureRecord {
  /** Local receive time, epoch nanoseconds. */
  readonly ns: bigint;
  readonly frame: string;
  /** Set on the recorder's own lines; undefined on a venue frame. */
  readonly marker?: MarkerKind;
}

const NS_RE = /^\d{1,20}$/;

/** Returns one line (with its newline) for a frame; line breaks inside it are written as spaces, which JSON reads the same. */
export function frameLine(ns: bigint, frame: string): string {
  return `${ns} ${oneLine(frame)}\n`;
}

/** Returns one marker line (with its newline). */
export function markerLine(ns: bigint, kind: MarkerKind, payload: string): string {
  return `${ns} !${kind} ${oneLine(payload)}\n`;
}

/** Returns the record of one line (without its newline), or a message saying why it is not one. */
export function parseLine(line: string): CaptureRecord | string {
  const sp = line.indexOf(' ');
  if (sp < 0) return 'no space after the time';
  const nsText = line.slice(0, sp);
  if (!NS_RE.test(nsText)) return `the time ${JSON.stringify(nsText.slice(0, 24))} is not integer nanoseconds`;
  const ns = BigInt(nsText);
  if (line.charCodeAt(sp + 1) !== 33 /* ! */) return { ns, frame: line.slice(sp + 1) };
  const sp2 = line.indexOf(' ', sp + 2);
  const kind = line.slice(sp + 2, sp2 < 0 ? line.length : sp2);
  if (!(MARKERS as readonly string[]).includes(kind)) return `unknown marker !${kind.slice(0, 24)}`;
  return { ns, frame: sp2 < 0 ? '' : line.slice(sp2 + 1), marker: kind as MarkerKind };
}

/** Returns `raw` when it is valid JSON (kept verbatim, so big integers stay exact), else `raw` as a JSON string. */
export function jsonOrString(raw: string): string {
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return JSON.stringify(raw);
  }
}

function oneLine(text: string): string {
  return text.indexOf('\n') < 0 && text.indexOf('\r') < 0 ? text : text.replace(/[\r\n]/g, ' ');
}
