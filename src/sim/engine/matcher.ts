/** The matcher of an external market (a replayed recording): what the engine hands it of an order it accepted. */

/** An accepted order as the matcher reads it (the engine's SimOrder). */
export interface ExternalOrder {
  readonly orderId: string;
  /** BUY or SELL. */
  readonly side: string;
  /** LIMIT, MARKET or LIMIT_MAKER. */
  readonly type: string;
  readonly timeInForce: string;
  readonly priceTicks: number;
  /** Lots ordered (0 for a MARKET BUY by quote amount). */
  readonly origLots: number;
  /** A MARKET BUY's quote amount in qunits; Infinity for other orders. */
  readonly quoteBudget: number;
}

/**
 * Matches the venue's orders on an external market. The engine has validated an order, locked its
 * funds and announced it (NEW) before `submit`; the matcher answers later through ExternalMarket's
 * `fill` and `end`. `cancel` tells it the engine has cancelled an order (its funds are already back).
 */
export interface ExternalMatcher {
  submit(order: ExternalOrder): void;
  cancel(order: ExternalOrder): void;
}
