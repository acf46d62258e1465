#!/usr/bin/env bash
# Pacing accuracy of `surge run`: open loop at RATE req/s (default 500) for
# SECONDS_RUN (default 20) against a zero-delay streaming server on loopback,
# 64-token streams. Prints the report; read "sent X/s of Y/s scheduled" and
# the lag row.
#
#   bash bench/drive.sh
#   RATE=2000 SECONDS_RUN=10 bash bench/drive.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${RATE:-500}
secs=${SECONDS_RUN:-20}
tmp=$(mktemp -d)
trap 'kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/surge" ./cmd/surge
go build -o "$tmp/zeroserver" ./bench/zeroserver
"$tmp/zeroserver" -addr 127.0.0.1:18000 & srv=$!
sleep 0.5
cat > "$tmp/spec.yaml" <<SPEC
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
"$tmp/surge" run "$tmp/spec.yaml" --target http://127.0.0.1:18000 -o "$tmp/run"
