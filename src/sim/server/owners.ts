/** Who a user-stream payload is for: a user's account index (one listenKey covers its spot and contract accounts). */

/** Returns the stream owner of a user's account index, e.g. "10000001/0". */
export function ownerOf(userId: string, accountIndex: number): string {
  return `${userId}/${accountIndex}`;
}
