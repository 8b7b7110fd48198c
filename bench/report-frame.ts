/** The FILLED executionReport (the published field set) the benches send and parse. */
export function fillReportFrame(clientOrderId: string, id: number, eventTime: number): string {
  return `{"e":"executionReport","E":"${eventTime}","s":"BTCUSDT","c":"${clientOrderId}","S":"BUY","o":"LIMIT","f":"GTC","q":"0.01","p":"11369","X":"FILLED","i":"${id}",`
    + `"l":"0.01","z":"0.01","L":"11369","n":"0.00001","N":"BTC","u":true,"w":false,"m":true,"O":"1700000000000","Z":"113.69","t":"${id}"}`;
}
