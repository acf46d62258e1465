#!/usr/bin/env bash
# Streaming ceiling of `surge run`: streamed req/s and token events/s
# against bench/zeroserver (64-token responses) pinned to core 0, with the
# client pinned to core 1, closed loop at each concurrency, for the two
# server variants (once: the whole response in one write; each: a flush per
# event). Every surge run is paired with a run of bench/minclient (a client
# that only reads and counts events) at the same point, and the ratio is
# taken within the pair. Prints one line per run, then the medians.
#
#   bash bench/ceiling.sh
#   COUNT=5 SECS=5 CONCS="64" VARIANTS=once bash bench/ceiling.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
secs=${SECS:-4}
concs=${CONCS:-"1 64 512 4096"}
variants=${VARIANTS:-"once each"}
port=${PORT:-18000}
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/surge" ./cmd/surge
go build -o "$tmp/zeroserver" ./bench/zeroserver
go build -o "$tmp/minclient" ./bench/minclient
target=http://127.0.0.1:$port
raw=$tmp/raw.txt

# surge_point CONC REQUESTS: req/s and token events/s of one surge run.
surge_point() {
  cat >"$tmp/spec.yaml" <<SPEC
version: 1
requests: $2
clients:
  - name: c
    model: m
    concurrency: $1
    input: 20
    output: 64
SPEC
  taskset -c 1 "$tmp/surge" run "$tmp/spec.yaml" --target "$target" --api completions \
    --no-scrape -o "$tmp/run" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  jq -r '.all.throughput | "\(.requests_per_s) \(.output_tokens_per_s)"' "$tmp/run/report.json"
  rm -rf "$tmp/run"
}

for variant in $variants; do
  taskset -c 0 "$tmp/zeroserver" -addr "127.0.0.1:$port" -flush "$variant" & srv=$!
  sleep 0.5
  for conc in $concs; do
    for rep in $(seq "$count"); do
      ref=$(taskset -c 1 "$tmp/minclient" -target "$target" -c "$conc" -d "${secs}s" |
        sed 's/.*req\/s=\([0-9]*\).*/\1/')
      # Size the surge run to about SECS seconds at the reference rate.
      n=$(( ref * secs )); (( n < 2000 )) && n=2000
      read -r sreq sev < <(surge_point "$conc" "$n")
      printf '%s %s %s %s %.0f %.0f %.3f\n' "$variant" "$conc" "$rep" "$ref" "$sreq" "$sev" \
        "$(echo "$sreq / $ref" | bc -l)" | tee -a "$raw"
    done
  done
  kill $srv; wait $srv 2>/dev/null || true; srv=
done

echo "variant conc  minclient_req/s  surge_req/s  surge_token_events/s  ratio   (medians of $count)"
sort -k1,1 -k2,2n "$raw" | awk '
  function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } return a[int((n+1)/2)] }
  function flush() { if (n) printf "%-7s %5d  %15.0f  %11.0f  %20.0f  %.2f\n", v, c, med(r, n), med(s, n), med(e, n), med(q, n) }
  $1 != v || $2 != c { flush(); v = $1; c = $2; n = 0 }
  { n++; r[n] = $4; s[n] = $5; e[n] = $6; q[n] = $7 }
  END { flush() }'
