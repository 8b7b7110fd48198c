/** Caps on open TCP connections, per client address and in total, so idle sockets cannot use up the venue's file descriptors. */
import type { Socket } from 'node:net';

export interface ConnectionCaps {
  readonly maxPerAddress: number;
  readonly maxTotal: number;
}

const REFUSAL_BODY = '{"code":-1003,"msg":"Too many connections."}';
const REFUSAL = `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json;charset=UTF-8\r\nerror_code: -1003\r\nContent-Length: ${REFUSAL_BODY.length}\r\nConnection: close\r\n\r\n${REFUSAL_BODY}`;

/** Counts open sockets by remote address; a socket past a cap gets a 503 and is closed. */
export class ConnectionGate {
  private readonly byAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly caps: ConnectionCaps) {}

  /** Returns how many sockets are open (from `address`, or in all). */
  open(address?: string): number {
    return address === undefined ? this.total : this.byAddress.get(address) ?? 0;
  }

  /** Admits a new socket or refuses it; an admitted one is counted until it closes. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.caps.maxPerAddress || this.total >= this.caps.maxTotal) {
      socket.on('error', () => socket.destroy());
      // Whatever the client sends is not parsed: the answer is written and the socket closed.
      socket.pause();
      socket.end(REFUSAL);
      socket.setTimeout(1000, () => socket.destroy());
      return;
    }
    this.byAddress.set(address, mine + 1);
    this.total += 1;
    socket.once('close', () => {
      this.total -= 1;
      const n = (this.byAddress.get(address) ?? 1) - 1;
      if (n <= 0) this.byAddress.delete(address);
      else this.byAddress.set(address, n);
    });
  }
}
