# SPDX-License-Identifier: GPL-2.0
#
# Sourced by qemu/stock/init (as /etc/stock-service.sh) once the log was
# read, with its step(), wait_for(), $out and $rc: kmsg dmesg --follow the
# way kmsg-journal.service runs it on a kernel without the kmsg:kmsg
# event, into systemd-journald, and beside it a second kmsg dmesg --follow
# into OTLP with a state file of its own. Both go, in three runs, through
#
#   an overrun: both stopped (SIGSTOP) while a burst of records larger
#     than the log buffer is written, then let go: the records overwritten
#     meanwhile must be reported missed, exactly;
#   a clean restart (SIGTERM): records written while none reads must be
#     written once, after the last of the first run;
#   a kill -9 while they write a burst the log buffer holds, slowly
#     (their consumers throttled): on restart nothing is lost, and what
#     is written twice is what was written since the state file, the
#     last half second at most.
#
# The records the test writes are user space's ("<6>stock-service:
# ..."): the markers by which the host test finds where each step was,
# and the bursts. The outputs follow on ttyS1: JOURNAL (journalctl -o json
# of SYSLOG_IDENTIFIER=kmsg), OTLP-1 to OTLP-3 (each run's lines),
# SERVICE-ERR (the runs' standard error), SERVICE-LOG (the runs' pids).

# journalctl writes to the serial port: no pager, no colours
export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0
mkdir -p /run/systemd/journal /run/log/journal /var/lib/kmsg
# journald names its clients' units from their cgroups
mount -t cgroup2 cgroup2 /sys/fs/cgroup
/lib/systemd/systemd-journald > /tmp/journald.err 2>&1 &
journald=$!
step journald wait_for 300 test -S /run/systemd/journal/socket
# user space's records unlimited (printk.devkmsg=on), for the bursts
step devkmsg sh -c 'echo on > /proc/sys/kernel/printk_devkmsg'

mark() { echo "<6>stock-service: $1" > /dev/kmsg; }
# burst NAME N SIZE: N records of SIZE bytes of padding, at debug level
# (not on the console)
burst() {
	_i=0 _pad=$(printf "%0${3}d" 0)
	while [ $_i -lt "$2" ]; do
		echo "<7>stock-service: $1 $_i $_pad" > /dev/kmsg
		_i=$((_i + 1))
	done
}

run=0
# both, as the service starts kmsg (its command line, its StateDirectory=)
start() {
	run=$((run + 1))
	STATE_DIRECTORY=/var/lib/kmsg KMSG_CACHE_DIR='' \
		KMSG_TRACEFS=/sys/kernel/tracing \
		/bin/sh /etc/kmsg-journal.sh 2>> /tmp/service.err &
	jpid=$!
	# OTLP into a pipe, as into a log shipper: cat drains it to the file
	cat /tmp/otlp.pipe > /tmp/otlp.$run &
	cpid=$!
	KMSG_CACHE_DIR='' /usr/bin/kmsg dmesg --follow --otlp --state /tmp/otlp.state \
		> /tmp/otlp.pipe 2>> /tmp/service.err &
	opid=$!
	echo "run $run journal $jpid otlp $opid" >> /tmp/service.log
}
mkfifo /tmp/otlp.pipe
# seen TEXT: both runs wrote the record of marker TEXT
seen() {
	grep -q "\"stock-service: $1\"" /tmp/otlp.$run &&
		journalctl --no-pager -q -o cat SYSLOG_IDENTIFIER=kmsg | grep -qxF "stock-service: $1"
}
# follows STEP TEXT: both runs write the record of marker TEXT (within
# three minutes: the database loads in about a minute under TCG); the
# step fails as soon as one of them, or journald, ended
seen_or_gone() {
	seen "$1" || ! kill -0 $jpid $opid $journald 2>/dev/null
}
follows() {
	wait_for 1800 seen_or_gone "$2"
	step "$1" seen "$2"
	seen "$2" && return
	echo "stock-service: $1: not followed; their standard error, journald's:"
	tail -n 5 /tmp/service.err /tmp/journald.err
}
# stop NAME: SIGTERM to both, each to end with status 0 within 60 s
stop() {
	kill -TERM $jpid $opid
	(sleep 60; kill -KILL $jpid $opid) 2>/dev/null &
	_dog=$!
	wait $jpid
	_j=$?
	wait $opid
	_o=$?
	wait $cpid
	kill $_dog 2>/dev/null
	echo "run $run stopped: journal $_j otlp $_o" >> /tmp/service.log
	step "$1" [ "$_j $_o" = "0 0" ]
}

start
mark "run 1"
follows "run 1 reads" "run 1"
kill -STOP $jpid $opid
mark "burst 1 begin"
burst "burst 1" 300 900
mark "burst 1 end"
kill -CONT $jpid $opid
follows "run 1 after the overrun" "burst 1 end"
stop "run 1 SIGTERM"
mark "down 1"
mark "down 2"
start
mark "run 2"
follows "run 2 reads" "run 2"
# a kill -9 while they write, slowly: both stopped over a burst the log
# buffer holds, then let go while their consumers (journald, the pipe's
# cat) run a twentieth of the time, so that they write for seconds,
# blocked in write() or sendmsg() most of it; killed two seconds in
kill -STOP $jpid $opid
mark "burst 2 begin"
burst "burst 2" 1000 40
mark "burst 2 end"
rm -f /tmp/unthrottle
(
	while [ ! -e /tmp/unthrottle ]; do
		kill -STOP $journald $cpid
		sleep 0.4
		kill -CONT $journald $cpid
		sleep 0.02
	done
) &
tpid=$!
kill -CONT $jpid $opid
sleep 2
kill -KILL $jpid $opid
touch /tmp/unthrottle
wait $tpid
kill -CONT $journald $cpid
wait $jpid
_j=$?
wait $opid
_o=$?
wait $cpid
echo "run $run killed: journal $_j otlp $_o" >> /tmp/service.log
step "run 2 killed" [ "$_j $_o" = "137 137" ]
mark "down 3"
start
mark "run 3"
follows "run 3 reads" "run 3"
mark "end"
follows "run 3 to the end" "end"
# the memory left with journald and both kmsg running (512 MiB in all)
grep MemAvailable /proc/meminfo >&3
stop "run 3 SIGTERM"

for s in JOURNAL OTLP-1 OTLP-2 OTLP-3 SERVICE-ERR SERVICE-LOG; do
	echo "KMSG-STOCK-$s-BEGIN" >&3
	case $s in
	JOURNAL) journalctl --no-pager -q --all -o json SYSLOG_IDENTIFIER=kmsg \
		--output-fields=_PID,MESSAGE,PRIORITY,KMSG_SEQ,KMSG_ID,KMSG_AUTO_ID,KMSG_MATCH,KMSG_MISSED,KMSG_MISSED_FIRST_SEQ,KMSG_MISSED_LAST_SEQ,KMSG_OVERRUN ;;
	OTLP-*) cat "/tmp/otlp.${s#OTLP-}" ;;
	SERVICE-ERR) cat /tmp/service.err ;;
	SERVICE-LOG) cat /tmp/service.log ;;
	esac >&3
	echo "KMSG-STOCK-$s-END" >&3
done
