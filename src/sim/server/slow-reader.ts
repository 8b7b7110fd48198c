/** Backpressure on the venue's WebSockets: how much a socket may hold unsent, and closing a reader that fell behind that. */
import { WebSocket } from 'ws';
import type { Clock } from '../../core/clock.ts';

/** Send-buffer limits of one WebSocket, in bytes (ws.bufferedAmount: written by the venue, not yet taken by the kernel). */
export interface SendLimits {
  /** Above this a market connection gets no more depth, mergedDepth or bookTicker pushes; the latest book goes out once it has drained. */
  readonly conflateAboveBytes: number;
  /** Above this the connection is closed with SLOW_READER_CLOSE: frames that cannot be conflated (trades, diffs, user events) would grow without bound. */
  readonly closeAboveBytes: number;
}

/** Close code sent to a reader that fell behind (1008 policy violation), and its reason. */
export const SLOW_READER_CLOSE = 1008;
export const SLOW_READER_REASON = 'slow reader: send buffer over the limit';
/** How long a closed slow reader has to take the close frame before its socket is dropped. */
const CLOSE_GRACE_MS = 1000;

/** Returns true when the socket holds more unsent bytes than conflation allows. */
export function isSlow(ws: WebSocket, limits: SendLimits): boolean {
  return ws.bufferedAmount > limits.conflateAboveBytes;
}

/**
 * Sends `frame` unless the socket is over its close limit, in which case it is closed with
 * SLOW_READER_CLOSE and dropped after a grace (a stalled reader never takes the close frame, and its
 * buffer must be freed). Returns false when nothing was sent.
 */
export function sendBounded(ws: WebSocket, frame: string | Buffer, limits: SendLimits, clock: Clock, onShed?: () => void): boolean {
  if (ws.readyState !== WebSocket.OPEN) return false;
  if (ws.bufferedAmount > limits.closeAboveBytes) {
    ws.close(SLOW_READER_CLOSE, SLOW_READER_REASON);
    clock.setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    onShed?.();
    return false;
  }
  // A Buffer goes out as a text frame without a copy, so one frame shared by many sockets is held once.
  ws.send(frame, { binary: false });
  return true;
}
