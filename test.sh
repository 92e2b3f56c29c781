#!/usr/bin/env bash
# Runs every test of locator: it installs the real servers the protocol
# tests talk to (when run as root on Debian, as CI is), then go vet, every
# test of every package, and a short pass of every fuzz target.
#
# Conformance vectors, corpora and peers are read from ../shared beside the
# repository. A test whose server is absent skips with a one-line reason,
# so `go test ./...` alone passes too.
#
#   FUZZTIME=2s   time per fuzz target in the short pass (0 to skip it)
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v go >/dev/null 2>&1; then
	export PATH="$PATH:/usr/local/go/bin"
fi
go version

# The servers the protocol tests use: one
# apt-get call, with man-db's trigger (15-20 s a call) turned off. No daemon
# starts on install here (policy-rc.d); each test starts its own on a free
# port of 127.0.0.1 and stops it.
packages=(
	curl openssl build-essential patch socat tmux # tools; the peers in ../shared/peers build with gcc and patch
	wget                                          # its --warc-file beside the archive's (archive/live_test.go)
	vsftpd python3-pyftpdlib nginx-light          # ftp, http
	squid                                         # an HTTP proxy (http/proxy_test.go)
	pygopherd gophernicus molly-brown stunnel4    # gopher (UMN gopherd is built from ../shared/peers), gemini, gophers
	inetutils-telnetd inetutils-telnet busybox-static # telnet
	python3-aiosmtpd exim4-daemon-light           # mailto
	lynx w3m chromium                             # the gateway's web clients (gateway/clients_test.go, news_test.go)
)
missing=()
for p in "${packages[@]}" inn2; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
	if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
		echo "installing test servers: ${missing[*]}"
		rm -f /var/lib/man-db/auto-update
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
		# INN's postinst fails on a host name without a domain: install it on
		# its own, give inn.conf a domain, and finish configuring. The tests run their own innd on a
		# free port with a copy of inn.conf.
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends inn2 >/dev/null 2>&1 || true
		if [[ -f /etc/news/inn.conf ]]; then
			sed -i 's/^#\?domain:.*/domain:                      feas.test/' /etc/news/inn.conf
			dpkg --configure -a >/dev/null
		fi
	else
		echo "not root or no apt-get: tests needing ${missing[*]} will skip"
	fi
fi

# Webrecorder's warcio (JavaScript, from the npm registry): the
# independent reader every WARC file the archive tests write must pass.
warcio="${LOCATOR_WARCIO:-${XDG_CACHE_HOME:-$HOME/.cache}/locator-peers/warcio}"
if command -v npm >/dev/null && [[ ! -d $warcio/node_modules/warcio ]]; then
	npm install --prefix "$warcio" --no-audit --no-fund --loglevel=error warcio@2.4.11 >/dev/null ||
		echo "warcio could not be installed: the archive tests that need it will skip"
fi

# ReplayWeb.page, the Webrecorder player (its static app, one bundle:
# npm pack, not npm install, whose dependency tree is its build's), and
# puppeteer-core to drive Debian's chromium: the tests open what
# locator records in it as a person would (internal/replayweb).
rwp="${LOCATOR_REPLAYWEB:-${XDG_CACHE_HOME:-$HOME/.cache}/locator-peers/replaywebpage}"
if command -v npm >/dev/null && [[ ! -f $rwp/node_modules/replaywebpage/sw.js || ! -d $rwp/node_modules/puppeteer-core ]]; then
	if npm install --prefix "$rwp" --no-audit --no-fund --loglevel=error puppeteer-core@25.19.0 >/dev/null &&
		tgz=$(cd "$rwp" && npm pack --silent replaywebpage@2.5.3) &&
		mkdir -p "$rwp/node_modules/replaywebpage" &&
		tar -xzf "$rwp/$tgz" -C "$rwp/node_modules/replaywebpage" --strip-components=1 && rm -f "$rwp/$tgz"; then
		:
	else
		echo "ReplayWeb.page could not be installed: the tests that open archives in it will skip"
	fi
fi

go vet ./...
go test -count=1 ./...

# The bulk pipeline is its own module (Apache Beam): its tests run the
# pipeline on prism, in-process and as a job server on 127.0.0.1, and
# compare it with the command record for record. The first build fetches
# and compiles Beam (about 0.9 GB of modules; minutes).
(cd bulk && go vet ./... && go test -count=1 -timeout 30m ./...)

# A short pass of every fuzz target: replays the stored crashers under
# testdata/fuzz and looks briefly for shallow new ones. Each package's
# fuzzing test binary is built once (go test -c -fuzz), not once per
# target, and two targets run at a time, one worker each (2 cores).
fuzztime=${FUZZTIME:-2s}
if [[ $fuzztime != 0 ]]; then
	bins=$(mktemp -d)
	trap 'rm -rf "$bins"' EXIT
	cache="$(go env GOCACHE)/fuzz"
	for pkg in $(go list ./...); do
		dir=$(go list -f '{{.Dir}}' "$pkg")
		grep -qs '^func Fuzz' "$dir"/*_test.go || continue
		echo "$pkg $dir $bins/$(tr / _ <<<"$pkg").test"
	done >"$bins/packages"
	# Two builds at a time; then the list of targets, one line each.
	xargs -P 2 -L 1 bash -c 'go test -c -fuzz . -o "$2" "$0"' <"$bins/packages"
	while read -r pkg dir bin; do
		for target in $("$bin" -test.list '^Fuzz' | grep '^Fuzz'); do
			echo "$pkg $dir $bin $target"
		done
	done <"$bins/packages" >"$bins/targets"
	# fuzz_one PKG DIR BIN TARGET: Go's coordinator can end a short run
	# with "context deadline exceeded" and no failing input when a worker
	# is busy as the time runs out (a toolchain race, not a finding):
	# such a run is tried once more; a failing input always fails.
	fuzz_one() {
		local pkg=$1 dir=$2 bin=$3 target=$4 out
		out=$(mktemp)
		for try in 1 2; do
			if (cd "$dir" && "$bin" -test.run '^$' -test.fuzz "^${target}\$" -test.fuzztime "$FUZZTIME" \
				-test.parallel 1 -test.fuzzcachedir "$FUZZCACHE/$pkg/$target") >"$out" 2>&1; then
				echo "fuzz $pkg $target ($FUZZTIME): ok"
				rm -f "$out"
				return 0
			fi
			if [[ $try == 1 ]] && grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input' "$out"; then
				echo "fuzz $pkg $target: the run ended on the coordinator's deadline without a finding; once more"
				continue
			fi
			echo "fuzz $pkg $target: FAILED"
			cat "$out"
			rm -f "$out"
			return 1
		done
	}
	export -f fuzz_one
	export FUZZTIME="$fuzztime" FUZZCACHE="$cache"
	if ! xargs -P 2 -L 1 bash -c 'fuzz_one "$@"' _ <"$bins/targets"; then
		echo "fuzz: a target failed (above)"
		exit 1
	fi
	echo "fuzz: every target ($(wc -l <"$bins/targets")) ran $fuzztime without a failure"
fi
