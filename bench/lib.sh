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
