#!/usr/bin/env bash
# Schedule on one scheduler thread: `surge run` pinned to core 1 with
# GOMAXPROCS=1 (as in a container of one CPU), Poisson arrivals at each
# rate for SECS seconds (16-token prompts, 4-token streams), against
# bench/zeroserver pinned to core 0; COUNT runs each. Prints, per run, the
# send rate against the scheduled one and the schedule lag p50 / p99 / max
# (ms), then the medians. With BEFORE set to another surge binary (say, one
# built from an earlier commit), its runs alternate with this tree's, in
# pairs, so both see the same machine. PRIO is a command to run client and
# server under, to hold their cores on a machine others load: PRIO="chrt -f
# 10" (real-time FIFO, as root) for figures close to a quiet machine's.
#
#   bash bench/onethread.sh
#   RATES="1000 5000" COUNT=5 bash bench/onethread.sh
#   BEFORE=/tmp/surge-old PROCS=2 bash bench/onethread.sh
#   PRIO="chrt -f 10" BEFORE=/tmp/surge-old COUNT=5 bash bench/onethread.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
secs=${SECS:-3}
rates=${RATES:-"1000 3000 5000"}
procs=${PROCS:-1}
port=${PORT:-18000}
prio=${PRIO:-}
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/surge" ./cmd/surge
go build -o "$tmp/zeroserver" ./bench/zeroserver
bins="after=$tmp/surge"
[ -n "${BEFORE:-}" ] && bins="before=$BEFORE $bins"
$prio taskset -c 0 "$tmp/zeroserver" -addr "127.0.0.1:$port" & srv=$!
sleep 0.5
raw=$tmp/raw.txt
for rate in $rates; do
  cat >"$tmp/spec.yaml" <<SPEC
version: 1
duration: ${secs}s
clients:
  - name: c
    model: m
    rate: ${rate}/s
    arrival: {process: poisson}
    input: 16
    output: 4
SPEC
  for rep in $(seq "$count"); do
    for b in $bins; do
      name=${b%%=*} bin=${b#*=}
      $prio taskset -c 1 env GOMAXPROCS="$procs" "$bin" run "$tmp/spec.yaml" --target "http://127.0.0.1:$port" --api completions \
        --no-scrape -o "$tmp/run" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
      jq -r --arg name "$name" --arg rate "$rate" --arg rep "$rep" '.all | [$name, $rate, $rep,
          .throughput.send_rate_per_s, .throughput.scheduled_rate_per_s,
          (.latency.lag.percentiles[] | select(.p == 50 or .p == 99) | .value / 1000), .latency.lag.max / 1000 | tostring] | join(" ")' \
        "$tmp/run/report.json" | tee -a "$raw"
      rm -rf "$tmp/run"
    done
  done
done
echo "binary rate  sent/sched  lag_p50_ms  lag_p99_ms  lag_max_ms   (medians of $count, GOMAXPROCS=$procs)"
sort -k1,1 -k2,2n "$raw" | awk '
  function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } return a[int((n+1)/2)] }
  function flush() { if (n) printf "%-6s %-5s %10.3f  %10.2f  %10.2f  %10.2f\n", b0, r, med(s, n), med(a, n), med(p, n), med(m, n) }
  $1 != b0 || $2 != r { flush(); b0 = $1; r = $2; n = 0 }
  { n++; s[n] = $4 / $5; a[n] = $6; p[n] = $7; m[n] = $8 }
  END { flush() }'
