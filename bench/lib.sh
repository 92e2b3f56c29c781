# bench/lib.sh — shell code the bench scripts share; sourced, not run.
# The sourcing script sets D (its temporary directory) and runs
# `trap cleanup EXIT`; it adds each server's process id to PIDS.

PY=/usr/bin/python3 # Debian's, which sees python3-pyftpdlib
PIDS=()

# cleanup stops every server by its process id and removes $D.
cleanup() {
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$D"
}

free_port() {
	$PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_port() { # wait until 127.0.0.1:$1 accepts, at most 10 s
	for _ in $(seq 200); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	echo "bench: nothing answers on port $1" >&2
	exit 2
}

# vsftpd_conf PORT PMIN PMAX prints a vsftpd.conf for anonymous,
# read-only FTP of $D/ftproot on 127.0.0.1:PORT, passive ports PMIN–PMAX.
vsftpd_conf() {
	cat <<EOC
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=$1
background=NO
anonymous_enable=YES
anon_root=$D/ftproot
no_anon_password=NO
local_enable=NO
write_enable=NO
pasv_enable=YES
pasv_min_port=$2
pasv_max_port=$3
pasv_address=127.0.0.1
secure_chroot_dir=$D/empty
xferlog_enable=NO
EOC
}

# A range of 20 consecutive ports nothing listens on, for passive mode.
free_range() {
	local base p busy
	for _ in $(seq 50); do
		base=$((30000 + RANDOM % 30000))
		busy=0
		for p in $(seq "$base" $((base + 19))); do
			if ss -Htln "sport = :$p" | grep -q .; then busy=1; break; fi
		done
		[ "$busy" = 0 ] && { echo "$base $((base + 19))"; return; }
	done
	echo "bench: no free passive port range" >&2
	exit 2
}

# start_ftp_http serves $D/ftproot by FTP (vsftpd when run as root, else
# pyftpdlib) and $D/www by nginx, on free ports of 127.0.0.1: it sets
# FTP_PORT, HTTP_PORT and FTPD, and waits until both answer.
start_ftp_http() {
	mkdir -p "$D/empty" "$D/nginx"
	FTP_PORT=$(free_port)
	read -r PMIN PMAX < <(free_range)
	if [ "$(id -u)" = 0 ] && command -v vsftpd >/dev/null; then
		FTPD=vsftpd
		chmod 555 "$D/ftproot"
		vsftpd_conf "$FTP_PORT" "$PMIN" "$PMAX" >"$D/vsftpd.conf"
		chmod 600 "$D/vsftpd.conf"
		vsftpd "$D/vsftpd.conf" >"$D/ftpd.out" 2>&1 &
		PIDS+=($!)
	elif $PY -c 'import pyftpdlib' 2>/dev/null; then
		FTPD=pyftpdlib
		$PY -m pyftpdlib -i 127.0.0.1 -p "$FTP_PORT" -d "$D/ftproot" -r "$PMIN-$PMAX" >"$D/ftpd.out" 2>&1 &
		PIDS+=($!)
	else
		echo "bench: neither vsftpd (as root) nor python3-pyftpdlib is installed" >&2
		exit 2
	fi
	wait_port "$FTP_PORT"

	HTTP_PORT=$(free_port)
	cat >"$D/nginx/nginx.conf" <<-EOF
	daemon off; master_process on; worker_processes 1; user nobody nogroup;
	pid $D/nginx/nginx.pid; error_log $D/nginx/error.log;
	events { worker_connections 64; }
	http { access_log off; sendfile on;
	  client_body_temp_path $D/nginx/body; proxy_temp_path $D/nginx/proxy;
	  fastcgi_temp_path $D/nginx/fastcgi; uwsgi_temp_path $D/nginx/uwsgi; scgi_temp_path $D/nginx/scgi;
	  server { listen 127.0.0.1:$HTTP_PORT; root $D/www; } }
	EOF
	chmod 755 "$D" "$D/www"
	chmod -R a+rX "$D/www"
	nginx -e stderr -p "$D/nginx" -c "$D/nginx/nginx.conf" >"$D/nginx.out" 2>&1 &
	PIDS+=($!)
	wait_port "$HTTP_PORT"
}

# make_site DIR PAGES LOGO_OCTETS PLANTED: the generated site of the
# crawl benches under DIR/www: an index, PAGES pages linking each other
# (absolute, relative, the index, an image of LOGO_OCTETS random octets
# after PNG's signature); PLANTED=1 adds a robots.txt and a broken link
# on every hundredth page.
make_site() {
	mkdir -p "$1/www/img"
	$PY - "$1/www" "$2" "$3" "$4" <<'EOF'
import os, sys
root, n, logo, planted = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
def page(i): return f"/d{i // 100}/p{i}.html"
if planted:
    with open(f"{root}/robots.txt", "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
with open(f"{root}/index.html", "w") as f:
    f.write('<!DOCTYPE html>\n<html><head><title>index</title></head><body>\n<a href="d0/p0.html">start</a>\n</body></html>\n')
with open(f"{root}/img/logo.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + os.urandom(logo))
for i in range(n):
    nxt, rel = (i + 1) % n, (2 * i + 1) % n
    broken = f'<a href="missing-{i}.html">gone</a>\n' if planted and i % 100 == 50 else ""
    os.makedirs(f"{root}/d{i // 100}", exist_ok=True)
    with open(root + page(i), "w") as f:
        f.write(f'<!DOCTYPE html>\n<html><head><title>p{i}</title></head><body>\n<a href="{page(nxt)}">next</a>\n'
                f'<a href="../d{rel // 100}/p{rel}.html">rel</a>\n<a href="/">index</a>\n<img src="/img/logo.png">\n{broken}'
                '<p>' + "Some text of the page. " * 40 + '</p>\n</body></html>\n')
EOF
	chmod -R a+rX "$1/www"
}

# start_site DIR [SERVER_DIRECTIVES]: nginx serving DIR/www on a free
# port of 127.0.0.1 (its pid in PIDS); sets HTTP_PORT and SITE.
start_site() {
	mkdir -p "$1/nginx"
	HTTP_PORT=$(free_port)
	cat >"$1/nginx/nginx.conf" <<EOF
daemon off; master_process on; worker_processes 1; user nobody nogroup;
pid $1/nginx/nginx.pid; error_log $1/nginx/error.log;
events { worker_connections 256; }
http { access_log off; sendfile on;
  types { text/html html; image/png png; text/plain txt; }
  client_body_temp_path $1/nginx/body; proxy_temp_path $1/nginx/proxy;
  fastcgi_temp_path $1/nginx/fastcgi; uwsgi_temp_path $1/nginx/uwsgi; scgi_temp_path $1/nginx/scgi;
  server { listen 127.0.0.1:$HTTP_PORT; root $1/www; ${2:-} } }
EOF
	nginx -e stderr -p "$1/nginx" -c "$1/nginx/nginx.conf" >"$1/nginx.out" 2>&1 &
	PIDS+=($!)
	wait_port "$HTTP_PORT"
	SITE="http://127.0.0.1:$HTTP_PORT/"
}

# measure NAME CMD... appends "wall cpu rss_kb" of one run of CMD to
# $D/NAME (cpu = user + system). The run named cli may exit 1 (locator
# parse: an input that is not a URL; locator probe: a URL not there);
# any other failure ends the bench.
measure() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$D/time" "$@" >/dev/null 2>"$D/$name.err" || {
		local rc=$?
		[[ $name == cli && $rc == 1 ]] || { echo "bench: $name exited $rc" >&2; tail -5 "$D/$name.err" >&2; exit 1; }
	}
	tail -1 "$D/time" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$D/$name"
}
