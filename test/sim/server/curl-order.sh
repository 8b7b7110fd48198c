#!/usr/bin/env bash
# Places, queries and cancels a spot order on the venue at $1 with nothing but curl and openssl,
# signed with the venue's published example key pair (the demo account of config/venue.yaml).
set -euo pipefail
BASE="$1"
KEY='tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW'
SECRET='lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76'

sign() { printf '%s' "$1" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //'; }
now() { curl -fsS "$BASE/openapi/v1/time" | sed 's/.*"serverTime":\([0-9]*\).*/\1/'; }

TS=$(now)
PARAMS="symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.01&newClientOrderId=curl-1&timestamp=$TS"
PLACED=$(curl -sS -X POST -H "X-BH-APIKEY: $KEY" "$BASE/openapi/v1/order" --data "$PARAMS&signature=$(sign "$PARAMS")")
echo "placed $PLACED"
ORDER_ID=$(printf '%s' "$PLACED" | sed -n 's/.*"orderId":"\([0-9]*\)".*/\1/p')
[ -n "$ORDER_ID" ] || { echo "no orderId in answer" >&2; exit 1; }

Q="orderId=$ORDER_ID&timestamp=$(now)"
QUERIED=$(curl -sS -H "X-BH-APIKEY: $KEY" "$BASE/openapi/v1/order?$Q&signature=$(sign "$Q")")
echo "queried $QUERIED"

C="clientOrderId=curl-1&timestamp=$(now)"
CANCELED=$(curl -sS -X DELETE -H "X-BH-APIKEY: $KEY" "$BASE/openapi/v1/order?$C&signature=$(sign "$C")")
echo "canceled $CANCELED"
