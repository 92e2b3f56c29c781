#!/bin/sh
# docs/gateway-screenshot.sh [OUT.png] -- a screenshot of a Gopher menu
# rendered by `locator gateway`, for docs/cli.md and docs/gateway.md
# (docs/gateway-menu.png).
#
# Everything stays on loopback: gophernicus (under socat, as the tests
# run it) serves a small tree on a free port of 127.0.0.1, the gateway
# listens on another and allows only that server, and headless Chromium
# (every name but loopback unresolvable, background traffic off) opens
# the menu in the path form.
# Needs: go, socat, gophernicus, chromium. Processes are stopped by id.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-docs/gateway-menu.png}
for p in socat /usr/sbin/gophernicus chromium go; do
  command -v "$p" >/dev/null || { echo "gateway-screenshot: $p is not installed" >&2; exit 2; }
done
D=$(mktemp -d)
chmod 755 "$D"
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$D"; }
trap cleanup EXIT INT TERM

freeport() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
GP=$(freeport)
WP=$(freeport)

mkdir -p "$D/root/docs" "$D/root/cgi-bin" "$D/root/software"
printf 'Welcome to the locator test gopher.\nAll of it is served on 127.0.0.1.\n' > "$D/root/about.txt"
printf 'RFC 1738, Uniform Resource Locators (URL), December 1994.\n' > "$D/root/docs/rfc1738.txt"
printf 'Gopher+ notes.\n' > "$D/root/docs/gopher-plus.txt"
head -c 1048576 /dev/zero > "$D/root/software/image.bin"
printf '#!/bin/sh\nprintf "0Result for %%s\\t/about.txt\\t127.0.0.1\\t%s\\r\\n" "$SEARCHREQUEST"\n' "$GP" > "$D/root/cgi-bin/find"
chmod 755 "$D/root/cgi-bin/find"
cat > "$D/root/gophermap" <<EOF
iThe locator gateway renders Gopher menus as HTML.	fake	(NULL)	0
iEvery link below leads back through the gateway.	fake	(NULL)	0
i	fake	(NULL)	0
0About this server	/about.txt
1Documents	/docs
1Software	/software
7Search the server	/cgi-bin/find
9A 1 MiB image	/software/image.bin
hThe URL standard on the web	URL:https://www.rfc-editor.org/rfc/rfc1738
8A telnet session	login	127.0.0.1	23
EOF
chmod -R a+rX "$D/root"
mkdir -p "$D/log" && chmod 777 "$D/log"
su=""; [ "$(id -u)" = 0 ] && su=",su=nobody"
socat TCP-LISTEN:$GP,bind=127.0.0.1,reuseaddr,fork \
  EXEC:"/usr/sbin/gophernicus -h 127.0.0.1 -p $GP -r $D/root -ns -nh -nf -l $D/log/access.log"$su,nofork &
pids="$pids $!"
go build -o "$D/locator" ./cmd/locator
"$D/locator" gateway --listen 127.0.0.1:$WP --allow 127.0.0.1:$GP --log "$D/gateway.log" > "$D/gateway.out" &
pids="$pids $!"
for i in $(seq 50); do
  curl -s -o /dev/null "http://127.0.0.1:$WP/" && break
  sleep 0.2
done
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --disable-default-apps --disable-extensions \
  --user-data-dir="$D/profile" --hide-scrollbars \
  --host-resolver-rules='MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost' \
  --screenshot="$OUT" --window-size=720,640 "http://127.0.0.1:$WP/gopher://127.0.0.1:$GP/1/" 2>/dev/null
echo "gateway-screenshot: $OUT"
sed 's/^/gateway log: /' "$D/gateway.log"
