#!/usr/bin/env bash
# Measurement overhead and long contexts: bench/overhead (the real client
# and driver) against bench/zeroserver -stamp, server pinned to core 0 and
# client to core 1; the server writes each response at once (FLUSH=each:
# a flush per event, which caps it near 2,400 req/s on one core). "measure" is the client's first-token instant
# minus the server's own clock just before it wrote that token; lag is sent
# − intended; all in µs. Cases: low load (100 req/s), high load (5,000
# req/s), and 10 req/s with 1k- and 100k-token prompts, then the same
# measure by bench/minclient at the low load (the floor of any Go client
# on this machine). COUNT runs each;
# prints every run, then the medians over the runs.
#
#   bash bench/overhead.sh
#   COUNT=5 bash bench/overhead.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
port=${PORT:-18000}
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/zeroserver" ./bench/zeroserver
go build -o "$tmp/overhead" ./bench/overhead
go build -o "$tmp/minclient" ./bench/minclient
taskset -c 0 "$tmp/zeroserver" -addr "127.0.0.1:$port" -stamp -flush "${FLUSH:-once}" & srv=$!
sleep 0.5
raw=$tmp/raw.txt
cases=${CASES:-"low:-rate=100:-n=1000 high:-rate=5000:-n=25000 ctx1k:-rate=10:-n=150:-prompt=1000 ctx100k:-rate=10:-n=150:-prompt=100000"}
for c in $cases; do
  name=${c%%:*}
  args=$(echo "${c#*:}" | tr ':' ' ')
  for rep in $(seq "$count"); do
    # shellcheck disable=SC2086
    out=$(taskset -c 1 "$tmp/overhead" -target "http://127.0.0.1:$port" $args)
    echo "$out" >&2
    m=$(echo "$out" | awk '/measure_us/ {print $3, $5, $7}')
    l=$(echo "$out" | awk '/lag_us/ {print $3, $5, $7}')
    t=$(echo "$out" | awk '/ttft_us/ {print $3, $5}')
    echo "$name $rep $m $l $t" | tee -a "$raw"
    if [ "$name" = low ]; then
      # The reference, alternating with surge's low-load runs: bench/minclient
      # reading the same first token at the same rate, one request at a time.
      out=$(taskset -c 1 "$tmp/minclient" -target "http://127.0.0.1:$port" -stamp-rate 100 -n 1000)
      m=$(echo "$out" | awk '/measure_us/ {print $3, $5, $7}')
      echo "minclient $rep $m 0 0 0 0 0" >> "$raw.ref"
    fi
  done
done
cat "$raw.ref" | tee -a "$raw"
echo "case      measure_p50 measure_p99 measure_max  lag_p50 lag_p99 lag_max  ttft_p50 ttft_p99   (µs, medians of $count)"
awk '
  function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } return a[int((n+1)/2)] }
  function flush(   k) { if (!n) return; printf "%-9s", name; for (k = 3; k <= 10; k++) { for (i = 1; i <= n; i++) col[i] = v[i, k]; printf " %10.0f", med(col, n) } print "" }
  $1 != name { flush(); name = $1; n = 0 }
  { n++; for (k = 3; k <= 10; k++) v[n, k] = $k }
  END { flush() }' "$raw"
