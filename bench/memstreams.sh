#!/usr/bin/env bash
# Resident memory per stream in flight: bench/memstreams (the real client
# and driver) holds C streams of 500 tokens at 10 tokens/s open against
# bench/zeroserver -itl 100ms (server on core 0, client on core 1), and
# reads its resident set 20 s in, against a reading before the first
# request. COUNT runs for each C; the last run's heap profile is kept in
# PROF_DIR (default /tmp)/surge-mem-C.pprof: go tool pprof -top FILE.
#
#   bash bench/memstreams.sh
#   CS="10000" COUNT=1 bash bench/memstreams.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
cs=${CS:-"1000 10000"}
port=${PORT:-18000}
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/zeroserver" ./bench/zeroserver
go build -o "$tmp/memstreams" ./bench/memstreams
taskset -c 0 "$tmp/zeroserver" -addr "127.0.0.1:$port" -itl 100ms & srv=$!
sleep 0.5
for c in $cs; do
  for rep in $(seq "$count"); do
    taskset -c 1 "$tmp/memstreams" -target "http://127.0.0.1:$port" -c "$c" -tokens 500 -at 20s \
      -prof "${PROF_DIR:-/tmp}/surge-mem-$c.pprof"
    sleep 2 # let the server's connections close
  done
done
