# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Fixtures the shell tests share, sourced (after tap.sh).
#
#   printk_obj OUT MODULE FUNCTION FILE FORMAT...
#			OUT, an ET_REL object (and its assembly, OUT
#			without .o and with .s) whose printk index holds
#			a site per FORMAT: level 3, of module MODULE, in
#			FUNCTION of FILE, at line 10 times its number;
#			for kmsg-doc build-db. CC, else gcc, assembles it
#   mount_ns		ns, an array: the command that runs one in a
#			mount namespace of its own (unshare -m as root,
#			else unshare -rm in a user namespace of its own),
#			empty where the host allows neither
#   fake_journald OUT COMMAND [ARG...]
#			COMMAND in a mount namespace of its own ("${ns[@]}"
#			of mount_ns), with a tmpfs on /run/systemd and
#			journal-native.py listening at journald's native
#			socket, /run/systemd/journal/socket, saving what
#			it receives in OUT; the exit status: COMMAND's
_lib_here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")

printk_obj() {	# printk_obj OUT MODULE FUNCTION FILE FORMAT...
	local out=$1 i=0 f
	shift
	{
		printf '\t.section .rodata,"a"\n.Lfunc:\t.string "%s"\n' "$2"
		printf '.Lfile:\t.string "%s"\n.Lmod:\t.string "%s"\n' "$3" "$1"
		shift 3
		for f in "$@"; do
			i=$((i + 1))
			printf '\t.section .rodata,"a"\n.Lf%d:\t.string "\\0013%s\\n"\n' $i "$f"
			printf '\t.section .data.rel.ro,"aw"\n.Le%d:\t.quad .Lf%d, .Lfunc, .Lfile\n' $i $i
			printf '\t.long %d\n\t.quad 0, 0, .Lmod, 0\n\t.long 0\n' $((i * 10))
			printf '\t.section .printk_index,"aw"\n\t.quad .Le%d\n' $i
		done
	} > "${out%.o}.s"
	${CC:-gcc} -c -x assembler "${out%.o}.s" -o "$out"
}

mount_ns() {
	if [ "$(id -u)" = 0 ] && unshare -m true 2> /dev/null; then
		ns=(unshare -m)
	elif unshare -rm true 2> /dev/null; then
		ns=(unshare -rm)
	else
		ns=()
	fi
}

fake_journald() {	# fake_journald OUT COMMAND [ARG...]
	# shellcheck disable=SC2016 # expanded by the inner shell
	"${ns[@]}" /bin/sh -c '
		here=$1 out=$2
		shift 2
		mount -t tmpfs none /run/systemd || exit 1
		mkdir /run/systemd/journal
		python3 "$here/journal-native.py" /run/systemd/journal/socket "$out" &
		for i in $(seq 100); do
			[ -e /run/systemd/journal/socket.ready ] && break
			sleep 0.1
		done
		"$@"; rc=$?
		python3 -c "import socket; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b\"STOP\", \"/run/systemd/journal/socket\")"
		wait
		exit $rc' sh "$_lib_here" "$@"
}
