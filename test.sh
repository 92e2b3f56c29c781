#!/usr/bin/env bash
# Runs every test of locator: it installs the real servers the protocol
# tests talk to (when run as root on Debian, as CI is), then go vet, every
# test of every package, and a short pass of every fuzz target.
#
# Conformance vectors, corpora and peers are read from ../shared beside the
# repository. A test whose server is absent skips with a one-line reason,
# so `go test ./...` alone passes too.
#
#   FUZZTIME=5s   time per fuzz target in the short pass (0 to skip it)
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

go vet ./...
go test -count=1 ./...

# The bulk pipeline is its own module (Apache Beam): its tests run the
# pipeline on prism, in-process and as a job server on 127.0.0.1, and
# compare it with the command record for record. The first build fetches
# and compiles Beam (about 0.9 GB of modules; minutes).
(cd bulk && go vet ./... && go test -count=1 -timeout 30m ./...)

# A short pass of every fuzz target: replays the stored crashers under
# testdata/fuzz and looks briefly for shallow new ones.
fuzztime=${FUZZTIME:-5s}
if [[ $fuzztime != 0 ]]; then
	for pkg in $(go list ./...); do
		for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
			echo "fuzz $pkg $target ($fuzztime)"
			# Go's coordinator can end a short run with "context deadline
			# exceeded" and no failing input when a worker is busy as the
			# time runs out (a toolchain race, not a finding): such a run is
			# tried once more; a failing input always fails.
			for try in 1 2; do
				if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -parallel 2 "$pkg" >/tmp/locator-fuzz.$$ 2>&1; then
					break
				fi
				if [[ $try == 1 ]] && grep -q 'context deadline exceeded' /tmp/locator-fuzz.$$ && ! grep -q 'Failing input' /tmp/locator-fuzz.$$; then
					echo "fuzz $pkg $target: the run ended on the coordinator's deadline without a finding; once more"
					continue
				fi
				cat /tmp/locator-fuzz.$$
				rm -f /tmp/locator-fuzz.$$
				exit 1
			done
		done
	done
	rm -f /tmp/locator-fuzz.$$
	echo "fuzz: every target ran $fuzztime without a failure"
fi
