#!/usr/bin/env bash
# Runs every test of locator: vet, then the unit, conformance, property and
# CLI tests of all packages (conformance vectors and corpora are read from
# ../shared beside the repository; tests that need them skip with a reason
# when it is absent). No test server is needed yet: nothing here touches the
# network.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v go >/dev/null 2>&1; then
	export PATH="$PATH:/usr/local/go/bin"
fi
go version
go vet ./...
go test -count=1 ./...
