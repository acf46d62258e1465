#!/usr/bin/env bash
# Schedule accuracy of `surge run`: open loop with constant arrivals at each
# rate for SECS seconds (64-token streams) against bench/zeroserver pinned
# to core 0 (one write per response; FLUSH=each for a flush per event),
# surge pinned to core 1, COUNT runs each. Prints the schedule
# lag (sent − intended) p50 / p99 / max and the TTFT p50 of every run, in
# µs, then the medians over the runs.
#
#   bash bench/lag.sh
#   RATES="1000" COUNT=5 SECS=20 bash bench/lag.sh
#   SPIN=1.5ms RATES="1000" bash bench/lag.sh     # with surge run --spin
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
secs=${SECS:-10}
rates=${RATES:-"100 1000 5000"}
port=${PORT:-18000}
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/surge" ./cmd/surge
go build -o "$tmp/zeroserver" ./bench/zeroserver
taskset -c 0 "$tmp/zeroserver" -addr "127.0.0.1:$port" -flush "${FLUSH:-once}" & srv=$!
sleep 0.5
raw=$tmp/raw.txt
for rate in $rates; do
  for rep in $(seq "$count"); do
    cat >"$tmp/spec.yaml" <<SPEC
version: 1
duration: ${secs}s
clients:
  - name: c
    model: m
    rate: ${rate}/s
    arrival: {process: constant}
    input: 100
    output: 64
SPEC
    taskset -c 1 "$tmp/surge" run "$tmp/spec.yaml" --target "http://127.0.0.1:$port" --api completions \
      --no-scrape --spin "${SPIN:-0s}" -o "$tmp/run" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    jq -r --arg rate "$rate" --arg rep "$rep" '.all | [$rate, $rep,
        (.latency.lag.percentiles[] | select(.p == 50 or .p == 99) | .value), .latency.lag.max,
        (.latency.ttft.percentiles[] | select(.p == 50) | .value), .throughput.send_rate_per_s, .errors.failed | tostring] | join(" ")' \
      "$tmp/run/report.json" | tee -a "$raw"
    rm -rf "$tmp/run"
  done
done
echo "rate  lag_p50_us  lag_p99_us  lag_max_us  ttft_p50_us  sent/s   (medians of $count)"
sort -k1,1n "$raw" | awk '
  function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } return a[int((n+1)/2)] }
  function flush() { if (n) printf "%-5s %10.0f  %10.0f  %10.0f  %11.0f  %7.0f\n", r, med(a, n), med(b, n), med(c, n), med(d, n), med(e, n) }
  $1 != r { flush(); r = $1; n = 0 }
  { n++; a[n] = $3; b[n] = $4; c[n] = $5; d[n] = $6; e[n] = $7 }
  END { flush() }'
