/** Building and rendering risk denials as `CODE: key=value key=value`, and the error a caller may throw for one. */
import { BhError } from '../core/errors.ts';
import type { Adjustment, CheckResult, Denial, RiskCode } from './types.ts';

/** Returns a failed check result carrying the denial `code` with its numbers. */
export function deny<T>(code: RiskCode, values: Record<string, string>): CheckResult<T> {
  return { ok: false, denial: { code, values } };
}

/** Returns a passing check result, with the adjustment made when a value was rounded. */
export function pass<T>(intent: T, adjusted?: Adjustment): CheckResult<T> {
  return adjusted === undefined ? { ok: true, intent } : { ok: true, intent, adjusted };
}

// Values with spaces, quotes or '=' would make the line ambiguous, so they are quoted as JSON strings.
function renderValue(v: string): string {
  return v === '' || /[\s"=]/.test(v) ? JSON.stringify(v) : v;
}

/** Returns `CODE: key=value key=value` in the order the values were given (e.g. `LOT_SIZE: qty=0.0001 minQty=0.001`). */
export function renderDenial(d: Denial | Adjustment): string {
  const parts = Object.entries(d.values).map(([k, v]) => `${k}=${renderValue(v)}`);
  return parts.length === 0 ? d.code : `${d.code}: ${parts.join(' ')}`;
}

/** A risk denial as an error (retry class `denied`: nothing was sent), for callers that throw. */
export class RiskDeniedError extends BhError {
  readonly denial: Denial;

  constructor(denial: Denial) {
    super('RISK_DENIED', renderDenial(denial), 'denied', { context: { riskCode: denial.code, ...denial.values } });
    this.denial = denial;
  }
}
