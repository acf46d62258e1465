#!/usr/bin/env bash
# Generation speed on one core: sessions/s without text, prompts/s with
# 1k- and 16k-token text, and the raw prompt synthesiser. Prints the median
# (and range) of COUNT runs (default 5) of each rate a benchmark reports.
#
#   bash bench/gen.sh
#   COUNT=10 bash bench/gen.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
raw=$(mktemp)
go test -run '^$' -bench 'Generate|Prompt' -cpu 1 -count "$count" -benchtime 2s \
  ./workload ./content >"$raw"
echo "raw output: $raw"
# One "name unit value" line per reported rate, sorted, then the median of
# each (name, unit) group.
grep '^Benchmark' "$raw" |
  awk '{ for (i = 3; i < NF; i++) if ($(i+1) ~ /\/s$/) print $1, $(i+1), $i }' |
  sort -k1,1 -k2,2 -k3,3g |
  awk '
    function flush() { if (n) printf "%-28s %-12s median %-12.4g min %-12.4g max %-12.4g n=%d\n", key1, key2, v[int((n+1)/2)], v[1], v[n], n }
    $1 != key1 || $2 != key2 { flush(); key1 = $1; key2 = $2; n = 0 }
    { v[++n] = $3 }
    END { flush() }'
